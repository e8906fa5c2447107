import { cidrList, parseCidr } from '../config/cidr-list';
import { ClientAddresses } from './client-address';

const trusting = (list: string) => new ClientAddresses(cidrList().parse(list));

describe('the client address behind trusted proxies', () => {
  it('ignores X-Forwarded-For when no proxy is trusted (the default)', () => {
    expect(trusting('').of('203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(trusting('10.0.0.0/8').of('203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('takes the right-most untrusted hop: what the client wrote to the left of it is ignored', () => {
    const addresses = trusting('10.0.0.0/8, 127.0.0.1');
    expect(addresses.of('127.0.0.1', '198.51.100.1')).toBe('198.51.100.1');
    expect(addresses.of('127.0.0.1', 'forged-by-client, 1.2.3.4, 198.51.100.1, 10.1.1.1')).toBe(
      '198.51.100.1',
    );
    expect(addresses.of('127.0.0.1', ['1.2.3.4', '198.51.100.1'])).toBe('198.51.100.1');
  });

  it('stops at a hop that is no address: the last trusted hop stands for the client', () => {
    expect(trusting('10.0.0.0/8').of('10.0.0.2', '198.51.100.1, unknown')).toBe('10.0.0.2');
  });

  it('reads a hop written with its port (ip:port, [ipv6]:port) as the address', () => {
    // Some proxies (Azure Application Gateway) write the port too: read as garbage, every client
    // would count as the proxy, and 50 bad logins from anyone would lock everybody out.
    const addresses = trusting('10.0.0.0/8');
    expect(addresses.of('10.0.0.2', '198.51.100.1:50123')).toBe('198.51.100.1');
    expect(addresses.of('10.0.0.2', '[2001:DB8::5]:443')).toBe('2001:db8::5');
    expect(addresses.of('10.0.0.2', '[2001:db8::6]')).toBe('2001:db8::6');
    expect(addresses.of('10.0.0.2', '198.51.100.1:')).toBe('10.0.0.2');
  });

  it('takes the left-most hop when every hop is trusted, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(trusting('10.0.0.0/8').of('::ffff:10.0.0.2', '10.0.0.7, 10.0.0.3')).toBe('10.0.0.7');
    expect(trusting('::1').of('::1', '2001:DB8::5')).toBe('2001:db8::5');
  });

  it('parses networks and bare addresses, and names a bad entry', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ network: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr('::1')).toEqual({ network: '::1', prefix: 128, family: 'ipv6' });
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'proxy.local', '10.0.0.0/8/1', '1.2.3.4/-1'])
      expect(parseCidr(bad)).toBeUndefined();
    const parsed = cidrList().safeParse('127.0.0.1/32, nonsense');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe('"nonsense" is not an IP address or CIDR network');
  });
});
