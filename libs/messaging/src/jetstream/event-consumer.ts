import type { BeforeApplicationShutdown, FactoryProvider, OnApplicationBootstrap } from '@nestjs/common';
import { SERVICE_RUNTIME, type ServiceRuntime } from '../runtime/service-runtime';
import type { ConsumerPolicy } from './consumer-policy';
import { ConsumerRunner, type EventRoute } from './consumer-runner';
import { ensureDurableConsumer, type DurableSpec } from './ensure-topology';
import { untilJetStreamAnswers } from './until-jetstream-answers';

export interface EventConsumerSpec {
  durable: DurableSpec;
  policy: ConsumerPolicy;
  routes: EventRoute<unknown>[];
  /** How long a stop waits for the handlers in hand before it aborts them. */
  shutdownGraceMs: number;
}

/**
 * One durable consumer of a service, started with the app and stopped before its runtime closes:
 * the durable is created or updated, then a runner pulls from it.
 */
export class EventConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runner?: ConsumerRunner;

  constructor(
    private readonly runtime: ServiceRuntime,
    private readonly spec: EventConsumerSpec,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { jsm, js, nats, logger, metrics } = this.runtime;
    const { durable, policy, routes } = this.spec;
    await untilJetStreamAnswers(
      () => ensureDurableConsumer(jsm, durable, policy),
      (reason, delayMs) =>
        logger.warn(
          { reason, delayMs, durable: durable.durable },
          'waiting for JetStream to set up a durable',
        ),
    );
    this.runner = new ConsumerRunner({ js, connection: nats, durable, policy, routes, logger, metrics });
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.spec.shutdownGraceMs);
  }
}

/**
 * A Nest provider for one event consumer: `build` receives the runtime and the injected
 * dependencies (`inject`) and says which durable, policy and handlers.
 */
export function eventConsumerProvider<D extends unknown[]>(options: {
  provide: string | symbol;
  inject: FactoryProvider['inject'];
  build: (runtime: ServiceRuntime, ...deps: D) => EventConsumerSpec;
}): FactoryProvider<EventConsumer> {
  return {
    provide: options.provide,
    inject: [SERVICE_RUNTIME, ...(options.inject ?? [])],
    useFactory: (runtime: ServiceRuntime, ...deps: unknown[]) =>
      new EventConsumer(runtime, options.build(runtime, ...(deps as D))),
  };
}
