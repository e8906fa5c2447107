import type { Envelope } from '@app/contracts';
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';

/**
 * How long a publish waits for the stream's ack. An ack takes milliseconds; one that does not come
 * was lost with a NATS node (the request went out on the connection to it, or to a stream leader
 * that died), and the relay's whole pass waits for it: 5 s of it was the first stall of every
 * event after a node's SIGKILL in the cluster fault suite. The retry is safe: the duplicate window
 * drops a second copy of an event whose ack alone was lost.
 */
const PUBLISH_TIMEOUT_MS = 2_000;

/**
 * Publishes one envelope with `Nats-Msg-Id` = its id, so that a second publish of the same event
 * (a relay retry after a crash) is dropped by the stream's duplicate window.
 */
export async function publishEvent(
  js: JetStreamClient,
  subject: string,
  envelope: Envelope,
): Promise<PubAck> {
  return js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id, timeout: PUBLISH_TIMEOUT_MS });
}
