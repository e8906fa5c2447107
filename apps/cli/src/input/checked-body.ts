import type { z } from 'zod';
import { CliError } from '../cli-error';

/**
 * A request body checked against its schema from libs/contracts (the one its receiver validates
 * with): a field that breaks a rule is a usage error naming the field (as its flag, when the caller
 * maps it) and the rule, before any request.
 */
export function checkBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
  flagOf: (field: string) => string = (field) => field,
): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    return field ? `${flagOf(field)}: ${issue.message}` : issue.message;
  });
  throw CliError.usage(problems.join('; '));
}
