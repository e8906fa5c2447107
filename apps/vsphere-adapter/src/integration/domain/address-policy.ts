import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/**
 * Ranges that ipaddr.js calls `unicast` but that are not an Internet host either: benchmarking
 * (198.18.0.0/15) and, for IPv6, everything outside global unicast 2000::/3 (IPv4-compatible
 * `::a.b.c.d`, site-local, the rest of the unassigned space).
 */
const BENCHMARKING = ipaddr.parseCIDR('198.18.0.0/15') as Network;
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as Network;

const isV4 = (a: Address): a is ipaddr.IPv4 => a.kind() === 'ipv4';

/** True when `address` is in `network` (never across IPv4 and IPv6). */
function inNetwork(address: Address, [base, bits]: Network): boolean {
  if (isV4(address)) return isV4(base) && address.match(base, bits);
  return !isV4(base) && address.match(base, bits);
}

/** Why an address is not an Internet host, in the words of the rule, or undefined when it is one. */
function specialRangeOf(address: Address): string | undefined {
  const range = address.range();
  if (range !== 'unicast') return range;
  if (isV4(address)) return inNetwork(address, BENCHMARKING) ? 'reserved' : undefined;
  return inNetwork(address, GLOBAL_UNICAST_V6) ? undefined : 'reserved';
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private (RFC 1918)',
  uniqueLocal: 'unique-local (fc00::/7)',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  reserved: 'reserved',
};

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as the IPv4 address it stands for. */
function canonical(address: Address): Address {
  return !isV4(address) && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** Parses an address as a socket or DNS gives it (a zone id such as `%eth0` is dropped). */
export function parseAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[|\]$/g, '').split('%', 1)[0];
  return ipaddr.isValid(bare) ? canonical(ipaddr.parse(bare)) : undefined;
}

/** What `VCENTER_ALLOWED_NETWORKS` holds once read: networks and lower-case host names. */
export interface AllowList {
  readonly networks: readonly Network[];
  readonly hostnames: readonly string[];
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Reads `VCENTER_ALLOWED_NETWORKS`: comma-separated CIDRs (`10.20.0.0/16`, `fd00::/8`), single
 * addresses (taken as /32 or /128) and host names (`vcenter.internal`). Answers the problems with
 * each entry named, so the config error says which one is wrong. Pure.
 */
export function parseAllowList(raw: string | undefined): { list: AllowList; problems: string[] } {
  const networks: Network[] = [];
  const hostnames: string[] = [];
  const problems: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim().toLowerCase())) {
    if (entry === '') continue;
    if (entry.length > 300) {
      problems.push(`"${entry.slice(0, 40)}…" is longer than 300 characters`);
    } else if (entry.includes('/')) {
      try {
        const [address, bits] = ipaddr.parseCIDR(entry);
        const base = canonical(address);
        // `::ffff:10.0.0.0/104` is 10.0.0.0/8: addresses are matched in their IPv4 form.
        const mapped = base.kind() !== address.kind();
        if (mapped && bits < 96) problems.push(`"${entry}" reaches outside the IPv4-mapped range`);
        else networks.push([base, mapped ? bits - 96 : bits]);
      } catch {
        problems.push(`"${entry}" is not a CIDR network (e.g. 10.20.0.0/16)`);
      }
    } else if (ipaddr.isValid(entry)) {
      const address = canonical(ipaddr.parse(entry));
      networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOSTNAME.test(entry)) {
      hostnames.push(entry.replace(/\.$/, ''));
    } else {
      problems.push(`"${entry}" is neither a CIDR network, an address nor a host name`);
    }
  }
  return { list: { networks, hostnames }, problems };
}

/**
 * Which vCenter addresses the adapter may connect to. An Internet host is allowed; loopback,
 * link-local, private, unique-local, unspecified, multicast, broadcast, reserved and the other
 * special ranges (IPv4-mapped IPv6 forms read as IPv4), and every address of this machine's own
 * interfaces, are refused unless the operator's allow-list names the address's network or the
 * host name it was reached by. Pure apart from the interface addresses it is given.
 */
export class AddressPolicy {
  private readonly own: readonly Address[];

  constructor(
    private readonly allow: AllowList,
    ownAddresses: readonly string[],
  ) {
    this.own = ownAddresses.map(parseAddress).filter((a): a is Address => a !== undefined);
  }

  /** True when the operator named this host, so whatever it resolves to is allowed. */
  allowsHostname(hostname: string): boolean {
    return this.allow.hostnames.includes(hostname.toLowerCase().replace(/\.$/, ''));
  }

  /**
   * Why connecting to `address` (as resolved for `hostname`) is refused, or undefined when it is
   * allowed. The reason names the rule and the variable to set, never the address of a name.
   */
  refusal(address: string, hostname: string): string | undefined {
    if (this.allowsHostname(hostname)) return undefined;
    const parsed = parseAddress(address);
    if (parsed === undefined) return 'it is not an IP address';
    if (this.allow.networks.some((n) => inNetwork(parsed, n))) return undefined;
    const range = specialRangeOf(parsed);
    const rule =
      range !== undefined
        ? `a ${RANGE_WORDS[range] ?? range} address`
        : this.own.some(
              (a) => a.kind() === parsed.kind() && a.toNormalizedString() === parsed.toNormalizedString(),
            )
          ? "an address of the adapter's own machine"
          : undefined;
    if (rule === undefined) return undefined;
    return `it is ${rule}, which the operator has not allowed (VCENTER_ALLOWED_NETWORKS)`;
  }
}
