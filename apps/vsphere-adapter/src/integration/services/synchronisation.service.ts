import { Inject, Injectable } from '@nestjs/common';
import {
  IntegrationStateChangedEvent,
  SyncFinishedEvent,
  SyncStartedEvent,
  type InventoryCounts,
  type SyncFinished,
} from '@app/contracts';
import type { Logger } from '@app/platform';
import { EventOutbox } from '../../adapters/event-outbox';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { planSync, type SyncPlan } from '../../inventory/domain/sync-plan';
import { InventoryWriterRepository } from '../../inventory/repositories/inventory-writer.repository';
import { UnitOfWork } from '@app/messaging';
import { INVENTORY_SOURCE, type InventorySource } from '../../vcenter/ports/inventory-source.port';
import { toIntegrationView } from '../dtos/integration.mapper';
import type { VcenterConnection } from '../domain/vcenter-connection';
import { describeVcenterError } from '../domain/vcenter-error-message';
import type { IntegrationEntity } from '../entities/integration.entity';
import { IntegrationRepository } from '../repositories/integration.repository';
import { VcenterAccessService } from './vcenter-access.service';

// Template details read within this time are not read again while their item is unchanged.
const TEMPLATE_DETAILS_MAX_AGE_MS = 6 * 3_600_000;

type Outcome = { ok: true; plan: SyncPlan } | { ok: false; message: string };

const NO_CHANGES = { created: 0, updated: 0, removed: 0 };

function changesOf(plan: SyncPlan | undefined): SyncFinished['changes'] {
  const of = (diff: SyncPlan['clusters'] | SyncPlan['templates'] | undefined) =>
    diff === undefined
      ? NO_CHANGES
      : { created: diff.create.length, updated: diff.update.length, removed: diff.remove.length };
  return {
    templates: of(plan?.templates),
    clusters: of(plan?.clusters),
    networks: of(plan?.networks),
    datastores: of(plan?.datastores),
    folders: of(plan?.folders),
  };
}

/**
 * One synchronisation of an offering's inventory, run by the coordinator while it holds the
 * offering's lock: reads vCenter, plans every change, and stores the result, the integration's new
 * state and the events in one transaction. A failure changes no inventory and leaves the state ERRED
 * with a message saying which failure it was.
 */
