import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Envelope } from '@app/contracts';

/** One message as the stream stores it. */
export interface StoredEvent {
  seq: number;
  subject: string;
  msgId?: string;
  envelope: Envelope;
}

/**
 * Every message stored on `stream`, in stream order, read with an ordered consumer (one pass, not a
 * request per message). Counting these is what proves "stored once": the duplicate window only
 * drops a repeat of the same `Nats-Msg-Id`, so an event published twice under two ids shows here.
 */
export async function readStream(
  nc: NatsConnection,
  stream: string,
  timeoutMs = 30_000,
): Promise<StoredEvent[]> {
  const jsm = await jetstreamManager(nc);
  const { state } = await jsm.streams.info(stream);
  if (state.messages === 0) return [];
  const consumer = await jetstream(nc).consumers.get(stream, { opt_start_seq: state.first_seq });
  const messages = await consumer.consume();
  const stored: StoredEvent[] = [];
  const timer = setTimeout(() => void messages.close(), timeoutMs);
  try {
    for await (const message of messages) {
      stored.push({
        seq: message.seq,
        subject: message.subject,
        msgId: message.headers?.get('Nats-Msg-Id'),
        envelope: message.json<Envelope>(),
      });
      if (message.seq >= state.last_seq) break;
    }
  } finally {
    clearTimeout(timer);
    await messages.close();
  }
  if (stored.length < state.messages)
    throw new Error(`read ${stored.length} of ${state.messages} messages of ${stream} in ${timeoutMs} ms`);
  return stored;
}

/** How many stored events of `type` each key (by default the envelope's correlationId) has. */
export function countBy(
  events: StoredEvent[],
  type: string,
  key: (event: StoredEvent) => string = (event) => event.envelope.correlationId,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events)
    if (event.envelope.type === type) counts.set(key(event), (counts.get(key(event)) ?? 0) + 1);
  return counts;
}
