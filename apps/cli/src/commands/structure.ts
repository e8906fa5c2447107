import { fillPath, setEndDateBody } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { RESOURCE, type Noun } from './nouns';

const QUOTA_COLUMNS = ['name', 'limit', 'usage'] as const;
/** What the order service takes (it checks the rest: in the future, within the offering's lease). */
const ISO_END_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * `customer get UUID` and `project get UUID`: the object with its quotas and their usage. A table
 * shows the object's columns, then one row per quota (-1: no limit); json and yaml show the answer
 * as it is, quotas included.
 */
export async function getWithQuotas(context: CommandContext, noun: Noun, uuid: string): Promise<void> {
  const { body } = await context.client.get<Record<string, unknown>>(fillPath(noun.itemPath, { uuid }));
  context.print(body, noun.columns);
  if (context.format === 'table' && context.jmespath === undefined)
    context.print(Array.isArray(body.quotas) ? body.quotas : [], QUOTA_COLUMNS);
}

/** The `set_end_date` body from the argument: an ISO date or date-time, or `none` to remove it. */
export function endDateBody(value: string): { end_date: string | null } {
  if (value !== 'none' && !ISO_END_DATE.test(value))
    throw CliError.usage(
      `END_DATE: an ISO date (2026-12-31) or date-time with its offset (2026-12-31T18:00:00Z), or 'none'; got ${value}`,
    );
  const parsed = setEndDateBody.safeParse({ end_date: value === 'none' ? null : value });
  if (!parsed.success) throw CliError.usage(`END_DATE: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** `marketplace resource set-end-date UUID END_DATE|none`: one POST, the resource printed. */
export async function setEndDate(context: CommandContext, uuid: string, value: string): Promise<void> {
  const body = endDateBody(value);
  const { body: resource } = await context.client.post(
    `${fillPath(RESOURCE.itemPath, { uuid })}set_end_date/`,
    body,
  );
  context.print(resource, [...RESOURCE.columns, 'end_date']);
}
