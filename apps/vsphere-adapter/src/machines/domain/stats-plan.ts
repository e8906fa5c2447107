import type { VmStatMetric, VmStatPeriod, VmStatSeries } from '@app/contracts';

/** vCenter's counter of each metric (group, name, rollup) and how its raw values read. */
export const METRIC_COUNTERS: Record<
  VmStatMetric,
  { group: string; name: string; rollup: string; unit: string; scale: number }
> = {
  // `percent` counters come in hundredths of a percent.
  cpu: { group: 'cpu', name: 'usage', rollup: 'average', unit: '%', scale: 0.01 },
  memory: { group: 'mem', name: 'usage', rollup: 'average', unit: '%', scale: 0.01 },
  disk: { group: 'disk', name: 'usage', rollup: 'average', unit: 'KBps', scale: 1 },
  network: { group: 'net', name: 'usage', rollup: 'average', unit: 'KBps', scale: 1 },
};

/**
 * What each period asks of vCenter: the last hour from the real-time statistics (one sample per
 * 20 s, kept about an hour on the host; `maxSample` applies to these only), longer periods from
 * vCenter's default historical intervals (5 minutes kept a day, 30 minutes kept a week).
 */
export const PERIOD_QUERIES: Record<
  VmStatPeriod,
  { intervalId: number; seconds: number; maxSample?: number }
> = {
  hour: { intervalId: 20, seconds: 3_600, maxSample: 180 },
  day: { intervalId: 300, seconds: 86_400 },
  week: { intervalId: 1_800, seconds: 604_800 },
};

/**
 * One metric's series from QueryPerf's answer: the samples oldest first (vCenter gives them in
 * time order, vcsim newest first), a missing value (-1) as null, raw values scaled to the unit. Pure.
 */
export function toSeries(
  metric: VmStatMetric,
  timestamps: readonly string[],
  raw: readonly number[] | undefined,
): VmStatSeries {
  const c = METRIC_COUNTERS[metric];
  const samples = timestamps
    .map((timestamp, i) => {
      const value = raw?.[i];
      return {
        timestamp: new Date(timestamp).toISOString(),
        value: value === undefined || value < 0 ? null : Math.round(value * c.scale * 100) / 100,
      };
    })
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return { metric, counter: `${c.group}.${c.name}.${c.rollup}`, unit: c.unit, samples };
}
