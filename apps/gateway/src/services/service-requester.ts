import {
  Inject,
  Injectable,
  ServiceUnavailableException,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError, type Subscription } from 'rxjs';
import { CONFIG, SERVICES_CLIENT, type GatewayConfig } from '../config/gateway.config';

/**
 * Asks a service over NATS request-reply. No responder (NATS answers 503 at once) or no answer
 * within the timeout both become HTTP 503 with a message naming the service; while the gateway's
 * own NATS link is down, 503 naming NATS comes at once: never a hanging request.
 */
@Injectable()
export class ServiceRequester implements OnModuleInit, OnApplicationShutdown {
  private connected = true;
  private statusSubscription?: Subscription;

  constructor(
    @Inject(SERVICES_CLIENT) private readonly client: ClientProxy,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  get natsConnected(): boolean {
    return this.connected;
  }

  onModuleInit(): void {
    // The client is connected by its factory; from then on Nest reports each loss and return.
    this.statusSubscription = this.client.status.subscribe((status) => {
      this.connected = status === 'connected';
    });
  }

  /** The client comes from a factory, so Nest does not close it: an open NATS link would keep the process alive. */
  async onApplicationShutdown(): Promise<void> {
    this.statusSubscription?.unsubscribe();
    await this.client.close();
  }

  /**
   * When a request sent now stops being waited for, less the time its answer needs to come back
   * (a tenth of the timeout, at most 250 ms): what the gateway tells the service as its deadline, so
   * that work the service commits is answered before the 503, and a 503 stands for work not done.
   */
  deadlineFromNow(): number {
    const timeoutMs = this.config.REQUEST_TIMEOUT_MS;
    return Date.now() + timeoutMs - Math.min(250, Math.round(timeoutMs / 10));
  }

  async request<T>(
    pattern: string,
    payload: unknown,
    timeoutMs = this.config.REQUEST_TIMEOUT_MS,
  ): Promise<T> {
    if (!this.connected) {
      throw new ServiceUnavailableException('NATS is not available to the gateway; try again shortly.');
    }
    try {
      return await firstValueFrom(this.client.send<T>(pattern, payload ?? {}).pipe(timeout(timeoutMs)));
    } catch (error) {
      const service = pattern.split('.')[0];
      if (error instanceof TimeoutError) {
        throw new ServiceUnavailableException(
          `The ${service} service did not answer within ${timeoutMs} ms.`,
        );
      }
      if (isNoResponders(error)) {
        throw new ServiceUnavailableException(`The ${service} service is not available.`);
      }
      throw error;
    }
  }
}

// NATS answers a request nobody listens to with an empty 503 message, which Nest's client reports
// as EmptyResponseException (not exported from the package root, hence the name check).
function isNoResponders(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'EmptyResponseException' || /no responders|empty response/i.test(error.message))
  );
}
