import { perfSpecAsVcenterReadsIt } from './perf-query-rules';

const now = new Date('2026-12-01T12:00:00Z');
const entity = { type: 'VirtualMachine', value: 'vm-42' };
const metricId = [{ counterId: '2', instance: '' }];

describe('QueryPerf as vCenter 8 reads it', () => {
  it('honours maxSample for real-time samples and keeps only the last hour of them', () => {
    const spec = perfSpecAsVcenterReadsIt(
      { entity, startTime: '2026-12-01T09:00:00Z', maxSample: '10', metricId, intervalId: '20' },
      now,
    );
    expect(spec).toMatchObject({ startTime: '2026-12-01T11:00:00.000Z', maxSample: 10, intervalId: 20 });
    expect(perfSpecAsVcenterReadsIt({ entity, metricId, intervalId: '20' }, now).maxSample).toBe(180);
  });

  it('ignores maxSample for historical intervals: every sample of the range, cut to what the interval keeps', () => {
    const day = perfSpecAsVcenterReadsIt(
      { entity, startTime: '2026-11-30T12:00:00Z', maxSample: '1', metricId, intervalId: '300' },
      now,
    );
    expect(day).toMatchObject({ maxSample: 288, intervalId: 300 });
    const tooFar = perfSpecAsVcenterReadsIt(
      { entity, startTime: '2026-10-01T00:00:00Z', metricId, intervalId: '300' },
      now,
    );
    expect(tooFar).toMatchObject({ startTime: '2026-11-30T12:00:00.000Z', maxSample: 288 });
  });
});
