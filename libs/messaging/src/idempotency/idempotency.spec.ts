import { judgeHeldKey, requestFingerprint } from './idempotency';

describe('requestFingerprint', () => {
  const parts = { params: {}, query: {}, body: { name: 'vm-1', limits: { cpu: 1, ram: 1024 } } };

  it('is the same for the same request, whatever the order of its keys', () => {
    const reordered = { params: {}, query: {}, body: { limits: { ram: 1024, cpu: 1 }, name: 'vm-1' } };
    expect(requestFingerprint('marketplace.orders.create', reordered)).toBe(
      requestFingerprint('marketplace.orders.create', parts),
    );
  });

  it('differs for another body, another query or another operation', () => {
    const first = requestFingerprint('marketplace.orders.create', parts);
    expect(requestFingerprint('marketplace.orders.create', { ...parts, body: { name: 'vm-2' } })).not.toBe(
      first,
    );
    expect(requestFingerprint('marketplace.orders.create', { ...parts, query: { dry_run: true } })).not.toBe(
      first,
    );
    expect(requestFingerprint('marketplace.resources.terminate', parts)).not.toBe(first);
  });

  it('tells a string from a number and an array from an object', () => {
    const of = (body: unknown) => requestFingerprint('p', { params: {}, query: {}, body });
    expect(of({ cpu: 1 })).not.toBe(of({ cpu: '1' }));
    expect(of({ a: [1] })).not.toBe(of({ a: { 0: 1 } }));
  });
});

describe('judgeHeldKey', () => {
  it('replays the answer of the same request, refuses another, and waits for one in flight', () => {
    expect(judgeHeldKey({ fingerprint: 'a', answered: true }, 'a')).toBe('replay');
    expect(judgeHeldKey({ fingerprint: 'a', answered: false }, 'a')).toBe('in-flight');
    expect(judgeHeldKey({ fingerprint: 'a', answered: true }, 'b')).toBe('reused');
    expect(judgeHeldKey({ fingerprint: 'a', answered: false }, 'b')).toBe('reused');
  });
});
