import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';

/**
 * Decides whether the transport may open a connection to `address` (what `hostname` resolved to,
 * or the literal address of the URL): the reason it is refused, or undefined when it is allowed.
 */
export type AddressCheck = (address: string, hostname: string) => string | undefined;

/** Resolves a host name to every address it has (node:dns `lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A connection the address check refused; no socket was opened. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  readonly code = 'ERR_VCENTER_ADDRESS_REFUSED';

  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(`${hostname} may not be connected to: ${reason}`);
  }
}

/** Settings of the connector: TLS, the check, the connect timeout and (for tests) the resolver. */
export interface GuardedConnectorOptions {
  readonly ca?: string[];
  readonly rejectUnauthorized: boolean;
  readonly check?: AddressCheck;
  /** Resolving plus the TCP and TLS handshakes, in ms. */
  readonly connectTimeoutMs: number;
  readonly lookup?: HostLookup;
}

async function resolve(
  hostname: string,
  lookup: HostLookup,
  timeoutMs: number,
): Promise<readonly { address: string }[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${hostname} did not resolve in time`), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([lookup(hostname), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An undici connector that resolves the host itself, asks `check` about every address the name
 * has (one refused address refuses the name: a rebinding DNS answer cannot slip one in), and opens
 * the socket to the address that was checked, with the host name kept for SNI and certificate
 * verification. Runs for every new connection, so a DNS change after the URL was saved is caught.
 * Cost: one DNS lookup per new connection (none for a literal address).
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const base = buildConnector({
    ca: options.ca,
    rejectUnauthorized: options.rejectUnauthorized,
    timeout: options.connectTimeoutMs,
  });
  const lookup = options.lookup ?? systemLookup;
  const check = options.check;
  if (check === undefined) return base;
  return (connect, callback) => {
    const hostname = connect.hostname;
    const literal = isIP(hostname) !== 0;
    const addresses = literal
      ? Promise.resolve([{ address: hostname }])
      : resolve(hostname, lookup, options.connectTimeoutMs);
    addresses.then(
      (found) => {
        if (found.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            null,
          );
        for (const { address } of found) {
          const reason = check(address, hostname);
          if (reason !== undefined) return callback(new AddressRefusedError(hostname, reason), null);
        }
        base(
          literal
            ? connect
            : { ...connect, hostname: found[0].address, servername: connect.servername ?? hostname },
          callback,
        );
      },
      (error: Error) => callback(error, null),
    );
  };
}
