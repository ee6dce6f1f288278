// Sums the vitest JSON reports of every workspace package (`.vitest/results*.json`) into one closing line:
// "tests: N passed, N failed" (plus skipped, each named), and fails when a package wrote no report.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'examples', 'tests'].filter((d) => existsSync(d));
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const skippedNames = [];
for (const root of roots) {
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, 'utf8')).scripts?.test) continue;
    // results.json, plus one report per extra run (results-jitless.json: the codecs interpreted).
    const reports = existsSync(join(dir, '.vitest')) ? readdirSync(join(dir, '.vitest')).filter((f) => /^results.*\.json$/.test(f)).sort() : [];
    if (!reports.includes('results.json')) {
      missing.push(dir);
      continue;
    }
    for (const file of reports) {
      const r = JSON.parse(readFileSync(join(dir, '.vitest', file), 'utf8'));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + r.numTodoTests;
      const run = file === 'results.json' ? '' : ` (${file.slice('results-'.length, -'.json'.length)})`;
      console.log(`${(dir + run).padEnd(36)} ${r.numPassedTests} passed, ${r.numFailedTests} failed${r.numPendingTests > 0 ? `, ${r.numPendingTests} skipped` : ''}`);
      // Each skipped test by name, so that a skip is never silent.
      for (const f of r.testResults ?? []) for (const t of f.assertionResults ?? []) if (t.status === 'pending' || t.status === 'skipped' || t.status === 'todo') skippedNames.push(`${dir}${run}: ${t.fullName ?? t.title}`);
    }
  }
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
for (const name of skippedNames) console.log(`skipped: ${name}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
