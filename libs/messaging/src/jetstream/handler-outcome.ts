/**
 * What a handler decided about one message. The consumer runner maps it to the JetStream reply:
 * done → ack; retry → nak with a delay; poison → term, logged with the reason.
 */
export type HandlerOutcome =
  | { outcome: 'done' }
  | { outcome: 'retry'; delayMs: number; reason: string }
  | { outcome: 'poison'; reason: string };

export const DONE: HandlerOutcome = { outcome: 'done' };
