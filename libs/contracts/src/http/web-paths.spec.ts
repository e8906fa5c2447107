import { isWebPath, match } from './web-paths';

describe('the portal router matching a path against a pattern', () => {
  it('answers the named parts of a matching path, decoded', () => {
    expect(match('/orders/:uuid', '/orders/ab%20c')).toEqual({ uuid: 'ab c' });
    expect(match('/order/:offering', '/order/123/')).toEqual({ offering: '123' });
    expect(match('/orders', '/orders')).toEqual({});
  });

  it('answers undefined for another path, another length or a malformed escape', () => {
    expect(match('/orders/:uuid', '/vms/1')).toBeUndefined();
    expect(match('/orders/:uuid', '/orders')).toBeUndefined();
    expect(match('/orders', '/orders/1')).toBeUndefined();
    expect(match('/orders/:uuid', '/orders/%E0%A4%A')).toBeUndefined();
  });
});

describe("the portal's pages as the gateway recognises them", () => {
  it('knows each page, with or without a trailing slash', () => {
    for (const path of [
      '/',
      '/orders',
      '/orders/',
      '/orders/abc',
      '/order/abc',
      '/resources',
      '/vms',
      '/vms/abc/',
      '/projects/abc',
    ])
      expect([path, isWebPath(path)]).toEqual([path, true]);
  });

  it('knows no other path', () => {
    for (const path of ['/no/such/path', '/orders/abc/events', '/order', '/vm/abc', '/favicon.ico'])
      expect([path, isWebPath(path)]).toEqual([path, false]);
  });
});
