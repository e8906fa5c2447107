import { z } from 'zod';

/**
 * `input` with its `legacy` key renamed to `current`, when it has the one and not the other; any
 * other input as it is. Pure.
 */
export function renameLegacyField(input: unknown, legacy: string, current: string): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  if (!(legacy in input) || current in input) return input;
  const { [legacy]: value, ...rest } = input as Record<string, unknown>;
  return { ...rest, [current]: value };
}

/**
 * A payload schema that also reads what was published before a field was renamed: the events an
 * old version left in a stream are consumed after an upgrade. The code knows only the new name:
 * the schema's output (and the type derived from it) has no `legacy` key, and a payload carrying
 * both names keeps the new one's value. What is published carries both (`withLegacyNames`).
 */
export function withRenamedField<S extends z.ZodObject>(
  schema: S,
  legacy: string,
  current: keyof z.output<S> & string,
): z.ZodPreprocess<S> {
  return z.preprocess((input) => renameLegacyField(input, legacy, current), schema);
}

/**
 * `payload` as it is published: each current name's value also under its legacy name
 * (`legacyNames`: legacy → current), so a consumer of the version before the rename, still running
 * during a rolling upgrade, reads it. A published version only gains fields (STYLE). Pure.
 */
export function withLegacyNames<T>(payload: T, legacyNames: Readonly<Record<string, string>> | undefined): T {
  if (legacyNames === undefined || typeof payload !== 'object' || payload === null) return payload;
  const record = payload as Record<string, unknown>;
  const aliases = Object.entries(legacyNames).filter(([, current]) => record[current] !== undefined);
  if (aliases.length === 0) return payload;
  return {
    ...record,
    ...Object.fromEntries(aliases.map(([legacy, current]) => [legacy, record[current]])),
  } as T;
}
