import { BlockList, isIP } from 'node:net';
import type { Cidr } from '../config/cidr-list';

// A hop some proxies write with the client's port: `198.51.100.1:50123`, `[2001:db8::5]:443`.
const V4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED_V6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/;

/** IPv4 clients of a dual-stack socket read as `::ffff:10.0.0.1`: one address, one spelling. */
function normalised(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const lower = V4_WITH_PORT.exec(trimmed)?.[1] ?? BRACKETED_V6.exec(trimmed)?.[1] ?? trimmed;
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

/**
 * Who a request comes from, as login throttling counts it. `X-Forwarded-For` is believed only as
 * far as trusted proxies wrote it: the chain is read from the right (the socket's peer, then each
 * hop it says it forwarded for), trusted hops are skipped, and the first hop not trusted is the
 * client. Anything to the left of that hop was written by the client itself and is ignored, so a
 * forged header moves nothing unless the operator trusted the one who forged it.
 */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  constructor(trustedProxies: readonly Cidr[]) {
    for (const { network, prefix, family } of trustedProxies) this.trusted.addSubnet(network, prefix, family);
    this.any = trustedProxies.length > 0;
  }

  of(socketAddress: string | undefined, forwardedFor: string | string[] | undefined): string {
    if (socketAddress === undefined) return 'unknown';
    let client = normalised(socketAddress);
    if (!this.any || !this.isTrusted(client) || forwardedFor === undefined) return client;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    for (let index = hops.length - 1; index >= 0; index--) {
      const hop = normalised(hops[index]);
      // A trusted proxy wrote garbage (or an obfuscated `unknown`): the last hop known is the client.
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!this.isTrusted(hop)) return hop;
    }
    // Every hop is a trusted proxy: the left-most is as close to the client as can be known.
    return client;
  }

  private isTrusted(address: string): boolean {
    return this.trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
}
