import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import type { PerfCounter, PerfEntitySamples, PerfQuery } from '../types/performance';
import type { XmlValue } from '../xml/decoder';
import { asArray, asMoRef, asNumber, asObject, asString } from '../xml/values';
import { invoke, type CallOptions } from './invoke';

/** Maps a decoded ArrayOfPerfCounterInfo (the PerformanceManager's `perfCounter`). Pure. */
export function toPerfCounters(value: XmlValue | undefined): PerfCounter[] {
  return asArray(value).flatMap((item) => {
    const o = asObject(item);
    const key = asNumber(o?.key);
    if (o === undefined || key === undefined) return [];
    const keyOf = (field: string) => asString(asObject(o[field])?.key) ?? '';
    return [
      {
        key,
        group: keyOf('groupInfo'),
        name: keyOf('nameInfo'),
        unit: keyOf('unitInfo'),
        rollup: asString(o.rollupType) ?? '',
      },
    ];
  });
}

/** Maps a decoded ArrayOfPerfEntityMetricBase (QueryPerf's answer, `normal` format). Pure. */
export function toPerfEntitySamples(value: XmlValue | undefined): PerfEntitySamples[] {
  return asArray(value).flatMap((item) => {
    const o = asObject(item);
    const entity = asMoRef(o?.entity);
    if (o === undefined || entity === undefined) return [];
    const timestamps = asArray(o.sampleInfo).map((s) => asString(asObject(s)?.timestamp) ?? '');
    const series = new Map<number, number[]>();
    for (const v of asArray(o.value)) {
      const counter = asNumber(asObject(asObject(v)?.id)?.counterId);
      if (counter !== undefined)
        series.set(
          counter,
          asArray(asObject(v)?.value).map((n) => asNumber(n) ?? -1),
        );
    }
    return [{ entity, timestamps, series }];
  });
}

/**
 * PerformanceManager.QueryPerf with one PerfQuerySpec per query (WSDL order: entity, startTime,
 * endTime, maxSample, metricId, intervalId, format), aggregate instance only. One round trip.
 */
export async function queryPerf(
  caller: SoapCaller,
  perfManager: MoRef,
  queries: readonly PerfQuery[],
  options?: CallOptions,
): Promise<PerfEntitySamples[]> {
  const querySpec = queries.map((q) => ({
    entity: q.entity,
    startTime: q.startTime,
    endTime: q.endTime,
    maxSample: q.maxSample,
    metricId: q.counterIds.map((counterId) => ({ counterId, instance: '' })),
    intervalId: q.intervalId,
    format: 'normal',
  }));
  return toPerfEntitySamples(await invoke(caller, 'QueryPerf', perfManager, { querySpec }, options));
}
