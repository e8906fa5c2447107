import type { z } from 'zod';
import { CliError } from '../cli-error';

/**
 * `--filter KEY=VALUE` (repeatable) as query parameters, checked against the list's query schema
 * from libs/contracts, the one the gateway validates with: an unknown key or a bad value is a usage
 * error naming the rule, before any request. A key given twice keeps its last value.
 */
export function parseFilters(filters: readonly string[], schema: z.ZodObject): Record<string, string> {
  const query: Record<string, string> = {};
  const allowed = Object.keys(schema.shape);
  for (const filter of filters) {
    const equals = filter.indexOf('=');
    if (equals <= 0) throw CliError.usage(`--filter ${filter}: expected KEY=VALUE`);
    const key = filter.slice(0, equals);
    const value = filter.slice(equals + 1);
    if (!allowed.includes(key))
      throw CliError.usage(`--filter ${key}: not a filter of this list; one of: ${allowed.join(', ')}`);
    const result = (schema.shape[key] as z.ZodType).safeParse(value);
    if (!result.success)
      throw CliError.usage(
        `--filter ${key}=${value}: ${result.error.issues.map((i) => i.message).join(' ')}`,
      );
    query[key] = value;
  }
  return query;
}
