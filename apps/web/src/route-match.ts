/** `/orders/:uuid` against a path: the named parts, decoded, or undefined when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return undefined;
      }
    } else if (part !== have[i]) return undefined;
  }
  return params;
}