@Injectable()
export class SynchronisationService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(INVENTORY_SOURCE) private readonly source: InventorySource,
    private readonly uow: UnitOfWork,
    private readonly integrations: IntegrationRepository,
    private readonly inventory: InventoryWriterRepository,
    private readonly access: VcenterAccessService,
    private readonly events: EventOutbox,
  ) {}

  /**
   * Runs one synchronisation if a request (or an interrupted run) waits; false when none does.
   * `stop` aborts the vCenter calls at shutdown: the run then records nothing and is taken again.
   */
  async runIfClaimed(offeringUuid: string, stop: AbortSignal): Promise<boolean> {
    const claimed = await this.uow.run(async (tx) => {
      if (!(await this.integrations.claimSync(tx, offeringUuid))) return null;
      const row = await this.integrations.getById(offeringUuid, tx);
      if (row === null) return null;
      const { subjects } = this.events;
      await this.events.append(
        tx,
        subjects.syncStarted,
        SyncStartedEvent,
        {
          offeringUuid,
          providerUuid: row.customerUuid,
          integration: toIntegrationView(row, this.config.VSPHERE_BASIC_MODE),
        },
        offeringUuid,
      );
      return row;
    });
    if (claimed === null) return false;
    this.events.wake();
    const started = Date.now();
    this.logger.info({ offeringUuid, backendUrl: claimed.backendUrl }, 'synchronisation started');
    let outcome: Outcome;
    try {
      outcome = { ok: true, plan: await this.readAndPlan(claimed, stop) };
    } catch (error) {
      if (stop.aborted) {
        this.logger.info({ offeringUuid }, 'synchronisation stopped by shutdown; it will run again');
        return true;
      }
      outcome = { ok: false, message: describeVcenterError(error) };
    }
    await this.finish(offeringUuid, outcome, Date.now() - started);
    return true;
  }

  private async readAndPlan(row: IntegrationEntity, stop: AbortSignal): Promise<SyncPlan> {
    const connection = await this.connection(row);
    const signal = AbortSignal.any([stop, AbortSignal.timeout(this.config.VSPHERE_SYNC_TIMEOUT_MS)]);
    const knownTemplates = await this.inventory.freshTemplateDetails(
      row.offeringUuid,
      TEMPLATE_DETAILS_MAX_AGE_MS,
    );
    const snapshot = await this.source.read(connection, {
      signal,
      callTimeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
      knownTemplates,
    });
    const stored = await this.inventory.loadStored(row.offeringUuid);
    return planSync(stored, snapshot, { basicMode: this.config.VSPHERE_BASIC_MODE });
  }

  private async connection(row: IntegrationEntity): Promise<VcenterConnection> {
    return this.access.connectionOf(row);
  }

  private async finish(offeringUuid: string, outcome: Outcome, durationMs: number): Promise<void> {
    const { subjects } = this.events;
    const basicMode = this.config.VSPHERE_BASIC_MODE;
    const plan = outcome.ok ? outcome.plan : undefined;
    const after = await this.uow.run(async (tx) => {
      const before = await this.integrations.getForUpdate(tx, offeringUuid);
      if (before === null) return null; // the offering's integration was deleted meanwhile
      const now = new Date();
      if (plan !== undefined) await this.inventory.apply(tx, offeringUuid, plan);
      await this.integrations.update(tx, offeringUuid, {
        syncRunningSince: null,
        lastSyncFinished: now,
        ...(outcome.ok
          ? {
              state: 'OK',
              errorMessage: '',
              lastSyncError: '',
              lastSyncSuccess: now,
              counts: outcome.plan.counts,
              skipped: [...outcome.plan.skipped],
            }
          : { state: 'ERRED', errorMessage: outcome.message, lastSyncError: outcome.message }),
      });
      const row = await this.integrations.getById(offeringUuid, tx);
      if (row === null) return null;
      const integration = toIntegrationView(row, basicMode);
      const counts: InventoryCounts = row.counts;
      await this.events.append(
        tx,
        subjects.syncFinished,
        SyncFinishedEvent,
        {
          offeringUuid,
          providerUuid: row.customerUuid,
          outcome: outcome.ok ? 'OK' : 'ERRED',
          errorMessage: outcome.ok ? '' : outcome.message,
          counts,
          changes: changesOf(plan),
          skipped: plan === undefined ? [] : [...plan.skipped],
          errors: plan === undefined ? [] : [...plan.errors],
          durationMs,
          integration,
        },
        offeringUuid,
      );
      if (before.state !== row.state || before.errorMessage !== row.errorMessage) {
        await this.events.append(
          tx,
          subjects.integrationStateChanged,
          IntegrationStateChangedEvent,
          {
            offeringUuid,
            providerUuid: row.customerUuid,
            previousState: before.state,
            state: row.state,
            errorMessage: row.errorMessage,
            integration,
          },
          offeringUuid,
        );
      }
      return row;
    });
    this.events.wake();
    if (after === null) return;
    for (const skipped of plan?.skipped ?? [])
      this.logger.warn(
        {
          offeringUuid,
          kind: skipped.kind,
          backendId: skipped.backend_id,
          name: skipped.name,
          reason: skipped.reason,
        },
        `skipping ${skipped.kind} "${skipped.name}": ${skipped.reason}`,
      );
    for (const error of plan?.errors ?? []) this.logger.warn({ offeringUuid, error }, 'object not read');
    if (outcome.ok)
      this.logger.info({ offeringUuid, counts: after.counts, durationMs }, 'synchronisation succeeded');
    else this.logger.warn({ offeringUuid, error: outcome.message, durationMs }, 'synchronisation failed');
  }
}
