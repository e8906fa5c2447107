import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import type { AddressCheck } from '@app/vim25';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { AddressPolicy } from '../domain/address-policy';
import type { VcenterNetwork } from '../domain/vcenter-connection';

// The save's own lookup: well inside the order service's 5 s wait for the save's answer. A name that
// does not resolve in time is saved like one that does not resolve; every connection checks again.
const SAVE_LOOKUP_MS = 2_000;

/** Every address of this machine's interfaces (a public address of the adapter's host included). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/**
 * Where a vCenter may be: the operator's `VCENTER_ALLOWED_NETWORKS` over the default refusal of
 * internal addresses. Checked when backend_url is saved (a clear 400) and, by the transports,
 * before every connection (so a DNS change after the save is caught, and the socket goes to the
 * address that was checked).
 */
@Injectable()
export class EndpointGuard {
  private readonly policy: AddressPolicy;
  readonly network: VcenterNetwork;

  constructor(@Inject(CONFIG) config: VsphereAdapterConfig) {
    this.policy = new AddressPolicy(config.VCENTER_ALLOWED_NETWORKS, ownAddresses());
    const check: AddressCheck = (address, hostname) => this.policy.refusal(address, hostname);
    this.network = { addressCheck: check, connectTimeoutMs: config.VCENTER_CONNECT_TIMEOUT_MS };
  }

  /**
   * Why `url` may not be saved as backend_url, or undefined. A host name is resolved now and every
   * address checked; one that does not resolve (yet) is saved, and the connection says so later.
   */
  async refusalOf(url: string): Promise<string | undefined> {
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(hostname) !== 0) return this.policy.refusal(hostname, hostname);
    if (this.policy.allowsHostname(hostname)) return undefined;
    let addresses: { address: string }[];
    try {
      addresses = await withTimeout(
        lookup(hostname, { all: true, verbatim: true }),
        Math.min(SAVE_LOOKUP_MS, this.network.connectTimeoutMs),
      );
    } catch {
      return undefined;
    }
    for (const { address } of addresses) {
      const reason = this.policy.refusal(address, hostname);
      if (reason !== undefined) return `its host resolves to an address that is refused: ${reason}`;
    }
    return undefined;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
