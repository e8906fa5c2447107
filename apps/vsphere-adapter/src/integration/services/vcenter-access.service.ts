import { Injectable } from '@nestjs/common';
import { connectionOf, type VcenterConnection } from '../domain/vcenter-connection';
import type { IntegrationEntity } from '../entities/integration.entity';
import { IntegrationRepository } from '../repositories/integration.repository';
import { CredentialsService } from './credentials.service';
import { EndpointGuard } from './endpoint-guard.service';

/** An offering's integration and the way to reach its vCenter (the password opened on demand). */
export interface OfferingAccess {
  readonly integration: IntegrationEntity;
  /**
   * Throws IncompleteCredentialsError, PasswordNotForThisUrlError or CredentialCipherError when
   * vCenter cannot be reached.
   */
  connection(): Promise<VcenterConnection>;
}

/**
 * What other modules (orders) and the synchronisation get of the integration: its options and its
 * vCenter connection, the one place a stored password is opened for sending.
 */
@Injectable()
export class VcenterAccessService {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly credentials: CredentialsService,
    private readonly endpoints: EndpointGuard,
  ) {}

  /** Null when the offering has no integration. */
  async forOffering(offeringUuid: string): Promise<OfferingAccess | null> {
    const row = await this.integrations.getById(offeringUuid);
    if (row === null) return null;
    return { integration: row, connection: () => this.connectionOf(row) };
  }

  /**
   * The connection of a stored integration. A password bound to another URL than the stored one is
   * not even opened: it counts as not set (as the view shows it), and connectionOf checks the
   * binding again.
   */
  async connectionOf(row: IntegrationEntity): Promise<VcenterConnection> {
    const bound = row.passwordSealed !== null && row.passwordUrl === row.backendUrl;
    return connectionOf(
      {
        backendUrl: row.backendUrl,
        username: row.username,
        password: bound
          ? (await this.credentials.open(row.offeringUuid, row.passwordSealed as string)).plaintext
          : undefined,
        passwordUrl: row.passwordUrl,
        verifySsl: row.verifySsl,
        caPem: row.caPem,
      },
      this.endpoints.network,
    );
  }
}
