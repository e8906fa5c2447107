import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import { refuse, type RequestReply } from '@app/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { IntegrationPort, IntegrationSummary } from '../ports/integration.port';

// The adapter's request patterns (libs/contracts/src/vsphere): asked with the offering's uuid.
const PATTERNS = {
  get: 'vsphere.integration.get',
  update: 'vsphere.integration.update',
  sync: 'vsphere.integration.sync',
} as const;

const ADAPTER_TIMEOUT_MS = 5_000;

/** The vSphere adapter over core NATS: its integration of one offering, read, changed, synchronised. */
@Injectable()
export class VsphereIntegrationClient implements IntegrationPort, OnApplicationShutdown {
  constructor(private readonly client: ClientNats) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  get(offeringUuid: string): Promise<RequestReply<IntegrationSummary>> {
    return this.ask(PATTERNS.get, { offering_uuid: offeringUuid });
  }

  update(offeringUuid: string, customerUuid: string, serviceAttributes: Record<string, unknown>) {
    return this.ask(PATTERNS.update, {
      offering_uuid: offeringUuid,
      customer_uuid: customerUuid,
      service_attributes: serviceAttributes,
    });
  }

  sync(offeringUuid: string): Promise<RequestReply<IntegrationSummary>> {
    return this.ask(PATTERNS.sync, { offering_uuid: offeringUuid });
  }

  private async ask(pattern: string, payload: object): Promise<RequestReply<IntegrationSummary>> {
    try {
      return await firstValueFrom(
        this.client
          .send<RequestReply<IntegrationSummary>>(pattern, payload)
          .pipe(timeout(ADAPTER_TIMEOUT_MS)),
      );
    } catch (error) {
      if (
        error instanceof TimeoutError ||
        (error instanceof Error && /no responders|empty response/i.test(error.message))
      )
        return refuse(503, 'The vsphere-adapter service is not available; try again shortly.');
      throw error;
    }
  }
}
