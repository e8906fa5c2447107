import { stringify } from 'yaml';
import { CliError } from '../cli-error';
import { renderTable } from './table';
import type { JmesPathExpression } from './jmespath-expression';

export const OUTPUT_FORMATS = ['json', 'yaml', 'table'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseFormat(value: string | undefined, isTty: boolean): OutputFormat {
  if (value === undefined) return isTty ? 'table' : 'json';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value))
    throw CliError.usage(`--format ${value}: one of ${OUTPUT_FORMATS.join(', ')}`);
  return value as OutputFormat;
}

export interface RenderOptions {
  format: OutputFormat;
  jmespath?: JmesPathExpression;
  /** The columns a table shows by default (without `--jmespath`): the useful few of a wide object. */
  columns?: readonly string[];
}

/**
 * The text printed for an answer: reshaped by `--jmespath` first, then as JSON, YAML or a table.
 * A bare string result prints without quotes in every format, so `--jmespath uuid` gives a value a
 * shell variable can hold (`ORDER=$(waldur-cli ... --format json --jmespath uuid)`).
 */
export function render(data: unknown, options: RenderOptions): string {
  const shaped = options.jmespath ? options.jmespath.evaluate(data) : data;
  if (typeof shaped === 'string') return `${shaped}\n`;
  if (options.format === 'json') return `${JSON.stringify(shaped ?? null, null, 2)}\n`;
  if (options.format === 'yaml') {
    return stringify(shaped ?? null);
  }
  return renderTable(shaped, options.jmespath ? undefined : options.columns);
}
