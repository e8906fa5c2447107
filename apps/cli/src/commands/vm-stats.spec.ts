import { latestValues, statsQuery } from './vm-stats';

describe('vmware vm stats', () => {
  it('checks --metric and --period against the contract before sending, naming the flag', () => {
    expect(statsQuery({ metric: 'cpu,memory', period: 'day' })).toEqual({
      metric: 'cpu,memory',
      period: 'day',
    });
    expect(statsQuery({})).toEqual({});
    expect(() => statsQuery({ metric: 'temperature' })).toThrow(
      /^--metric: "temperature" is not a valid choice/,
    );
    expect(() => statsQuery({ period: 'year' })).toThrow(/^--period: Not a valid choice/);
  });

  it('prints the last sample that has a value, with its unit and time', () => {
    expect(
      latestValues([
        {
          metric: 'cpu',
          unit: '%',
          samples: [
            { timestamp: '2026-12-01T10:00:00.000Z', value: 7.5 },
            { timestamp: '2026-12-01T10:00:20.000Z', value: null },
          ],
        },
        { metric: 'disk', unit: 'KBps', samples: [] },
      ]),
    ).toEqual([
      { metric: 'cpu', value: 7.5, unit: '%', at: '2026-12-01T10:00:00.000Z' },
      { metric: 'disk', value: null, unit: 'KBps', at: null },
    ]);
  });
});
