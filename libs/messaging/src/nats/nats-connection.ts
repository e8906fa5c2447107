import { connect, type NatsConnection } from '@nats-io/transport-node';

/**
 * Connects to NATS for JetStream work. Reconnects forever: a NATS restart must not kill a service
 * holding work in its outbox; the health check reports the outage meanwhile.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    timeout: 5_000,
  });
}

export function isNatsUp(connection: NatsConnection | undefined): boolean {
  return (
    connection !== undefined &&
    !connection.isClosed() &&
    !connection.isDraining() &&
    connection.info !== undefined
  );
}
