import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_RUNTIME, type ServiceRuntime } from './service-runtime';

/**
 * Starts the outbox relay once the app is up and closes the runtime (relay, NATS, Postgres) last.
 * Nest stops in this order on SIGTERM: consumers stop pulling and finish what they hold
 * (`beforeApplicationShutdown`), the request server drains (dispose), then `onApplicationShutdown`
 * closes the runtime: no handler is cut off from its database mid-event.
 */
@Injectable()
export class RuntimeLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SERVICE_RUNTIME) private readonly runtime: ServiceRuntime) {}

  onApplicationBootstrap(): void {
    this.runtime.start();
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    await this.runtime.close();
    this.runtime.logger.info({ signal }, `${this.runtime.app} stopped`);
  }
}
