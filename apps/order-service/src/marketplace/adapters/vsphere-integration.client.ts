import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import {
  INTEGRATION_GET_PATTERN,
  INTEGRATION_SYNC_PATTERN,
  INTEGRATION_UPDATE_PATTERN,
  refuse,
  type RequestReply,
} from '@app/contracts';
import { askService, NO_ANSWER } from '@app/messaging';
import type { IntegrationPort, IntegrationSummary } from '../ports/integration.port';

// The adapter's internal request patterns (libs/contracts/src/vsphere), which only the order
// service may send: asked with the offering's uuid, after the order service checked the caller.
const PATTERNS = {
  get: INTEGRATION_GET_PATTERN,
  update: INTEGRATION_UPDATE_PATTERN,
  sync: INTEGRATION_SYNC_PATTERN,
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
    const reply = await askService(this.client, pattern, payload, ADAPTER_TIMEOUT_MS);
    if (reply === NO_ANSWER)
      return refuse(503, 'The vsphere-adapter service is not available; try again shortly.');
    return reply as RequestReply<IntegrationSummary>;
  }
}
