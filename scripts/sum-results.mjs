// Adds up the JSON reports of every runner in the folder given as the first argument and prints one
// "N passed, N failed" line, so CI reads a single total for the whole test command.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;

for (const name of readdirSync(dir)) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  if (name.startsWith('vitest')) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } else if (name.startsWith('playwright')) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
  console.log(`${name}: running total ${passed} passed, ${failed} failed`);
}

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
