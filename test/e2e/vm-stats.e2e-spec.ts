import type { Json } from '../support/api-session';
import { eventually, orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Stats = Json & {
  vm_uuid: string;
  vm: string;
  period: string;
  interval: number;
  series: {
    metric: string;
    counter: string;
    unit: string;
    samples: { timestamp: string; value: number | null }[];
  }[];
};

/**
 * A VM's usage from vcsim's PerformanceManager behind the vCenter 8 front, through REST: units and
 * sample times per metric, the real-time hour and the historical day and week, bad parameters
 * named, and one QueryPerf shared by the callers of a VM and period while the cache holds it.
 */
describe('VM usage statistics end to end: REST, the adapter, vcsim', () => {
  let market: VsphereMarketplace;
  let vm: Vm;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmstats', { adapterEnv: { VSPHERE_STATS_CACHE_MS: '3000' } });
    vm = await orderVm(market, 'e2e-stats-1', await market.vmPlacement());
    await market.outsider();
  });

  afterAll(async () => {
    await market?.stop();
  });

  const stats = (query: string, who = 'member') =>
    market.api.call<Stats>(who, 'GET', `/api/vmware-virtual-machine/${vm.uuid}/stats/?${query}`);

  it('answers the last hour of CPU and memory in 20 s samples, oldest first, in percent', async () => {
    const answer = await stats('metric=cpu,memory&period=hour');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      vm_uuid: vm.uuid,
      vm: `${market.api.base}/api/vmware-virtual-machine/${vm.uuid}/`,
      period: 'hour',
      interval: 20,
    });
    expect(answer.body.series.map((s) => [s.metric, s.counter, s.unit])).toEqual([
      ['cpu', 'cpu.usage.average', '%'],
      ['memory', 'mem.usage.average', '%'],
    ]);
    for (const series of answer.body.series) {
      expect(series.samples).toHaveLength(180);
      const times = series.samples.map((s) => Date.parse(s.timestamp));
      expect(times[1] - times[0]).toBe(20_000);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(Date.now() - times[0]).toBeLessThanOrEqual(3_700_000);
      for (const { value } of series.samples)
        expect(value === null || (value >= 0 && value <= 100)).toBe(true);
    }
  });

  it('answers every metric when none is named, disk and network in KBps', async () => {
    const answer = await stats('period=hour');
    expect(answer.body.series.map((s) => [s.metric, s.unit])).toEqual([
      ['cpu', '%'],
      ['memory', '%'],
      ['disk', 'KBps'],
      ['network', 'KBps'],
    ]);
  });

  it("answers a day in 5-minute and a week in 30-minute samples (vCenter's historical intervals)", async () => {
    const day = await stats('metric=network&period=day');
    expect(day.body).toMatchObject({ period: 'day', interval: 300 });
    expect(day.body.series[0].samples).toHaveLength(288);
    const week = await stats('metric=disk&period=week');
    expect(week.body).toMatchObject({ period: 'week', interval: 1800 });
    expect(week.body.series[0].samples).toHaveLength(336);
  });

  it('refuses a metric or a period it does not know (400 naming the parameter)', async () => {
    const metric = await stats('metric=cpu,temperature');
    expect({ status: metric.status, body: metric.body }).toEqual({
      status: 400,
      body: {
        metric: [
          '"temperature" is not a valid choice: one of cpu, memory, disk, network, or several separated by commas.',
        ],
      },
    });
    const period = await stats('period=year');
    expect({ status: period.status, body: period.body }).toEqual({
      status: 400,
      body: { period: ['Not a valid choice: one of hour, day, week.'] },
    });
  });

  it('answers many callers of one VM and period with one QueryPerf while the cache holds it, and asks again after', async () => {
    const calls = () => market.sim.front.queryPerfCalls();
    // A window of its own: asked until one request reaches vCenter (an earlier test's may be held).
    const earlier = calls();
    await eventually(
      async () => {
        await stats('metric=cpu&period=hour');
        return calls();
      },
      (n) => n > earlier,
      20_000,
      'a QueryPerf opening a window',
    );
    const opened = calls();
    const answers = await Promise.all(
      ['cpu', 'memory', 'disk', 'network', 'cpu,disk', 'memory,network'].map((metric) =>
        stats(`metric=${metric}&period=hour`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const timestamps = new Set(answers.map((a) => a.body.series[0].samples.at(-1)?.timestamp));
    expect(timestamps.size).toBe(1);
    expect(calls()).toBe(opened);
    await eventually(
      async () => {
        await stats('metric=cpu&period=hour');
        return calls();
      },
      (n) => n === opened + 1,
      20_000,
      'a new QueryPerf once the cache let the answer go',
    );
  });

  it("answers 404 to another organisation's owner, as for a VM that does not exist", async () => {
    const answer = await stats('period=hour', 'outsider');
    expect(answer.status).toBe(404);
  });
});
