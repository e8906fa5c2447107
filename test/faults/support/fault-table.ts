/** One line of the fault suite's closing table. */
export interface FaultRow {
  fault: string;
  /** Orders not terminal when the fault began (a burst sent right before it included), plus those created until it ended. */
  inFlight: number;
  lost: number;
  doubled: number;
  /** From the fault's end until /health is 200 and every in-flight order is terminal; undefined: never. */
  recoverSeconds?: number;
  /** Submissions that got no answer or a refusal while the fault lasted, and other observations. */
  note: string;
}

export function formatFaultTable(rows: FaultRow[], recoveryLimitMs: number): string {
  const header = ['fault', 'orders in flight', 'lost', 'doubled', 'seconds to recover', 'note'];
  const body = rows.map((row) => [
    row.fault,
    String(row.inFlight),
    String(row.lost),
    String(row.doubled),
    row.recoverSeconds === undefined ? `not within ${recoveryLimitMs / 1000}` : row.recoverSeconds.toFixed(1),
    row.note,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
