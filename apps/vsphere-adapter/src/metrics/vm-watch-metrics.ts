import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { VmWatchState } from '../machines/repositories/vm-watch-state.repository';

const STATES: readonly VmWatchState[] = ['starting', 'resyncing', 'live', 'down'];

/**
 * The live subscriptions to vCenter as an operator watches them: each offering's state (1 for the
 * state it is in), the VM changes it applied, its resyncs by reason, the lag from an answer's
 * arrival to the commit of what it changed (vCenter's UpdateSet carries no change time), the
 * requests it sends, and the changes the periodic pull found that the subscription had missed
 * (0 in a healthy run).
 */
export class VmWatchMetrics {
  readonly state: Gauge<'offering_uuid' | 'state'>;
  readonly applied: Counter<'offering_uuid'>;
  readonly resyncs: Counter<'offering_uuid' | 'reason'>;
  readonly lagSeconds: Histogram;
  readonly requests: Counter<'offering_uuid' | 'method'>;
  readonly missedByWatch: Counter<'offering_uuid'>;

  constructor(registry: Registry) {
    this.state = new Gauge({
      name: 'vsphere_vm_watch_state',
      help: "The live subscription of an offering's vCenter held by this instance: 1 for its state",
      labelNames: ['offering_uuid', 'state'] as const,
      registers: [registry],
    });
    this.applied = new Counter({
      name: 'vsphere_vm_watch_changes_total',
      help: 'VM changes the live subscription recorded (each a VmChanged)',
      labelNames: ['offering_uuid'] as const,
      registers: [registry],
    });
    this.resyncs = new Counter({
      name: 'vsphere_vm_watch_resyncs_total',
      help: 'Full comparisons the live subscription made, by reason (start, version, session, error)',
      labelNames: ['offering_uuid', 'reason'] as const,
      registers: [registry],
    });
    this.lagSeconds = new Histogram({
      name: 'vsphere_vm_watch_lag_seconds',
      help: "From a WaitForUpdatesEx answer's arrival to the commit of the VM changes it reported",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.requests = new Counter({
      name: 'vsphere_vm_watch_requests_total',
      help: 'vCenter requests the live subscription sent (WaitForUpdatesEx, reads of changed VMs)',
      labelNames: ['offering_uuid', 'method'] as const,
      registers: [registry],
    });
    this.missedByWatch = new Counter({
      name: 'vsphere_vm_pull_missed_changes_total',
      help: 'VM changes the periodic pull found and recorded: what the live subscription missed',
      labelNames: ['offering_uuid'] as const,
      registers: [registry],
    });
  }

  /** Sets the offering's state gauge (the other states to 0; `null`: no longer held here). */
  setState(offeringUuid: string, state: VmWatchState | null): void {
    for (const s of STATES) this.state.set({ offering_uuid: offeringUuid, state: s }, s === state ? 1 : 0);
  }
}
