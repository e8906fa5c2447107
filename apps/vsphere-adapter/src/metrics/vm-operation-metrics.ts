import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * What an operator watches of day-2 work: how long operations take from the runner's claim to
 * their recorded end, by kind and outcome, and how long a drift pull of an offering takes and how
 * many VMs it read. The day2 bench reads the same figures.
 */
export class VmOperationMetrics {
  readonly operationSeconds: Histogram<'kind' | 'outcome'>;
  readonly pullSeconds: Histogram;
  readonly pulledVms: Counter;

  constructor(registry: Registry) {
    this.operationSeconds = new Histogram({
      name: 'vsphere_vm_operation_seconds',
      help: 'Day-2 VM operations, from their claim by the runner to their recorded end',
      labelNames: ['kind', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
      registers: [registry],
    });
    this.pullSeconds = new Histogram({
      name: 'vsphere_vm_pull_seconds',
      help: "Drift pulls of one offering's VMs: the read from vCenter and the recording of what changed",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    this.pulledVms = new Counter({
      name: 'vsphere_vm_pulled_total',
      help: 'Managed VMs compared with vCenter by drift pulls',
      registers: [registry],
    });
  }
}
