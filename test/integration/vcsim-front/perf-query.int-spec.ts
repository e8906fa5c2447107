import { queryPerf, retrieveProperty, toPerfCounters, type MoRef, type PerfCounter } from '@app/vim25';
import { startFrontSuite, type FrontSuite } from './front-vms';

describe('vcsim front /sdk: PerformanceManager.QueryPerf as vCenter 8 answers it', () => {
  let s: FrontSuite;
  let vm: MoRef;
  let counters: PerfCounter[];
  const cpu = () => counters.find((c) => c.group === 'cpu' && c.name === 'usage' && c.rollup === 'average');

  beforeAll(async () => {
    s = await startFrontSuite();
    vm = await s.newVm('perf-1');
    const perf = s.ctx.content.perfManager as MoRef;
    counters = toPerfCounters(
      await retrieveProperty(s.ctx.caller, s.ctx.content.propertyCollector, perf, 'perfCounter'),
    );
  });

  afterAll(async () => {
    await s?.stop();
  });

  const query = (intervalId: number, seconds: number, maxSample?: number) => {
    const end = new Date();
    return queryPerf(s.ctx.caller, s.ctx.content.perfManager as MoRef, [
      {
        entity: vm,
        counterIds: [cpu()!.key],
        intervalId,
        startTime: new Date(end.getTime() - seconds * 1000).toISOString(),
        endTime: end.toISOString(),
        maxSample,
      },
    ]);
  };

  it('names the VM counters by group, name and rollup, with their units (cpu.usage.average in percent)', () => {
    expect(cpu()).toMatchObject({ unit: 'percent' });
  });

  it('answers the last hour in real-time 20 s samples, at most maxSample of them', async () => {
    const [hour] = await query(20, 3600, 180);
    expect(hour.timestamps).toHaveLength(180);
    const times = hour.timestamps.map((t) => Date.parse(t)).sort((a, b) => a - b);
    expect(times[1] - times[0]).toBe(20_000);
    expect(hour.series.get(cpu()!.key)).toHaveLength(180);
    const [few] = await query(20, 3600, 5);
    expect(few.timestamps).toHaveLength(5);
  });

  it('keeps only an hour of real-time samples, whatever range is asked', async () => {
    const [day] = await query(20, 86_400);
    expect(day.timestamps).toHaveLength(180);
  });

  it('ignores maxSample for a historical interval: the whole day in 5-minute samples (vcsim alone gives none without it)', async () => {
    const [day] = await query(300, 86_400);
    expect(day.timestamps).toHaveLength(288);
    const [cut] = await query(300, 86_400, 3);
    expect(cut.timestamps).toHaveLength(288);
  });
});
