import { X509Certificate } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type VsphereCaller,
  invalidField,
  ok,
  pemCertificateBlocks,
  refuse,
  type IntegrationSyncAccepted,
  type IntegrationView,
  type LimitsView,
  type RequestReply,
  type ServiceAttributes,
} from '@app/contracts';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { InventoryQueryRepository } from '../../inventory/repositories/inventory-query.repository';
import { InventoryQueryService } from '../../inventory/services/inventory-query.service';
import { UnitOfWork } from '@app/messaging';
import { NOT_FOUND } from '../../services/request-guard.service';
import { toIntegrationView, toLimitsView, syncStateOf } from '../dtos/integration.mapper';
import { IntegrationRepository, type IntegrationChanges } from '../repositories/integration.repository';
import type { IntegrationEntity } from '../entities/integration.entity';
import { CredentialsService } from './credentials.service';
import { EndpointGuard } from './endpoint-guard.service';
import { SyncCoordinator } from './sync-coordinator.service';

const FIELD = (name: string) => `service_attributes.${name}`;
const NO_KEYS =
  'The vSphere adapter has no CREDENTIALS_KEYS configured, so it cannot store passwords; ask the operator.';

/** Why a PEM bundle is not a list of X.509 certificates, or undefined. Pure. */
export function caPemProblem(pem: string): string | undefined {
  const blocks = pemCertificateBlocks(pem);
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch (error) {
      return `Certificate ${index + 1} cannot be read: ${error instanceof Error ? error.message : String(error)}.`;
    }
  }
  return blocks.length === 0 ? 'Enter one or more PEM certificates.' : undefined;
}

class InvalidAttribute extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The offering's integration as the order service asks for it: saves (one field at a time works;
 * every save starts a synchronisation), reads, synchronisation requests and the maximums.
 */
