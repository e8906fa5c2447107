import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { VmOperationKind, VmOperationState, VmOperationView } from '@app/contracts';
import { DataSource, QueryFailedError } from 'typeorm';
import type { Transaction } from '@app/messaging';
import type { QueuedOperation } from '../operations/vm-operation-executor';
import type { NewOperation } from '../operations/vm-operation-queue';

interface RawOperation {
  uuid: string;
  vm_uuid: string;
  kind: VmOperationKind;
  params: Record<string, unknown>;
  disk_uuid: string | null;
  port_uuid: string | null;
  state: VmOperationState;
  error_message: string;
  created: Date;
  backend_uuid: string;
  offering_uuid: string;
  moref: string;
}

/** Waldur's answer to an accepted action: "<kind> was scheduled". Pure. */
export const scheduledStatus = (kind: VmOperationKind): string => `${kind} was scheduled`;

const toView = (r: RawOperation): VmOperationView => ({
  uuid: r.uuid,
  status: scheduledStatus(r.kind),
  operation: r.kind,
  vm_uuid: r.backend_uuid,
  state: r.state,
  error_message: r.error_message,
  disk_uuid: r.disk_uuid,
  port_uuid: r.port_uuid,
  snapshot_uuid: typeof r.params.snapshotUuid === 'string' ? r.params.snapshotUuid : null,
  created: r.created.toISOString(),
});

const toQueued = (r: RawOperation): QueuedOperation => ({
  uuid: r.uuid,
  kind: r.kind,
  params: r.params,
  vmBackendUuid: r.backend_uuid,
  vmRowUuid: r.vm_uuid,
  offeringUuid: r.offering_uuid,
  moref: r.moref,
  diskUuid: r.disk_uuid,
  portUuid: r.port_uuid,
});

/** An operation this instance claimed: what its executor gets, and its view for VmChanged. */
export interface ClaimedOperation {
  readonly queued: QueuedOperation;
  readonly view: VmOperationView;
}

/** The lease was lost (another instance took the operation over): the caller's work is void. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

const SELECT_JOINED = `SELECT o."uuid", o."vm_uuid", o."kind", o."params", o."disk_uuid", o."port_uuid", o."state",
  o."error_message", o."created", v."backend_uuid", v."offering_uuid", v."moref"`;

/** Kinds whose repeat after a crash could make a second device: never re-run, the VM is pulled instead. */
export const NOT_REPEATABLE: readonly VmOperationKind[] = ['create_disk', 'create_port', 'create_snapshot'];

/**
 * `vsphere.vm_operations`: the per-VM queue. Claims take the oldest pending operation of a VM with
 * none running, skipping rows other instances are claiming (`FOR UPDATE SKIP LOCKED`); the partial
 * unique index on running operations settles what is left of a race (Postgres 23505).
 */
