/**
 * Every app process a test file started, for the report of a failing test: its exit status and its
 * last lines. The report is a function on the file's global object, which the faults' test
 * environment (test/faults/support/fault-environment.js) calls when a test or a hook fails — so an
 * intermittent failure in CI shows what each process wrote last, a crash's stack trace included,
 * whichever assertion happened to fail first.
 */
export interface AppOutput {
  /** `app#pid`. */
  label: () => string;
  /** 'running', or how it ended. */
  status: () => string;
  tail: (lines: number) => string;
}

/** The global the test environment calls; the same string is in fault-environment.js. */
export const APP_OUTPUT_REPORT = '__vmmAppOutputReport';

const outputs: AppOutput[] = [];

export function registerAppOutput(output: AppOutput): void {
  outputs.push(output);
  (globalThis as Record<string, unknown>)[APP_OUTPUT_REPORT] = (lines?: number) =>
    describeAppOutputs(outputs, lines);
}

/** Each process's status and last `lines` lines. */
export function describeAppOutputs(list: readonly AppOutput[], lines = 30): string {
  return list
    .map(
      (output) => `--- ${output.label()} (${output.status()}), last ${lines} lines:\n${output.tail(lines)}`,
    )
    .join('\n');
}
