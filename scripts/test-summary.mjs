#!/usr/bin/env node
// Print the one line CI reads ("N passed, N failed") from vitest's JSON reports (one or more: .ci/run adds the
// consumer tests run again on other Node.js majors), summed.
import { readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    console.log(`test report ${file} unreadable: ${err.message}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  // A file that fails to load runs no test, and one whose beforeAll throws reports its tests as skipped: either
  // is broken, so a failed file without a failed test counts as one failure.
  const brokenFiles = (report.testResults ?? []).filter((s) => s.status === "failed" && !(s.assertionResults ?? []).some((a) => a.status === "failed")).length;
  failed += (report.numFailedTests ?? 0) + brokenFiles;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
