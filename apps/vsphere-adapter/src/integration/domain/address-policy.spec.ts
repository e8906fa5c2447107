import { AddressPolicy, parseAllowList } from './address-policy';

const policy = (allow = '', own: string[] = []) => new AddressPolicy(parseAllowList(allow).list, own);

describe('the vCenter address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private (RFC 1918)'],
    ['172.16.0.1', 'private (RFC 1918)'],
    ['192.168.1.1', 'private (RFC 1918)'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique-local (fc00::/7)'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private (RFC 1918)'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['::7f00:1', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('refuses %s by default (%s)', (address, rule) => {
    expect(policy().refusal(address, address)).toBe(
      `it is a ${rule} address, which the operator has not allowed (VCENTER_ALLOWED_NETWORKS)`,
    );
  });

  it('allows an Internet address, and refuses one of its own machine', () => {
    expect(policy().refusal('8.8.8.8', 'dns.google')).toBeUndefined();
    expect(policy().refusal('2001:4860:4860::8888', 'dns.google')).toBeUndefined();
    expect(policy('', ['8.8.8.8']).refusal('8.8.8.8', '8.8.8.8')).toMatch(/own machine/);
  });

  it('opens what the operator lists: networks, addresses and host names, IPv4-mapped forms included', () => {
    const allowed = policy('127.0.0.1/32, 10.20.0.0/16, fd00::/8, 192.168.5.5, vcenter.internal');
    expect(allowed.refusal('127.0.0.1', '127.0.0.1')).toBeUndefined();
    expect(allowed.refusal('::ffff:127.0.0.1', 'localhost')).toBeUndefined();
    expect(allowed.refusal('10.20.3.4', 'a')).toBeUndefined();
    expect(allowed.refusal('10.21.0.1', 'a')).toMatch(/private/);
    expect(allowed.refusal('127.0.0.2', 'a')).toMatch(/loopback/);
    expect(allowed.refusal('fd00::5', 'a')).toBeUndefined();
    expect(allowed.refusal('192.168.5.5', 'a')).toBeUndefined();
    expect(allowed.refusal('10.9.9.9', 'VCenter.Internal.')).toBeUndefined();
  });

  it('names each entry it cannot read', () => {
    expect(parseAllowList('10.0.0.0/33, not a host!, ok.example, ::ffff:0.0.0.0/8').problems).toEqual([
      '"10.0.0.0/33" is not a CIDR network (e.g. 10.20.0.0/16)',
      '"not a host!" is neither a CIDR network, an address nor a host name',
      '"::ffff:0.0.0.0/8" reaches outside the IPv4-mapped range',
    ]);
    expect(parseAllowList(undefined)).toEqual({ list: { networks: [], hostnames: [] }, problems: [] });
  });
});
