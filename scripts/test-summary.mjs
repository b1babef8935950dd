#!/usr/bin/env node
// Prints the plain CI summary line from vitest's JSON report and exits non-zero when anything failed,
// including suites that failed before running a test (e.g. an unreachable service in CI).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? 0 : Number(args[index + 1] ?? 0);
};
// Checks run outside vitest (e.g. the main-job smoke test) are added with --extra-passed / --extra-failed.
const extraPassed = option('--extra-passed');
const extraFailed = option('--extra-failed');
const path =
  args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'reports/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(path, 'utf8'));
} catch (error) {
  console.log(`test report ${path} is missing or unreadable: ${error.message}`);
  console.log(`${extraPassed} passed, ${1 + extraFailed} failed`);
  process.exit(1);
}
const passed = (report.numPassedTests ?? 0) + extraPassed;
const failedTests = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const brokenSuites = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' && file.assertionResults?.every((a) => a.status !== 'failed'),
);
for (const suite of brokenSuites) {
  console.log(`suite failed without a failing test: ${suite.name}: ${(suite.message ?? '').split('\n')[0]}`);
}
const failed = failedTests + brokenSuites.length + extraFailed;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || report.success === false ? 1 : 0);
