import { checkEndDate, dueWarnings } from './end-date-rules';

const NOW = new Date('2026-12-01T12:00:00Z');

describe('end date rules', () => {
  it('takes a date-time with its offset, a date (its start, UTC) and null', () => {
    expect(checkEndDate('2026-12-02T10:00:00+02:00', NOW, null)).toEqual({
      ok: true,
      endDate: new Date('2026-12-02T08:00:00Z'),
    });
    expect(checkEndDate('2026-12-31', NOW, null)).toEqual({
      ok: true,
      endDate: new Date('2026-12-31T00:00:00Z'),
    });
    expect(checkEndDate(null, NOW, 1)).toEqual({ ok: true, endDate: null });
  });

  it('refuses a malformed or past end date', () => {
    expect(checkEndDate('tomorrow', NOW, null)).toMatchObject({ ok: false });
    expect(checkEndDate('2026-12-01T11:59:59Z', NOW, null)).toEqual({
      ok: false,
      message: 'The end date must be in the future.',
    });
  });

  it("refuses an end date past the offering's maximum lease, naming it", () => {
    expect(checkEndDate('2026-12-08T12:00:00Z', NOW, 7)).toMatchObject({ ok: true });
    expect(checkEndDate('2026-12-08T12:00:01Z', NOW, 7)).toEqual({
      ok: false,
      message:
        "The end date cannot be more than 7 days ahead: the offering's maximum lease ends 2026-12-08T12:00:00.000Z.",
    });
  });

  it('gives each warning once, when its lead time is reached', () => {
    const end = new Date('2026-12-05T12:00:00Z');
    const leads = [7 * 86_400, 86_400];
    expect(dueWarnings(end, [], leads, NOW)).toEqual([7 * 86_400]);
    expect(dueWarnings(end, [7 * 86_400], leads, NOW)).toEqual([]);
    expect(dueWarnings(end, [7 * 86_400], leads, new Date('2026-12-04T12:00:00Z'))).toEqual([86_400]);
  });
});
