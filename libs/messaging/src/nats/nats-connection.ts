import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';

/**
 * Connects to NATS for JetStream work, with the options of `natsConnectionOptions`: it reconnects
 * forever, so a NATS restart does not kill a service holding work in its outbox; the health check
 * reports the outage meanwhile.
 */
export async function connectNats(options: ConnectionOptions): Promise<NatsConnection> {
  return connect(options);
}

export function isNatsUp(connection: NatsConnection | undefined): boolean {
  return (
    connection !== undefined &&
    !connection.isClosed() &&
    !connection.isDraining() &&
    connection.info !== undefined
  );
}
