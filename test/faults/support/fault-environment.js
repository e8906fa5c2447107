// The faults' test environment: Node's, plus a report when a test or a hook fails — the status and
// the last lines of every app process the file started (test/support/app-output.ts registers them
// on the file's global). A fault suite fails intermittently, and a failure that shows only "exit
// code 1" cannot be explained afterwards; the processes' own last words can.
const { TestEnvironment } = require('jest-environment-node');

const REPORT = '__vmmAppOutputReport'; // APP_OUTPUT_REPORT in test/support/app-output.ts
const LINES = Number(process.env.FAULT_REPORT_LINES || 40);

class FaultEnvironment extends TestEnvironment {
  handleTestEvent(event) {
    const failed =
      (event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure';
    if (!failed) return;
    const report = this.global[REPORT];
    if (typeof report !== 'function') return;
    const what = event.name === 'hook_failure' ? `${event.hook.type} hook` : `"${event.test.name}"`;
    process.stderr.write(
      `\n=== ${what} failed; the apps' last lines:\n${report(LINES)}\n=== end of the apps' lines\n\n`,
    );
  }
}

module.exports = FaultEnvironment;
