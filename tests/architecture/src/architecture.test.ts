/**
 * The direction of imports, checked with dependency-cruiser over every package's sources: no
 * circle in any package, the kernel below the declaration, and @lib/rest's rooms in one
 * direction (declare/ ← serve/, declare/ ← call/; call/ never imports serve/), and no package
 * importing the testing kit (@lib/testing). The rules are in ../.dependency-cruiser.cjs;
 * fixture/ holds one of each mistake, to show they are caught.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const config = join(here, '../.dependency-cruiser.cjs');
// The package's own command, as `depcruise` runs it (the package exports no path to it).
const bin = join(here, '../node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

/** The violations dependency-cruiser finds under `cwd`/packages, as `rule: from → to`. */
async function violations(cwd: string): Promise<string[]> {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [bin, 'packages', '--config', config, '--output-type', 'json'], { cwd, maxBuffer: 256 * 1024 * 1024 }, (err, out, stderr) =>
      out.trim().startsWith('{') ? resolve(out) : reject(err ?? new Error(stderr)),
    ),
  );
  const result = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBeGreaterThan(0);
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle === undefined ? '' : ` (circle: ${v.cycle.map((c) => c.name).join(' → ')})`}`);
}

describe('architecture', () => {
  it('has no circle and no import against the direction of the house', async () => {
    expect(await violations(root)).toEqual([]);
  }, 120_000);

  it('catches a circle, a declaration importing the server, a client importing the server and a package importing the testing kit', async () => {
    const found = await violations(join(here, '../fixture'));
    expect(found.some((v) => v.startsWith('no-circle: packages/codec/src/a.ts → packages/codec/src/b.ts'))).toBe(true);
    expect(found).toContain('rest-declare-is-pure: packages/rest/src/declare/route.ts → packages/rest/src/serve/server.ts');
    expect(found).toContain('rest-call-without-serve: packages/rest/src/call/client.ts → packages/rest/src/serve/server.ts');
    expect(found).toContain('testing-is-imported-by-none: packages/codec/src/c.ts → packages/testing/src/index.ts');
  }, 120_000);
});
