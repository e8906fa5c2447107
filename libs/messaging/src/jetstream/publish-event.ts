import type { Envelope } from '@app/contracts';
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';

/**
 * Publishes one envelope with `Nats-Msg-Id` = its id, so that a second publish of the same event
 * (a relay retry after a crash) is dropped by the stream's duplicate window.
 */
export async function publishEvent(
  js: JetStreamClient,
  subject: string,
  envelope: Envelope,
): Promise<PubAck> {
  return js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id, timeout: 5_000 });
}
