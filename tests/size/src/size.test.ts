/**
 * Runs size-limit (esbuild, minified, gzip) over the built packages, as a browser app would
 * bundle them, and fails when an entry is over its budget in .size-limit.json.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

interface Entry {
  name: string;
  passed: boolean;
  size: number;
  sizeLimit: number;
}

it('keeps every bundle within its size budget (minified + gzip)', async () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const bin = join(dirname(createRequire(import.meta.url).resolve('size-limit/package.json')), 'bin.js');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [bin, '--json'], { cwd: join(here, '..') }, (err, out) => (out.trim().startsWith('[') ? resolve(out) : reject(err ?? new Error(out)))),
  );
  const entries = JSON.parse(stdout) as Entry[];
  expect(entries.length).toBe(2);
  for (const e of entries) {
    console.log(`${e.name}: ${(e.size / 1000).toFixed(2)} kB of ${(e.sizeLimit / 1000).toFixed(2)} kB`);
    expect(e.size, e.name).toBeGreaterThan(1000);
    expect(e.passed, `${e.name}: ${e.size} B over ${e.sizeLimit} B`).toBe(true);
  }
}, 120_000);
