import { z } from 'zod';

/**
 * The IETF httpapi draft's bounds of an `Idempotency-Key` value as this API takes it: a string of
 * 1–255 visible ASCII characters (a UUID is what the CLI and the portal send).
 */
export const idempotencyKeySchema = z
  .string()
  .min(1, 'This header may not be blank.')
  .max(255, 'Ensure this header has no more than 255 characters.')
  .regex(/^[\x21-\x7e]+$/, 'Only visible ASCII characters are allowed.');

/**
 * What travels with a request besides its parts, set by the gateway (never by the user):
 * - `idempotency_key`: the client's `Idempotency-Key` header, on the creating POSTs that honour it.
 *   The answering service keeps the first answer under (user, key) for at least 24 h.
 * - `deadline`: when the gateway stops waiting (epoch ms, its REQUEST_TIMEOUT_MS from the request's
 *   arrival, less the margin its answer needs to travel back): work that cannot be committed by
 *   then is not started, so the gateway's 503 only ever stands for work that will not happen.
 */
export const requestMetaSchema = z.strictObject({
  idempotency_key: idempotencyKeySchema.optional(),
  deadline: z.number().int().positive().optional(),
});
export type RequestMeta = z.infer<typeof requestMetaSchema>;
