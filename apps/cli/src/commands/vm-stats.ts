import { API_PATHS, fillPath, VM_STATS } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { checkBody } from '../input/checked-body';

type Json = Record<string, unknown>;
interface Series {
  metric: string;
  unit: string;
  samples: { timestamp: string; value: number | null }[];
}

/** The query of `vmware vm stats`, checked against the contract (a bad name exits 2 naming its flag). */
export function statsQuery(flags: { metric?: string; period?: string }): Record<string, string> {
  const query: Record<string, string> = {};
  if (flags.metric !== undefined) query.metric = flags.metric;
  if (flags.period !== undefined) query.period = flags.period;
  checkBody(VM_STATS.query, query, (field) => `--${field}`);
  return query;
}

/** The latest value of each series (the last sample that has one), for printing. Pure. */
export function latestValues(series: readonly Series[]): Json[] {
  return series.map((s) => {
    const last = [...s.samples].reverse().find((sample) => sample.value !== null);
    return { metric: s.metric, value: last?.value ?? null, unit: s.unit, at: last?.timestamp ?? null };
  });
}

/** `vmware vm stats UUID [--metric cpu,memory] [--period hour|day|week]`: the latest value of each metric. */
export async function vmStats(
  context: CommandContext,
  uuid: string,
  flags: { metric?: string; period?: string },
): Promise<void> {
  const query = new URLSearchParams(statsQuery(flags)).toString();
  const path = `${fillPath(API_PATHS.vmwareVirtualMachineStats, { uuid })}${query === '' ? '' : `?${query}`}`;
  const { body } = await context.client.get<{ series: Series[] }>(path);
  context.print(latestValues(body.series), ['metric', 'value', 'unit', 'at']);
}
