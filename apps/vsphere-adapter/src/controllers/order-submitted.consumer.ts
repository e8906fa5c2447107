import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OrderSubmittedEvent } from '@app/contracts';
import {
  ConsumerRunner,
  DEFAULT_CONSUMER_POLICY,
  ensureDurableConsumer,
  route,
  SERVICE_RUNTIME,
  type ServiceRuntime,
} from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../config/vsphere-adapter.config';
import { OrderProvisioningService } from '../services/order-provisioning.service';

/** OrderSubmitted for `VMware.VirtualMachine` offerings, pulled from the marketplace stream. */
@Injectable()
export class OrderSubmittedConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runner?: ConsumerRunner;

  constructor(
    @Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime,
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    private readonly provisioning: OrderProvisioningService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { topology, jsm, js, logger } = this.runtime;
    const policy = {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: this.config.CONSUMER_ACK_WAIT_MS,
      concurrency: this.config.ORDER_CONCURRENCY,
    };
    const durable = topology.consumers.adapterOrderSubmitted;
    await ensureDurableConsumer(jsm, durable, policy);
    this.runner = new ConsumerRunner({
      js,
      durable,
      policy,
      logger,
      routes: [route(OrderSubmittedEvent, (envelope) => this.provisioning.onOrderSubmitted(envelope))],
    });
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }
}
