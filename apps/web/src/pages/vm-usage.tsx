import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import { lazy, Suspense, useEffect, useState } from 'react';
import { messageOf } from '../api/client';
import type { VmStats } from '../api/types';
import { Failure } from '../components/status';
import { useSession } from '../session';

const UsageChart = lazy(() => import('./usage-chart'));

const PERIODS = ['hour', 'day', 'week'] as const;
/** vCenter's real-time interval: a new sample every 20 s, so the charts follow at that pace. */
const REFRESH_MS = 20_000;

/** The latest value that vCenter gave, for the text beside each chart. Pure. */
function latest(series: VmStats['series'][number]): string {
  const last = [...series.samples].reverse().find((s) => s.value !== null);
  return last === undefined ? 'no data' : `${last.value} ${series.unit}`;
}

/**
 * The VM's CPU, memory, disk and network usage from vCenter, one chart each (uPlot, loaded with the
 * first chart), refreshed every 20 s while the page is open; the gateway's stats answer is shared
 * by every viewer of the VM for a few seconds, so many open pages cost vCenter little.
 */
export function VmUsage({ uuid }: { uuid: string }) {
  const { api } = useSession();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('hour');
  const [stats, setStats] = useState<VmStats | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  useEffect(() => {
    const abort = new AbortController();
    const load = () =>
      api
        .get<VmStats>(
          `${fillPath(API_PATHS.vmwareVirtualMachineStats, { uuid })}?period=${period}`,
          abort.signal,
        )
        .then(
          (answer) => {
            setStats(answer);
            setFailure(undefined);
          },
          (error: unknown) => !abort.signal.aborted && setFailure(messageOf(error)),
        );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      clearInterval(timer);
      abort.abort();
    };
  }, [uuid, period]);

  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <div className="actions" role="group" aria-label="Usage period">
        {PERIODS.map((p) => (
          <button
            key={p}
            type="button"
            className={p === period ? undefined : 'secondary'}
            aria-pressed={p === period}
            onClick={() => setPeriod(p)}
          >
            Last {p}
          </button>
        ))}
      </div>
      <Failure message={failure} />
      {stats?.period === period &&
        stats.series.map((series) => (
          <figure key={series.metric} data-testid={`usage-${series.metric}`}>
            <figcaption>
              {series.metric}: {latest(series)} (latest, {series.samples.length} samples every{' '}
              {stats.interval} s)
            </figcaption>
            <Suspense fallback={<p className="loading">Loading the chart…</p>}>
              <UsageChart series={series} />
            </Suspense>
          </figure>
        ))}
    </section>
  );
}
