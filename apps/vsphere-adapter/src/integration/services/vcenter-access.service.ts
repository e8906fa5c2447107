import { Injectable } from '@nestjs/common';
import { connectionOf, type VcenterConnection } from '../domain/vcenter-connection';
import type { IntegrationEntity } from '../entities/integration.entity';
import { IntegrationRepository } from '../repositories/integration.repository';
import { CredentialsService } from './credentials.service';

/** An offering's integration and the way to reach its vCenter (the password opened on demand). */
export interface OfferingAccess {
  readonly integration: IntegrationEntity;
  /** Throws IncompleteCredentialsError or CredentialCipherError when vCenter cannot be reached. */
  connection(): Promise<VcenterConnection>;
}

/** What other modules (orders) get of the integration: its options and its vCenter connection. */
@Injectable()
export class VcenterAccessService {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly credentials: CredentialsService,
  ) {}

  /** Null when the offering has no integration. */
  async forOffering(offeringUuid: string): Promise<OfferingAccess | null> {
    const row = await this.integrations.getById(offeringUuid);
    if (row === null) return null;
    return {
      integration: row,
      connection: async () =>
        connectionOf({
          backendUrl: row.backendUrl,
          username: row.username,
          password:
            row.passwordSealed === null
              ? undefined
              : (await this.credentials.open(row.offeringUuid, row.passwordSealed)).plaintext,
          verifySsl: row.verifySsl,
          caPem: row.caPem,
        }),
    };
  }
}
