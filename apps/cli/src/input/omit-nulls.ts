/**
 * A request without its null fields, nested ones included, so a skeleton can be sent with only what
 * was filled in. An object or array left with nothing because everything in it was null goes too
 * (`networks: [{url: null}]` disappears); an empty `{}` or `[]` written as such stays.
 */
export function omitNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const kept = value.map(omitNulls).filter((item) => item !== undefined);
    return value.length > 0 && kept.length === 0 ? undefined : kept;
  }
  if (typeof value === 'object' && value !== undefined) {
    const entries = Object.entries(value as Record<string, unknown>);
    const kept = entries
      .map(([key, item]) => [key, omitNulls(item)] as const)
      .filter(([, item]) => item !== undefined);
    return entries.length > 0 && kept.length === 0 ? undefined : Object.fromEntries(kept);
  }
  return value;
}
