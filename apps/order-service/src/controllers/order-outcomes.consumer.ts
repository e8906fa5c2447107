import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OrderDoneEvent, OrderErredEvent } from '@app/contracts';
import {
  ConsumerRunner,
  DEFAULT_CONSUMER_POLICY,
  ensureDurableConsumer,
  route,
  SERVICE_RUNTIME,
  type ServiceRuntime,
} from '@app/messaging';
import { CONFIG } from '../config/config.token';
import type { OrderServiceConfig } from '../config/order-service.config';
import { OrderOutcomeService } from '../services/order-outcome.service';

/** The JetStream side of the order service: OrderDone and OrderErred from the adapters. */
@Injectable()
export class OrderOutcomesConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runner?: ConsumerRunner;

  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    @Inject(CONFIG) private readonly config: OrderServiceConfig,
    private readonly outcomes: OrderOutcomeService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { topology, jsm, js, logger } = this.runtime;
    const policy = { ...DEFAULT_CONSUMER_POLICY, ackWaitMs: this.config.CONSUMER_ACK_WAIT_MS };
    const durable = topology.consumers.orderServiceOutcomes;
    await ensureDurableConsumer(jsm, durable, policy);
    this.runner = new ConsumerRunner({
      js,
      durable,
      policy,
      logger,
      routes: [
        route(OrderDoneEvent, (envelope) => this.outcomes.onOrderDone(envelope)),
        route(OrderErredEvent, (envelope) => this.outcomes.onOrderErred(envelope)),
      ],
    });
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }
}
