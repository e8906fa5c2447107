import { isIP } from 'node:net';
import { z } from 'zod';

/** One network: an address and how many leading bits of it are the network's. */
export interface Cidr {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a bare address (a network of one). Undefined when it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const [network, prefixText, extra] = text.trim().split('/');
  const version = isIP(network);
  if (version === 0 || extra !== undefined) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { network, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * A comma-separated list of networks in an environment variable; empty means none. A bad entry
 * names itself, so the operator sees which one to fix.
 */
export function cidrList() {
  return z
    .string()
    .max(10_000, 'must be at most 10000 characters')
    .default('')
    .transform((text, ctx) => {
      const cidrs: Cidr[] = [];
      for (const entry of text.split(',').map((part) => part.trim())) {
        if (entry === '') continue;
        const cidr = parseCidr(entry);
        if (cidr) cidrs.push(cidr);
        else ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address or CIDR network` });
      }
      return cidrs;
    });
}
