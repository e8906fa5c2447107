import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { VmCallOptions } from './vm-provisioner.port';

/** What one QueryPerf of one VM asks: counters by (group, name, rollup), one interval, a range. */
export interface StatsQuery {
  readonly counters: readonly { group: string; name: string; rollup: string }[];
  readonly intervalId: number;
  readonly startTime: Date;
  readonly endTime: Date;
  readonly maxSample?: number;
}

/** The answer: sample times and, per asked counter (in the order asked), its raw values. */
export interface StatsAnswer {
  readonly timestamps: readonly string[];
  /** undefined where vCenter has no such counter or gave no series for it. */
  readonly values: readonly (readonly number[] | undefined)[];
}

/** A VM's statistics from vCenter's PerformanceManager. */
export interface VmStatsSource {
  /** One QueryPerf (the counter catalogue is read once per vCenter and kept). */
  queryPerf(
    connection: VcenterConnection,
    moref: string,
    query: StatsQuery,
    options: VmCallOptions,
  ): Promise<StatsAnswer>;
}

export const VM_STATS_SOURCE = Symbol('VmStatsSource');
