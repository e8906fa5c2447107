import { z } from 'zod';

/**
 * The one envelope every JetStream event travels in. `id` doubles as the `Nats-Msg-Id`, so a
 * publisher that sends the same event twice is deduplicated by the stream.
 */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  data: z.unknown(),
});

export type Envelope<T = unknown> = Omit<z.infer<typeof envelopeSchema>, 'data'> & { data: T };

/** An event type: its name, where it is published and the schema its `data` must satisfy. */
export interface EventContract<T> {
  readonly type: string;
  readonly schema: z.ZodType<T>;
  /**
   * Fields renamed in this version, legacy name → current: published under both names, read
   * under either (`withRenamedField`).
   */
  readonly legacyNames?: Readonly<Record<string, string>>;
}
