import type { JetStreamManager } from '@nats-io/jetstream';
import type { Envelope } from '@app/contracts';

/** Every envelope stored on a stream under `subject`, read message by message (suites keep streams small). */
export async function readEnvelopes(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
): Promise<Envelope[]> {
  const { state } = await jsm.streams.info(stream);
  const envelopes: Envelope[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (message && message.subject === subject) envelopes.push(message.json<Envelope>());
  }
  return envelopes;
}
