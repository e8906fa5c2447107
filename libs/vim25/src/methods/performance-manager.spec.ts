import { toPerfCounters, toPerfEntitySamples } from './performance-manager';

describe('PerformanceManager answers', () => {
  it('names each counter by its group, name, rollup and unit keys', () => {
    expect(
      toPerfCounters([
        {
          key: '2',
          nameInfo: { label: 'Usage', key: 'usage' },
          groupInfo: { label: 'CPU', key: 'cpu' },
          unitInfo: { label: '%', key: 'percent' },
          rollupType: 'average',
        },
      ]),
    ).toEqual([{ key: 2, group: 'cpu', name: 'usage', rollup: 'average', unit: 'percent' }]);
  });

  it('reads one entity metric: its sample times and a series per counter, one sample not an array', () => {
    const [samples] = toPerfEntitySamples({
      _type: 'PerfEntityMetric',
      entity: { type: 'VirtualMachine', value: 'vm-42' },
      sampleInfo: { timestamp: '2026-12-01T10:00:00Z', interval: '20' },
      value: [
        { _type: 'PerfMetricIntSeries', id: { counterId: '2', instance: '' }, value: '776' },
        { _type: 'PerfMetricIntSeries', id: { counterId: '24', instance: '' }, value: '-1' },
      ],
    });
    expect(samples.timestamps).toEqual(['2026-12-01T10:00:00Z']);
    expect([...samples.series]).toEqual([
      [2, [776]],
      [24, [-1]],
    ]);
  });
});
