import type { IntegrationView, LimitsView, SyncState } from '@app/contracts';
import type { IntegrationEntity } from '../entities/integration.entity';

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** SYNCING while a run holds the offering, SCHEDULED while a request waits, IDLE otherwise. Pure. */
export function syncStateOf(row: Pick<IntegrationEntity, 'syncRunningSince' | 'syncRequestedAt'>): SyncState {
  if (row.syncRunningSince !== null) return 'SYNCING';
  return row.syncRequestedAt !== null ? 'SCHEDULED' : 'IDLE';
}

/** Said on the view while certificate verification is off. */
export const VERIFY_SSL_OFF_WARNING =
  "verify_ssl is off: vCenter's TLS certificate is not checked, so whoever can intercept the " +
  'connection can pose as vCenter and read the password. Turn it on (with ca_pem for a private CA).';

/** What the view warns about for this row. Pure. */
export function warningsOf(row: Pick<IntegrationEntity, 'verifySsl'>): string[] {
  return row.verifySsl ? [] : [VERIFY_SSL_OFF_WARNING];
}

/**
 * The integration as the provider and the events see it: never the password, only whether one is
 * set for the stored backend_url (one bound to another address is not sent, so it is not set). Pure.
 */
export function toIntegrationView(row: IntegrationEntity, basicMode: boolean): IntegrationView {
  return {
    offering_uuid: row.offeringUuid,
    backend_url: row.backendUrl,
    username: row.username,
    password_set: row.passwordSealed !== null && row.passwordUrl === row.backendUrl,
    default_cluster_label: row.defaultClusterLabel,
    max_cpu: row.maxCpu,
    max_ram: row.maxRam,
    max_disk: row.maxDisk,
    max_disk_total: row.maxDiskTotal,
    max_cores_per_socket: row.maxCoresPerSocket,
    max_snapshots: row.maxSnapshots,
    snapshot_max_age_hours: row.snapshotMaxAgeHours,
    memory_snapshots: row.memorySnapshots,
    verify_ssl: row.verifySsl,
    ca_pem: row.caPem,
    state: row.state,
    error_message: row.errorMessage,
    sync_state: syncStateOf(row),
    last_sync_started: iso(row.lastSyncStarted),
    last_sync_finished: iso(row.lastSyncFinished),
    last_sync_success: iso(row.lastSyncSuccess),
    last_sync_error: row.lastSyncError,
    counts: row.counts,
    skipped: row.skipped,
    basic_mode: basicMode,
    warnings: warningsOf(row),
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

/** The offering's maximums (Waldur's `vmware-limits`). Pure. */
export function toLimitsView(row: IntegrationEntity): LimitsView {
  return {
    max_cpu: row.maxCpu,
    max_cores_per_socket: row.maxCoresPerSocket,
    max_ram: row.maxRam,
    max_disk: row.maxDisk,
    max_disk_total: row.maxDiskTotal,
    max_snapshots: row.maxSnapshots,
    snapshot_max_age_hours: row.snapshotMaxAgeHours,
    memory_snapshots: row.memorySnapshots,
  };
}
