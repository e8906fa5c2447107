import type { NatsConnection, Status } from '@nats-io/transport-node';

/** A watch of a connection's reconnections, ended with `stop()` (or when the connection closes). */
export interface ReconnectWatch {
  stop(): void;
}

/**
 * Calls `onReconnect` each time the client is connected to a server again. What a long-lived user
 * of the connection needs it for: while the client dials, nats.js drops its outbound buffer at
 * each attempt, so a request sent during an outage reaches no server and is answered by nobody;
 * it runs to its timeout (5 s) after the link is back. The adapter's consumer, opened during a NATS
 * outage, stayed deaf 3 to 6 s after NATS returned (orders done 10.9 s after, in CI), and the
 * outbox relay waited for its sweep.
 */
export function watchReconnects(connection: NatsConnection, onReconnect: () => void): ReconnectWatch {
  // nats.js hands out a queued iterator, which stops; its declared type does not say so.
  const statuses = connection.status() as AsyncIterable<Status> & { stop?: () => void };
  void (async () => {
    for await (const status of statuses) if (status.type === 'reconnect') onReconnect();
  })();
  return { stop: () => statuses.stop?.() };
}
