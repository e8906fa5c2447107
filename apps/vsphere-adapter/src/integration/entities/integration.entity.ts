import type { IntegrationState, InventoryCounts, SkippedObject } from '@app/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An offering's vCenter connection, its state and its synchronisation bookkeeping. */
@Entity({ name: 'integrations' })
export class IntegrationEntity {
  @PrimaryColumn({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  /** The offering's customer (its provider), as the order service last told it; null before. */
  @Column({ name: 'customer_uuid', type: 'uuid', nullable: true })
  customerUuid!: string | null;

  @Column({ name: 'backend_url', type: 'varchar' })
  backendUrl!: string;

  @Column('varchar')
  username!: string;

  /** `v1.<key id>.<iv>.<tag>.<ciphertext>` (AES-256-GCM); never the password itself. */
  @Column({ name: 'password_sealed', type: 'text', nullable: true })
  passwordSealed!: string | null;

  /** The backend_url the password was entered for: it is sent to no other (null with no password). */
  @Column({ name: 'password_url', type: 'varchar', nullable: true })
  passwordUrl!: string | null;

  @Column({ name: 'default_cluster_label', type: 'varchar' })
  defaultClusterLabel!: string;

  @Column({ name: 'max_cpu', type: 'integer', nullable: true })
  maxCpu!: number | null;

  @Column({ name: 'max_ram', type: 'integer', nullable: true })
  maxRam!: number | null;

  @Column({ name: 'max_disk', type: 'integer', nullable: true })
  maxDisk!: number | null;

  @Column({ name: 'max_disk_total', type: 'integer', nullable: true })
  maxDiskTotal!: number | null;

  @Column({ name: 'max_cores_per_socket', type: 'integer', nullable: true })
  maxCoresPerSocket!: number | null;

  @Column({ name: 'max_snapshots', type: 'integer' })
  maxSnapshots!: number;

  @Column({ name: 'snapshot_max_age_hours', type: 'integer' })
  snapshotMaxAgeHours!: number;

  @Column({ name: 'memory_snapshots', type: 'boolean' })
  memorySnapshots!: boolean;

  @Column({ name: 'verify_ssl', type: 'boolean' })
  verifySsl!: boolean;

  @Column({ name: 'ca_pem', type: 'text', nullable: true })
  caPem!: string | null;

  @Column('varchar')
  state!: IntegrationState;

  @Column({ name: 'error_message', type: 'text' })
  errorMessage!: string;

  /** Set by a request, cleared when a synchronisation takes it: N requests meanwhile make one run. */
  @Column({ name: 'sync_requested_at', type: 'timestamptz', nullable: true })
  syncRequestedAt!: Date | null;

  /** Set while a synchronisation runs; still set after a crash, so the next holder runs again. */
  @Column({ name: 'sync_running_since', type: 'timestamptz', nullable: true })
  syncRunningSince!: Date | null;

  @Column({ name: 'last_sync_started', type: 'timestamptz', nullable: true })
  lastSyncStarted!: Date | null;

  @Column({ name: 'last_sync_finished', type: 'timestamptz', nullable: true })
  lastSyncFinished!: Date | null;

  @Column({ name: 'last_sync_success', type: 'timestamptz', nullable: true })
  lastSyncSuccess!: Date | null;

  @Column({ name: 'last_sync_error', type: 'text' })
  lastSyncError!: string;

  @Column('jsonb')
  counts!: InventoryCounts;

  @Column('jsonb')
  skipped!: SkippedObject[];

  @Column('timestamptz')
  created!: Date;

  @Column('timestamptz')
  modified!: Date;
}
