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

export interface HealthReport {
  app: string;
  status: 'ok' | 'degraded';
  postgres: DependencyStatus;
  nats: DependencyStatus;
}
