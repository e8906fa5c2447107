import Table from 'cli-table3';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A list as rows (the given columns, or every key of its objects), an object as field/value rows,
 * anything else as its JSON.
 */
export function renderTable(data: unknown, columns?: readonly string[]): string {
  if (Array.isArray(data)) {
    if (data.length === 0) return '(none)\n';
    if (!data.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row)))
      return `${data.map(cell).join('\n')}\n`;
    const keys = columns ?? [...new Set(data.flatMap((row) => Object.keys(row as object)))];
    const table = new Table({ head: [...keys], style: { head: [], border: [] } });
    for (const row of data) table.push(keys.map((key) => cell((row as Record<string, unknown>)[key])));
    return `${table.toString()}\n`;
  }
  if (data !== null && typeof data === 'object') {
    const table = new Table({ style: { head: [], border: [] } });
    for (const [key, value] of Object.entries(data)) table.push({ [key]: cell(value) });
    return `${table.toString()}\n`;
  }
  return `${JSON.stringify(data ?? null)}\n`;
}
