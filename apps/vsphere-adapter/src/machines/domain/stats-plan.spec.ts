import { PERIOD_QUERIES, toSeries } from './stats-plan';

describe('usage statistics plan', () => {
  it('reads the last hour from 20 s real-time samples (at most 180) and longer periods from historical intervals', () => {
    expect(PERIOD_QUERIES.hour).toEqual({ intervalId: 20, seconds: 3600, maxSample: 180 });
    expect(PERIOD_QUERIES.day.intervalId).toBe(300);
    expect(PERIOD_QUERIES.week.intervalId).toBe(1800);
    expect(PERIOD_QUERIES.day.maxSample).toBeUndefined();
  });

  it('turns hundredths of a percent into percent, orders samples oldest first, keeps a missing one as null', () => {
    const series = toSeries(
      'cpu',
      ['2026-12-01T10:00:40Z', '2026-12-01T10:00:20Z', '2026-12-01T10:00:00Z'],
      [776, -1, 1540],
    );
    expect(series).toEqual({
      metric: 'cpu',
      counter: 'cpu.usage.average',
      unit: '%',
      samples: [
        { timestamp: '2026-12-01T10:00:00.000Z', value: 15.4 },
        { timestamp: '2026-12-01T10:00:20.000Z', value: null },
        { timestamp: '2026-12-01T10:00:40.000Z', value: 7.76 },
      ],
    });
    expect(toSeries('network', ['2026-12-01T10:00:00Z'], [496]).samples[0].value).toBe(496);
  });
});