@Injectable()
export class IntegrationService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    private readonly uow: UnitOfWork,
    private readonly integrations: IntegrationRepository,
    private readonly inventory: InventoryQueryRepository,
    private readonly credentials: CredentialsService,
    private readonly coordinator: SyncCoordinator,
    private readonly endpoints: EndpointGuard,
    private readonly inventoryQueries: InventoryQueryService,
  ) {}

  async update(
    offeringUuid: string,
    attributes: ServiceAttributes,
    customerUuid?: string,
  ): Promise<RequestReply<IntegrationView>> {
    if (attributes.password !== undefined && !this.credentials.canSeal)
      return invalidField(FIELD('password'), NO_KEYS);
    if (attributes.ca_pem !== undefined && attributes.ca_pem !== null) {
      const problem = caPemProblem(attributes.ca_pem);
      if (problem !== undefined) return invalidField(FIELD('ca_pem'), problem);
    }
    if (attributes.backend_url !== undefined) {
      const refusal = await this.endpoints.refusalOf(attributes.backend_url);
      if (refusal !== undefined)
        return invalidField(FIELD('backend_url'), `This address may not be used for vCenter: ${refusal}.`);
    }
    try {
      await this.uow.run(async (tx) => {
        await this.integrations.createIfMissing(tx, offeringUuid);
        const row = await this.integrations.getForUpdate(tx, offeringUuid);
        if (row?.lastSyncSuccess != null && attributes.default_cluster_label)
          await this.checkClusterLabel(offeringUuid, attributes.default_cluster_label);
        await this.integrations.update(tx, offeringUuid, {
          ...this.changesOf(offeringUuid, attributes, row),
          ...(customerUuid === undefined ? {} : { customerUuid }),
        });
        await this.integrations.requestSync(offeringUuid, tx);
      });
    } catch (error) {
      if (error instanceof InvalidAttribute) return invalidField(FIELD(error.field), error.message);
      throw error;
    }
    this.coordinator.kick(offeringUuid);
    return this.get(offeringUuid);
  }

  async get(offeringUuid: string): Promise<RequestReply<IntegrationView>> {
    const row = await this.integrations.getById(offeringUuid);
    return row === null ? refuse(404, NOT_FOUND) : ok(toIntegrationView(row, this.config.VSPHERE_BASIC_MODE));
  }

  /** Records a request and answers at once; the run's end is the SyncFinished event. */
  async sync(offeringUuid: string): Promise<RequestReply<IntegrationSyncAccepted>> {
    if (!(await this.integrations.requestSync(offeringUuid))) return refuse(404, NOT_FOUND);
    this.coordinator.kick(offeringUuid);
    const row = await this.integrations.getById(offeringUuid);
    if (row === null) return refuse(404, NOT_FOUND);
    return ok({
      offering_uuid: offeringUuid,
      status: 'Synchronisation has been scheduled.',
      sync_state: syncStateOf(row) === 'SYNCING' ? 'SYNCING' : 'SCHEDULED',
      state: row.state,
      error_message: row.errorMessage,
    });
  }

  /** The maximums, for whoever may see the offering's inventory (a Draft's: its provider and staff): unseen is missing. */
  async limits(caller: VsphereCaller, offeringUuid: string): Promise<RequestReply<LimitsView>> {
    if (!(await this.inventoryQueries.canSee(caller, offeringUuid))) return refuse(404, NOT_FOUND);
    const row = await this.integrations.getById(offeringUuid);
    return row === null ? refuse(404, NOT_FOUND) : ok(toLimitsView(row));
  }

  // Known clusters only after a successful synchronisation: before it, any label is taken.
  private async checkClusterLabel(offeringUuid: string, label: string): Promise<void> {
    const names = await this.inventory.clusterNames(offeringUuid);
    if (names.includes(label)) return;
    const known = names.length === 0 ? 'none' : names.slice(0, 10).join(', ');
    throw new InvalidAttribute(
      'default_cluster_label',
      `No cluster named "${label}" was found at the last synchronisation (clusters: ${known}). Synchronise first if it is new.`,
    );
  }

  /**
   * The row's changes. A password is bound to the backend_url it is saved with (or the stored
   * one) and to the TLS trust it was entered under: a new backend_url or username, certificate
   * checks turned off, or another CA, saved without a password, clears the stored one, so a
   * password is never sent to an address, or past a certificate, it was not entered for.
   */
  private changesOf(
    offeringUuid: string,
    a: ServiceAttributes,
    row: IntegrationEntity | null,
  ): IntegrationChanges {
    const changes: IntegrationChanges = {};
    if (a.backend_url !== undefined) changes.backendUrl = a.backend_url;
    if (a.username !== undefined) changes.username = a.username;
    const url = a.backend_url ?? row?.backendUrl ?? '';
    if (a.password !== undefined) {
      changes.passwordSealed = this.credentials.seal(a.password, offeringUuid);
      changes.passwordUrl = url;
    } else if (
      (a.backend_url !== undefined && a.backend_url !== row?.backendUrl) ||
      (a.username !== undefined && a.username !== row?.username) ||
      (a.verify_ssl === false && row?.verifySsl !== false) ||
      (a.ca_pem !== undefined && a.ca_pem !== row?.caPem)
    ) {
      changes.passwordSealed = null;
      changes.passwordUrl = null;
    }
    if (a.default_cluster_label !== undefined) changes.defaultClusterLabel = a.default_cluster_label;
    if (a.max_cpu !== undefined) changes.maxCpu = a.max_cpu;
    if (a.max_ram !== undefined) changes.maxRam = a.max_ram;
    if (a.max_disk !== undefined) changes.maxDisk = a.max_disk;
    if (a.max_disk_total !== undefined) changes.maxDiskTotal = a.max_disk_total;
    if (a.max_cores_per_socket !== undefined) changes.maxCoresPerSocket = a.max_cores_per_socket;
    if (a.max_snapshots !== undefined) changes.maxSnapshots = a.max_snapshots;
    if (a.snapshot_max_age_hours !== undefined) changes.snapshotMaxAgeHours = a.snapshot_max_age_hours;
    if (a.memory_snapshots !== undefined) changes.memorySnapshots = a.memory_snapshots;
    if (a.verify_ssl !== undefined) changes.verifySsl = a.verify_ssl;
    if (a.ca_pem !== undefined) changes.caPem = a.ca_pem;
    return changes;
  }
}
