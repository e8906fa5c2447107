// Jest reporter: appends this run's counts per tier (jest project) to the file named by
// TEST_SUMMARY_FILE, so scripts/test.sh can print one closing line for all tiers; and, when
// TEST_TIMINGS_FILE is set, each file's wall time, so the slowest files are named where the
// 20-minute budget is spent.
const fs = require('node:fs');
const path = require('node:path');

class TierSummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const tiers = {};
    const timings = [];
    for (const suite of results.testResults) {
      const tier = suite.displayName?.name ?? 'tests';
      const counts = (tiers[tier] ??= { passed: 0, failed: 0, skipped: 0 });
      counts.passed += suite.numPassingTests;
      counts.failed += suite.numFailingTests + (suite.testExecError ? 1 : 0);
      counts.skipped += suite.numPendingTests + suite.numTodoTests;
      const { start, end } = suite.perfStats ?? {};
      if (start && end)
        timings.push({
          tier,
          file: path.relative(process.cwd(), suite.testFilePath),
          s: (end - start) / 1000,
        });
    }
    fs.appendFileSync(file, `${JSON.stringify(tiers)}\n`);
    if (process.env.TEST_TIMINGS_FILE)
      for (const t of timings) fs.appendFileSync(process.env.TEST_TIMINGS_FILE, `${JSON.stringify(t)}\n`);
  }
}

module.exports = TierSummaryReporter;
