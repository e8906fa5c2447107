/**
 * Health request: core NATS request-reply (through @nestjs/microservices), answered by each
 * service. The gateway's `/health` asks all of them.
 */
export const HEALTH_PATTERNS = {
  'order-service': 'marketplace.health',
  'vsphere-adapter': 'vsphere.health',
  'sync-scheduler': 'scheduler.health',
} as const;

export type DependencyStatus = 'up' | 'down' | 'not-used';

/** The live subscription to one offering's vCenter (the vSphere adapter's WaitForUpdatesEx). */
export interface VcenterSubscriptionHealth {
  offering_uuid: string;
  /** `down`: failing, or its holder stopped renewing it (the adapter degraded until it is back). */
  state: 'starting' | 'resyncing' | 'live' | 'down';
  /** Why it is down or resyncing; empty when live. */
  reason: string;
  /** When it last answered or was renewed (ISO 8601); null before any instance held it. */
  heartbeat_at: string | null;
}

export interface HealthReport {
  app: string;
  status: 'ok' | 'degraded';
  postgres: DependencyStatus;
  nats: DependencyStatus;
  /** The vSphere adapter only: its live subscriptions to vCenter, one per offering with VMs. */
  vcenter_subscriptions?: VcenterSubscriptionHealth[];
}
