import { readFileSync } from 'node:fs';
import { nkeyAuthenticator, nkeys, type ConnectionOptions } from '@nats-io/transport-node';
import { natsInboxPrefix } from '@app/contracts';
import type { NatsConfig } from '@app/platform/config/base-config';

// A dead link (no FIN, e.g. a network partition) is noticed after about a minute, not nats.js's 4.
const PING_INTERVAL_MS = 20_000;
const MAX_PINGS_OUT = 3;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The options of every NATS connection an app opens (JetStream, Nest's request-reply server and
 * client), built from its configuration in one place:
 * - the servers of `NATS_URL` (several for a cluster; nats.js also learns the others from the server);
 * - the app's credentials (user and password, or an nkey seed) and TLS files;
 * - replies on the app's own inbox prefix, the only one its permissions let it subscribe to;
 * - reconnection without limit: `NATS_RECONNECT_WAIT_MS` between attempts on one server plus a
 *   random jitter (larger with TLS, whose handshakes cost the server more), so a restarted server
 *   is not hit by every client at once. An authentication error does not end the attempts either
 *   (credentials being rotated on the server): the process stays up and its health says NATS is down.
 */
export function natsConnectionOptions(
  config: NatsConfig,
  app: string,
  name: string = app,
): ConnectionOptions {
  return {
    servers: config.NATS_URL,
    name,
    inboxPrefix: natsInboxPrefix(config.NATS_NAMESPACE, app),
    ...credentials(config),
    ...tls(config),
    maxReconnectAttempts: -1,
    reconnectTimeWait: config.NATS_RECONNECT_WAIT_MS,
    reconnectJitter: config.NATS_RECONNECT_JITTER_MS,
    reconnectJitterTLS: config.NATS_RECONNECT_JITTER_TLS_MS,
    ignoreAuthErrorAbort: true,
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: MAX_PINGS_OUT,
    timeout: CONNECT_TIMEOUT_MS,
  };
}

function credentials(config: NatsConfig): Pick<ConnectionOptions, 'user' | 'pass' | 'authenticator'> {
  if (config.NATS_USER !== undefined) return { user: config.NATS_USER, pass: config.NATS_PASSWORD };
  if (config.NATS_NKEY_SEED !== undefined)
    return { authenticator: nkeyAuthenticator(userSeed(config.NATS_NKEY_SEED, 'NATS_NKEY_SEED')) };
  if (config.NATS_NKEY_SEED_FILE !== undefined) {
    const where = `NATS_NKEY_SEED_FILE (${config.NATS_NKEY_SEED_FILE})`;
    return {
      authenticator: nkeyAuthenticator(userSeed(readFileSync(config.NATS_NKEY_SEED_FILE, 'utf8'), where)),
    };
  }
  return {};
}

/**
 * Checked here, at start, rather than by the first connection attempt; read once. Neither the seed
 * nor the reason nkeys gives (which may quote it) reaches an error message.
 */
function userSeed(text: string, where: string): Uint8Array {
  const seed = new TextEncoder().encode(text.trim());
  let valid: boolean;
  try {
    valid = nkeys.fromSeed(seed).getPublicKey().startsWith('U');
  } catch {
    valid = false;
  }
  if (!valid)
    throw new Error(`${where} does not hold a valid nkey user seed (58 characters starting with SU)`);
  return seed;
}

function tls(config: NatsConfig): Pick<ConnectionOptions, 'tls'> {
  const files = {
    caFile: config.NATS_TLS_CA_FILE,
    certFile: config.NATS_TLS_CERT_FILE,
    keyFile: config.NATS_TLS_KEY_FILE,
  };
  const given = Object.fromEntries(Object.entries(files).filter(([, path]) => path !== undefined));
  // nats.js ignores a URL's scheme: `tls://` is honoured by asking for TLS (refusing a server without it).
  const required = config.NATS_URL.some((url) => url.startsWith('tls://'));
  return Object.keys(given).length === 0 && !required ? {} : { tls: given };
}
