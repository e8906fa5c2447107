import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { changedRows } from '../../repositories/changed-rows';
import { IntegrationEntity } from '../entities/integration.entity';

/** The fields a save or a synchronisation changes. */
export type IntegrationChanges = Partial<Omit<IntegrationEntity, 'offeringUuid' | 'created' | 'modified'>>;

/** The integrations of the offerings: one row per offering. */
@Injectable()
export class IntegrationRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async getById(offeringUuid: string, tx?: EntityManager): Promise<IntegrationEntity | null> {
    return (tx ?? this.dataSource.manager).getRepository(IntegrationEntity).findOneBy({ offeringUuid });
  }

  /** The row, locked until the transaction ends (saves and synchronisation results serialise on it). */
  async getForUpdate(tx: EntityManager, offeringUuid: string): Promise<IntegrationEntity | null> {
    return tx
      .getRepository(IntegrationEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.offering_uuid = :offeringUuid', { offeringUuid })
      .getOne();
  }

  /** Creates the offering's integration (state CREATING) unless it exists. */
  async createIfMissing(tx: EntityManager, offeringUuid: string): Promise<void> {
    await tx.query(
      `INSERT INTO "vsphere"."integrations" ("offering_uuid") VALUES ($1) ON CONFLICT ("offering_uuid") DO NOTHING`,
      [offeringUuid],
    );
  }

  async update(tx: EntityManager, offeringUuid: string, changes: IntegrationChanges): Promise<void> {
    await tx.getRepository(IntegrationEntity).update({ offeringUuid }, { ...changes, modified: new Date() });
  }

  /**
   * Records a synchronisation request: N requests before the next run make one run. False when the
   * offering has no integration.
   */
  async requestSync(offeringUuid: string, tx?: EntityManager): Promise<boolean> {
    return changedRows(
      tx ?? this.dataSource.manager,
      `UPDATE "vsphere"."integrations" SET "sync_requested_at" = coalesce("sync_requested_at", now())
       WHERE "offering_uuid" = $1 RETURNING 1`,
      [offeringUuid],
    );
  }

  /**
   * Takes the pending request (or an interrupted run) for a run that starts now: clears the request
   * and marks the run, in the caller's transaction. The caller holds the offering's sync lock.
   */
  async claimSync(tx: EntityManager, offeringUuid: string): Promise<boolean> {
    return changedRows(
      tx,
      `UPDATE "vsphere"."integrations"
       SET "sync_requested_at" = NULL, "sync_running_since" = now(), "last_sync_started" = now()
       WHERE "offering_uuid" = $1 AND ("sync_requested_at" IS NOT NULL OR "sync_running_since" IS NOT NULL)
       RETURNING 1`,
      [offeringUuid],
    );
  }

  /** True while a request waits for a run. */
  async isSyncRequested(offeringUuid: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM "vsphere"."integrations" WHERE "offering_uuid" = $1 AND "sync_requested_at" IS NOT NULL`,
      [offeringUuid],
    );
    return rows.length > 0;
  }

  /** Offerings with a request waiting, or a run that may have been cut off (checked under the lock). */
  async dueForSync(): Promise<string[]> {
    const rows: { offering_uuid: string }[] = await this.dataSource.query(
      `SELECT "offering_uuid" FROM "vsphere"."integrations"
       WHERE "sync_requested_at" IS NOT NULL OR "sync_running_since" IS NOT NULL
       ORDER BY coalesce("sync_requested_at", "sync_running_since")`,
    );
    return rows.map((row) => row.offering_uuid);
  }

  /** Every stored password, sealed (for re-encryption with the current key). */
  async listSealedPasswords(): Promise<{ offeringUuid: string; passwordSealed: string }[]> {
    const rows: { offering_uuid: string; password_sealed: string }[] = await this.dataSource.query(
      `SELECT "offering_uuid", "password_sealed" FROM "vsphere"."integrations" WHERE "password_sealed" IS NOT NULL`,
    );
    return rows.map((row) => ({ offeringUuid: row.offering_uuid, passwordSealed: row.password_sealed }));
  }

  /** Replaces a sealed password only if it is still the one read (a concurrent save wins). */
  async resealPassword(offeringUuid: string, from: string, to: string): Promise<boolean> {
    return changedRows(
      this.dataSource.manager,
      `UPDATE "vsphere"."integrations" SET "password_sealed" = $3
       WHERE "offering_uuid" = $1 AND "password_sealed" = $2 RETURNING 1`,
      [offeringUuid, from, to],
    );
  }
}
