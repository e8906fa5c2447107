import type { QuotaGrowth, RequestReply } from '@app/contracts';
import type { Logger } from '@app/platform';
import type { QuotaRefused, QuotaReservationPort } from '../../ports/quota-reservation.port';
import { VmQuotaService } from './vm-quota.service';

/** An order service that answers `answer` and remembers what it was asked. */
class RecordingQuotas implements QuotaReservationPort {
  readonly reserved: string[] = [];
  readonly released: string[] = [];
  constructor(private readonly answer: RequestReply<QuotaRefused | null>) {}
  reserve(operationUuid: string, _resource: string, _growth: QuotaGrowth) {
    this.reserved.push(operationUuid);
    return Promise.resolve(this.answer);
  }
  release(operationUuid: string) {
    this.released.push(operationUuid);
    return Promise.resolve();
  }
}

const logger = { warn: () => undefined } as unknown as Logger;
const disk: QuotaGrowth = { vcpu: 0, ram: 0, storage: 4096 };
const message =
  'Project quota for storage (MiB) is 10240; 8192 are in use or ordered; this request asks for 4096.';

describe('VmQuotaService', () => {
  it("answers a quota's refusal with 400 on the request's field for that quota", async () => {
    const quotas = new RecordingQuotas({ status: 'ok', data: { quota: 'storage', message } });
    const service = new VmQuotaService(quotas, logger);
    await expect(service.reserve('op-1', 'resource', disk, { storage: 'size' })).resolves.toEqual({
      status: 'error',
      code: 400,
      fields: { size: [message] },
    });
  });

  it('asks nothing for a change that grows nothing', async () => {
    const quotas = new RecordingQuotas({ status: 'ok', data: null });
    const service = new VmQuotaService(quotas, logger);
    await expect(
      service.reserve('op-1', 'resource', { vcpu: 0, ram: 0, storage: 0 }, {}),
    ).resolves.toBeNull();
    expect(quotas.reserved).toEqual([]);
  });

  it('gives a reservation back when the request did not queue its operation, and keeps it when it did', async () => {
    const quotas = new RecordingQuotas({ status: 'ok', data: null });
    const service = new VmQuotaService(quotas, logger);
    const refused = await service.guard('op-refused', async () => {
      expect(await service.reserve('op-refused', 'resource', disk, {})).toBeNull();
      return { status: 'error', code: 404, detail: 'Not found.' };
    });
    expect(refused.status).toBe('error');
    await expect(
      service.guard('op-failed', async () => {
        await service.reserve('op-failed', 'resource', disk, {});
        throw new Error('the commit failed');
      }),
    ).rejects.toThrow('the commit failed');
    const queued = await service.guard('op-queued', async () => {
      await service.reserve('op-queued', 'resource', disk, {});
      return { status: 'ok', data: null };
    });
    expect(queued.status).toBe('ok');
    // Refused before reserving (a rule of Waldur's), or by the quota: nothing to give back.
    await service.guard('op-early', () => Promise.resolve({ status: 'error', code: 400, fields: {} }));
    const over = new RecordingQuotas({ status: 'ok', data: { quota: 'storage', message } });
    const strict = new VmQuotaService(over, logger);
    await strict.guard('op-over', async () => (await strict.reserve('op-over', 'resource', disk, {}))!);
    expect(over.released).toEqual([]);
    // No answer (it may have been recorded all the same): given back with the failed request.
    const silent = new RecordingQuotas({ status: 'error', code: 503, detail: 'not available' });
    const waiting = new VmQuotaService(silent, logger);
    await waiting.guard('op-lost', async () => (await waiting.reserve('op-lost', 'resource', disk, {}))!);
    expect(silent.released).toEqual(['op-lost']);
    expect(quotas.released).toEqual(['op-refused', 'op-failed']);
  });
});
