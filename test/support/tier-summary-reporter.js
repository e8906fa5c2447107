// Jest reporter: appends this run's counts per tier (jest project) to the file named by
// TEST_SUMMARY_FILE, so scripts/test.sh can print one closing line for all tiers.
const fs = require('node:fs');

class TierSummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const tiers = {};
    for (const suite of results.testResults) {
      const tier = suite.displayName?.name ?? 'tests';
      const counts = (tiers[tier] ??= { passed: 0, failed: 0, skipped: 0 });
      counts.passed += suite.numPassingTests;
      counts.failed += suite.numFailingTests + (suite.testExecError ? 1 : 0);
      counts.skipped += suite.numPendingTests + suite.numTodoTests;
    }
    fs.appendFileSync(file, `${JSON.stringify(tiers)}\n`);
  }
}

module.exports = TierSummaryReporter;
