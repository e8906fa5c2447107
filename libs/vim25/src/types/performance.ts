import type { MoRef } from './mo-ref';

/** vim25 PerfCounterInfo (subset): `group.name.rollup` (`cpu.usage.average`) and its unit key. */
export interface PerfCounter {
  readonly key: number;
  readonly group: string;
  readonly name: string;
  readonly rollup: string;
  /** `percent`, `kiloBytes`, `kiloBytesPerSecond`, ... */
  readonly unit: string;
}

/** vim25 PerfQuerySpec (subset): one entity, its counters (aggregate instance ""), one interval. */
export interface PerfQuery {
  readonly entity: MoRef;
  readonly counterIds: readonly number[];
  /** 20 for real-time, else a historical interval's samplingPeriod (s). */
  readonly intervalId: number;
  readonly startTime?: string;
  readonly endTime?: string;
  /** Honoured for real-time queries only (vCenter ignores it for historical intervals). */
  readonly maxSample?: number;
}

/** One entity's answer of QueryPerf: its sample times and one value series per counter. */
export interface PerfEntitySamples {
  readonly entity: MoRef;
  /** ISO times, as vCenter gives them. */
  readonly timestamps: readonly string[];
  /** Values by counter key, in the order of `timestamps` (-1: no value for that sample). */
  readonly series: ReadonlyMap<number, readonly number[]>;
}
