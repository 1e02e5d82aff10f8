import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Prints one closing line, "N passed, N failed", over the Vitest and Playwright JSON reports
 * that `npm test` writes to .test-reports/ (CI reads that line). Exits 1 when a report is missing.
 */
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = false;

// vitest.json (npm test), vitest-postgres.json (the database suites on the server, in CI) and the
// first Node's run kept as vitest-<version>.json (CI runs npm test on two versions).
const vitestReports = existsSync('.test-reports') ? readdirSync('.test-reports').filter((f) => /^vitest.*\.json$/.test(f)) : [];
if (!vitestReports.includes('vitest.json')) missing = true;
for (const file of vitestReports) {
  const report = JSON.parse(readFileSync(`.test-reports/${file}`, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}

// playwright.json, and in CI the first Node's run kept as playwright-<version>.json.
const playwrightReports = existsSync('.test-reports') ? readdirSync('.test-reports').filter((f) => /^playwright.*\.json$/.test(f)) : [];
if (!playwrightReports.includes('playwright.json')) missing = true;
for (const file of playwrightReports) {
  const report = JSON.parse(readFileSync(`.test-reports/${file}`, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
}

console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
if (missing) {
  console.error('(a test report is missing: some suites did not run)');
  process.exit(1);
}
