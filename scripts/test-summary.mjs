// Sums the vitest JSON reports of every workspace package into one closing line:
// "tests: N passed, N failed" (plus skipped), and fails when a package wrote no report.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'examples', 'tests'].filter((d) => existsSync(d));
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const root of roots) {
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, 'utf8')).scripts?.test) continue;
    const report = join(dir, '.vitest', 'results.json');
    if (!existsSync(report)) {
      missing.push(dir);
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
    console.log(`${dir.padEnd(28)} ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  }
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
