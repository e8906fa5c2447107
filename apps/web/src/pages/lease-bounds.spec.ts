import { leaseBounds } from './lease-bounds';

describe('the end dates a form offers', () => {
  it("runs from tomorrow to the last day within the offering's maximum lease", () => {
    const now = new Date('2026-12-01T22:30:00Z');
    expect(leaseBounds(7, now)).toEqual({
      min: '2026-12-02',
      max: '2026-12-08',
      hint: "At most 7 days ahead (until 2026-12-08), the offering's maximum lease.",
    });
    // The last day offered starts within the lease, as the server reads a date.
    expect(new Date('2026-12-08T00:00:00Z').getTime()).toBeLessThanOrEqual(now.getTime() + 7 * 86_400_000);
  });

  it('has no upper bound without a maximum lease', () => {
    expect(leaseBounds(null, new Date('2026-12-31T10:00:00Z'))).toEqual({
      min: '2027-01-01',
      max: undefined,
      hint: undefined,
    });
  });
});
