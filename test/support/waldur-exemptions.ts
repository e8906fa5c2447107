import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Deliberate differences from Waldur's document, each with its reason: the conformance test reads them. */
export interface WaldurExemptions {
  /** Operations not called at all. */
  skip: Record<string, string>;
  /** Operations whose success status differs from the one Waldur documents. */
  status: Record<string, { status: number; reason: string }>;
  /** `Component.field` of Waldur's answers we do not fill as Waldur's schema says (and what is under it). */
  fields: Record<string, string>;
  /** Fields we require where Waldur's document does not (400 naming them without), by request component. */
  requiredFields: Record<string, { fields: string[]; reason: string }>;
  /** Fields of Waldur's request bodies we refuse (400 naming them), by request component. */
  requestFields: Record<string, { fields: string[]; reason: string }>;
}

export const EXEMPTIONS_FILE = join(__dirname, '..', 'fixtures', 'waldur-openapi', 'exemptions.json');

export function readExemptions(file = EXEMPTIONS_FILE): WaldurExemptions {
  return JSON.parse(readFileSync(file, 'utf8')) as WaldurExemptions;
}

/** Rows with the same reason become one, naming every subject: the table stays short. */
function rows(entries: [string, string, string][]): string[] {
  const byReason = new Map<string, { subjects: string[]; difference: string }>();
  for (const [subject, difference, reason] of entries) {
    const key = `${difference}\u0000${reason}`;
    const row = byReason.get(key) ?? { subjects: [], difference };
    row.subjects.push(subject);
    byReason.set(key, row);
  }
  return [...byReason.entries()].map(([key, row]) => {
    const reason = key.split('\u0000')[1].replace(/\|/g, '\\|');
    return `| ${row.subjects.map((s) => `\`${s}\``).join(', ')} | ${row.difference} | ${reason} |`;
  });
}

/** The README's "Waldur compatibility" table, made from the exemptions file. */
export function compatibilityTable(exemptions: WaldurExemptions): string {
  const list = (fields: string[]) => fields.map((f) => `\`${f}\``).join(', ');
  return [
    '| What | Difference | Why |',
    '| --- | --- | --- |',
    ...rows(Object.entries(exemptions.skip).map(([op, reason]) => [op, 'not checked here', reason])),
    ...rows(
      Object.entries(exemptions.status).map(([op, { status, reason }]) => [op, `answers ${status}`, reason]),
    ),
    ...rows(
      Object.entries(exemptions.fields).map(([field, reason]) => [field, 'not as Waldur fills it', reason]),
    ),
    ...rows(
      Object.entries(exemptions.requiredFields).map(([component, { fields, reason }]) => [
        component,
        `requires ${list(fields)}`,
        reason,
      ]),
    ),
    ...rows(
      Object.entries(exemptions.requestFields).map(([component, { fields, reason }]) => [
        component,
        `refuses ${list(fields)}`,
        reason,
      ]),
    ),
  ].join('\n');
}

export const README_START =
  '<!-- waldur-compatibility:start (node scripts/waldur-compat-table.js --write) -->';
export const README_END = '<!-- waldur-compatibility:end -->';
