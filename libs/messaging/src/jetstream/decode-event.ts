import { envelopeSchema, type Envelope, type EventContract } from '@app/contracts';
import type { z } from 'zod';

export type Decoded<T> =
  { ok: true; envelope: Envelope<T>; contract: EventContract<T> } | { ok: false; reason: string };

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/**
 * Parses and validates a message body against the envelope and the payload schema of the contract
 * its `type` names; a type outside `contracts` is refused.
 */
export function decodeEvent<T>(
  body: Uint8Array | string,
  contracts: readonly EventContract<T>[],
): Decoded<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) return { ok: false, reason: `envelope invalid: ${describe(envelope.error)}` };
  const contract = contracts.find((candidate) => candidate.type === envelope.data.type);
  if (!contract) {
    const expected = contracts.map((candidate) => `"${candidate.type}"`).join(' or ');
    return { ok: false, reason: `type is "${envelope.data.type}", expected ${expected}` };
  }
  const data = contract.schema.safeParse(envelope.data.data);
  if (!data.success) return { ok: false, reason: `${contract.type} data invalid: ${describe(data.error)}` };
  return { ok: true, envelope: { ...envelope.data, data: data.data }, contract };
}
