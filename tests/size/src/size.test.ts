/**
 * Runs size-limit (esbuild, minified, gzip) over the built packages, as a browser app would
 * bundle them, and fails when an entry is over its budget in .size-limit.json. The same run
 * bundles oRPC + valibot clients of the same routes (src/peers/), and prints how @lib compares.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

interface Entry {
  name: string;
  /** Absent for the peers, which have no budget. */
  passed?: boolean;
  size: number;
  sizeLimit?: number;
}

it('keeps every bundle within its size budget (minified + gzip)', async () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const bin = join(dirname(createRequire(import.meta.url).resolve('size-limit/package.json')), 'bin.js');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [bin, '--json'], { cwd: join(here, '..') }, (err, out) => (out.trim().startsWith('[') ? resolve(out) : reject(err ?? new Error(out)))),
  );
  const entries = JSON.parse(stdout) as Entry[];
  expect(entries.length).toBe(5);
  const size = (prefix: string): number => {
    const e = entries.find((x) => x.name.startsWith(prefix));
    if (e === undefined) throw new Error(`no size-limit entry named ${prefix}…`);
    return e.size;
  };
  for (const e of entries) {
    console.log(`${e.name}: ${(e.size / 1000).toFixed(2)} kB${e.sizeLimit === undefined ? '' : ` of ${(e.sizeLimit / 1000).toFixed(2)} kB`}`);
    expect(e.size, e.name).toBeGreaterThan(1000);
    if (e.sizeLimit !== undefined) expect(e.passed, `${e.name}: ${e.size} B over ${e.sizeLimit} B`).toBe(true);
  }
  for (const routes of ['1 route', '10 routes']) {
    const ours = size(`@lib client, ${routes}`);
    const orpc = size(`oRPC (OpenAPILink) + valibot, ${routes}`);
    console.log(`${routes}: @lib ${(ours / 1000).toFixed(2)} kB, oRPC + valibot ${(orpc / 1000).toFixed(2)} kB: ${(ours / orpc).toFixed(2)}×`);
  }
}, 120_000);
