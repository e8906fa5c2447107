import { asArray, asNumber, asObject, asString, type XmlObject, type XmlValue } from '@app/vim25';

/** vCenter's real-time interval (s) and how long the hosts keep real-time samples. */
export const REALTIME_INTERVAL = 20;
const REALTIME_KEPT_S = 3_600;

/** vCenter 8's default historical intervals: samplingPeriod (s) → how long they are kept (s). */
export const HISTORICAL_KEPT_S: Readonly<Record<number, number>> = {
  300: 86_400,
  1_800: 604_800,
  7_200: 2_592_000,
  86_400: 31_536_000,
};

/**
 * One PerfQuerySpec as vCenter 8 reads it, rewritten for vcsim (which generates samples for any
 * range and cuts them to `maxSample` always, 0 when unset): the range is cut to what vCenter keeps
 * of that interval (an hour of real-time samples, a day of 5-minute ones, ...); `maxSample` is
 * honoured for real-time queries only ("ignored for historical statistics") and, where it does not
 * apply or is unset, becomes the number of samples the range holds. Fields in WSDL order. Pure.
 */
export function perfSpecAsVcenterReadsIt(spec: XmlObject, now: Date): XmlObject {
  const interval = asNumber(spec.intervalId) ?? REALTIME_INTERVAL;
  const realtime = interval === REALTIME_INTERVAL || interval <= 0;
  const step = realtime ? REALTIME_INTERVAL : interval;
  const kept = realtime ? REALTIME_KEPT_S : (HISTORICAL_KEPT_S[interval] ?? 31_536_000);
  const end = asString(spec.endTime) === undefined ? now : new Date(asString(spec.endTime) as string);
  const askedStart = asString(spec.startTime);
  const earliest = new Date(end.getTime() - kept * 1000);
  const start = askedStart === undefined || new Date(askedStart) < earliest ? earliest : new Date(askedStart);
  const inRange = Math.max(1, Math.floor((end.getTime() - start.getTime()) / 1000 / step));
  const asked = asNumber(spec.maxSample);
  const maxSample = realtime && asked !== undefined && asked > 0 ? Math.min(asked, inRange) : inRange;
  return {
    entity: spec.entity,
    startTime: start.toISOString(),
    endTime: end.toISOString(),
    maxSample,
    metricId: spec.metricId,
    intervalId: realtime ? REALTIME_INTERVAL : interval,
    format: spec.format,
  };
}

/** Every PerfQuerySpec of a QueryPerf call's arguments, as vCenter reads them. Pure. */
export function queryPerfAsVcenterReadsIt(args: XmlObject, now: Date): XmlValue[] {
  return asArray(args.querySpec).flatMap((spec) => {
    const o = asObject(spec);
    return o === undefined ? [] : [perfSpecAsVcenterReadsIt(o, now)];
  });
}
