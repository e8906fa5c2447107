import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What the live subscription of an offering's vCenter is doing. */
export type VmWatchState = 'starting' | 'resyncing' | 'live' | 'down';

/** The recorded state of one offering's subscription. */
export interface VmWatchStatus {
  readonly offeringUuid: string;
  readonly holder: string;
  readonly state: VmWatchState;
  readonly reason: string;
  readonly version: string;
  readonly heartbeatAt: Date;
}

/** A managed VM as the subscription finds it by the managed object id vCenter names. */
export interface ManagedVmRef {
  readonly rowUuid: string;
  readonly moref: string;
  readonly backendUuid: string;
}

/**
 * The subscriptions' state (one row per offering, written by its holder) and the lookup that
 * tells a managed VM from any other in an update: one index probe per batch of morefs.
 */
@Injectable()
export class VmWatchStateRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Records the holder's state (and the version, when given); renews the heartbeat. */
  async save(
    offeringUuid: string,
    holder: string,
    state: VmWatchState,
    reason: string,
    version?: string,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "vsphere"."vm_watch_states"
         ("offering_uuid", "holder", "state", "reason", "version", "heartbeat_at", "changed_at")
       VALUES ($1, $2, $3, $4, COALESCE($5, ''), now(), now())
       ON CONFLICT ("offering_uuid") DO UPDATE SET
         "holder" = EXCLUDED."holder", "state" = EXCLUDED."state", "reason" = EXCLUDED."reason",
         "version" = COALESCE($5, "vm_watch_states"."version"), "heartbeat_at" = now(),
         "changed_at" = CASE WHEN "vm_watch_states"."state" = EXCLUDED."state"
           AND "vm_watch_states"."holder" = EXCLUDED."holder"
           THEN "vm_watch_states"."changed_at" ELSE now() END`,
      [offeringUuid, holder, state, reason, version ?? null],
    );
  }

  async getById(offeringUuid: string): Promise<VmWatchStatus | null> {
    const [row] = await this.all([offeringUuid]);
    return row ?? null;
  }

  /** The subscriptions of `offeringUuids` (every one when omitted). */
  async all(offeringUuids?: readonly string[]): Promise<VmWatchStatus[]> {
    const rows: {
      offering_uuid: string;
      holder: string;
      state: VmWatchState;
      reason: string;
      version: string;
      heartbeat_at: Date;
    }[] = await this.dataSource.query(
      `SELECT "offering_uuid", "holder", "state", "reason", "version", "heartbeat_at"
       FROM "vsphere"."vm_watch_states" WHERE $1::uuid[] IS NULL OR "offering_uuid" = ANY($1::uuid[])`,
      [offeringUuids ?? null],
    );
    return rows.map((r) => ({
      offeringUuid: r.offering_uuid,
      holder: r.holder,
      state: r.state,
      reason: r.reason,
      version: r.version,
      heartbeatAt: new Date(r.heartbeat_at),
    }));
  }

  /** The offering's managed VMs among `morefs` (the others are not ours: ignored). */
  async managedByMoref(offeringUuid: string, morefs: readonly string[]): Promise<ManagedVmRef[]> {
    if (morefs.length === 0) return [];
    const rows: { uuid: string; moref: string; backend_uuid: string }[] = await this.dataSource.query(
      `SELECT "uuid", "moref", "backend_uuid" FROM "vsphere"."virtual_machines"
       WHERE "offering_uuid" = $1 AND "moref" = ANY($2::text[])`,
      [offeringUuid, morefs],
    );
    return rows.map((r) => ({ rowUuid: r.uuid, moref: r.moref, backendUuid: r.backend_uuid }));
  }

  /** vCenter's uuids of the offering's managed VMs: what an initial state is kept of. */
  async backendUuids(offeringUuid: string): Promise<Set<string>> {
    const rows: { backend_uuid: string }[] = await this.dataSource.query(
      `SELECT "backend_uuid" FROM "vsphere"."virtual_machines" WHERE "offering_uuid" = $1`,
      [offeringUuid],
    );
    return new Set(rows.map((r) => r.backend_uuid));
  }
}