@Injectable()
export class VmOperationRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(tx: Transaction, operation: NewOperation): Promise<VmOperationView> {
    // The VM's row is locked first: the insert's foreign key check would take a share lock on it
    // that the caller's later FOR UPDATE (marking the VM UPDATING) must upgrade, and two requests on
    // one VM would then deadlock, each waiting for the other's share lock.
    await tx.query(`SELECT 1 FROM "vsphere"."virtual_machines" WHERE "uuid" = $1 FOR UPDATE`, [
      operation.vmRowUuid,
    ]);
    // clock_timestamp(), not now(): operations queued in one transaction keep their order.
    const rows: RawOperation[] = await tx.query(
      `WITH inserted AS (
         INSERT INTO "vsphere"."vm_operations" ("uuid", "vm_uuid", "kind", "params", "disk_uuid", "port_uuid",
           "requested_by", "created")
         VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp()) RETURNING *)
       ${SELECT_JOINED} FROM inserted o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"`,
      [
        operation.uuid ?? randomUUID(),
        operation.vmRowUuid,
        operation.kind,
        JSON.stringify(operation.params ?? {}),
        operation.diskUuid ?? null,
        operation.portUuid ?? null,
        operation.requestedBy,
      ],
    );
    return toView(rows[0]);
  }

  /**
   * Marks the oldest pending operation of a VM with none running as running for `instance` with a
   * lease; null when there is none, 'contended' when another instance just started one on that VM
   * (the unique index refused the second: try again).
   */
  async claimNext(instance: string, leaseMs: number): Promise<ClaimedOperation | null | 'contended'> {
    let rows: RawOperation[];
    try {
      rows = await this.claimQuery(instance, leaseMs);
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505')
        return 'contended';
      throw error;
    }
    return rows.length === 0 ? null : { queued: toQueued(rows[0]), view: toView(rows[0]) };
  }

  private claimQuery(instance: string, leaseMs: number): Promise<RawOperation[]> {
    return this.dataSource.query(
      `WITH next AS (
         SELECT o."uuid" FROM "vsphere"."vm_operations" o
         WHERE o."state" = 'pending'
           AND NOT EXISTS (SELECT 1 FROM "vsphere"."vm_operations" r
                           WHERE r."vm_uuid" = o."vm_uuid" AND r."state" = 'running')
           AND NOT EXISTS (SELECT 1 FROM "vsphere"."vm_operations" e
                           WHERE e."vm_uuid" = o."vm_uuid" AND e."state" = 'pending' AND e."created" < o."created")
         ORDER BY o."created" LIMIT 1 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE "vsphere"."vm_operations" SET "state" = 'running', "started" = now(), "claimed_by" = $1,
           "lease_until" = now() + make_interval(secs => $2 / 1000.0)
         WHERE "uuid" IN (SELECT "uuid" FROM next) RETURNING *)
       ${SELECT_JOINED} FROM claimed o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"`,
      [instance, leaseMs],
    );
  }

  /** Extends the lease while the operation runs; false when it is no longer this instance's. */
  async renewLease(uuid: string, instance: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH renewed AS (
         UPDATE "vsphere"."vm_operations" SET "lease_until" = now() + make_interval(secs => $3 / 1000.0)
         WHERE "uuid" = $1 AND "state" = 'running' AND "claimed_by" = $2 RETURNING 1)
       SELECT * FROM renewed`,
      [uuid, instance, leaseMs],
    );
    return rows.length > 0;
  }

  /** Gives a claimed operation back (this instance is stopping): first of its VM again. */
  async release(uuid: string, instance: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE "vsphere"."vm_operations" SET "state" = 'pending', "claimed_by" = NULL, "lease_until" = NULL,
         "started" = NULL WHERE "uuid" = $1 AND "state" = 'running' AND "claimed_by" = $2`,
      [uuid, instance],
    );
  }

  /** Whether the VM has an operation pending or running (a pull then leaves it to the operation). */
  async busyVms(rowUuids: readonly string[]): Promise<Set<string>> {
    const rows: { vm_uuid: string }[] = await this.dataSource.query(
      `SELECT DISTINCT "vm_uuid" FROM "vsphere"."vm_operations"
       WHERE "vm_uuid" = ANY($1::uuid[]) AND "state" IN ('pending', 'running')`,
      [rowUuids],
    );
    return new Set(rows.map((r) => r.vm_uuid));
  }

  /** Ends the operation as done or erred; throws LeaseLost when it is not this instance's any more. */
  async finish(
    tx: Transaction,
    uuid: string,
    instance: string,
    outcome: { state: 'done' | 'erred'; errorMessage: string },
  ): Promise<VmOperationView> {
    const rows: RawOperation[] = await tx.query(
      `WITH finished AS (
         UPDATE "vsphere"."vm_operations" SET "state" = $3, "error_message" = $4, "finished" = now(),
           "lease_until" = NULL
         WHERE "uuid" = $1 AND "state" = 'running' AND "claimed_by" = $2 RETURNING *)
       ${SELECT_JOINED} FROM finished o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"`,
      [uuid, instance, outcome.state, outcome.errorMessage],
    );
    if (rows.length === 0) throw new LeaseLost(`operation ${uuid} is no longer held by ${instance}`);
    return toView(rows[0]);
  }

  /**
   * Operations whose instance stopped renewing their lease, locked for the caller's transaction:
   * repeatable ones go back to pending (first of their VM again), the others are returned to be
   * ended by the caller.
   */
  async takeOverExpired(tx: Transaction): Promise<ClaimedOperation[]> {
    const expired: RawOperation[] = await tx.query(
      `${SELECT_JOINED} FROM "vsphere"."vm_operations" o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"
       WHERE o."state" = 'running' AND o."lease_until" < now() FOR UPDATE OF o SKIP LOCKED`,
    );
    const ended: ClaimedOperation[] = [];
    for (const row of expired) {
      if (NOT_REPEATABLE.includes(row.kind)) {
        ended.push({ queued: toQueued(row), view: toView(row) });
        continue;
      }
      await tx.query(
        `UPDATE "vsphere"."vm_operations" SET "state" = 'pending', "claimed_by" = NULL, "lease_until" = NULL
         WHERE "uuid" = $1`,
        [row.uuid],
      );
    }
    return ended;
  }

  /** Ends a taken-over operation as erred, whoever held it. */
  async endTakenOver(tx: Transaction, uuid: string, errorMessage: string): Promise<VmOperationView> {
    const rows: RawOperation[] = await tx.query(
      `WITH finished AS (
         UPDATE "vsphere"."vm_operations" SET "state" = 'erred', "error_message" = $2, "finished" = now(),
           "lease_until" = NULL WHERE "uuid" = $1 RETURNING *)
       ${SELECT_JOINED} FROM finished o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"`,
      [uuid, errorMessage],
    );
    return toView(rows[0]);
  }

  async getById(uuid: string): Promise<VmOperationView | null> {
    const rows: RawOperation[] = await this.dataSource.query(
      `${SELECT_JOINED} FROM "vsphere"."vm_operations" o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"
       WHERE o."uuid" = $1`,
      [uuid],
    );
    return rows.length === 0 ? null : toView(rows[0]);
  }
}
