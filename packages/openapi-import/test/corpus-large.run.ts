// The whole of GitHub's REST description (@octokit/openapi, MIT) and Stripe's (stripe/openapi, MIT,
// as APIs.guru publishes it; see CORPUS.md): round trip and measurements.
// Run: pnpm --filter @lib/openapi-import run corpus:large   (not part of `pnpm test`: minutes)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { github } from './corpus.js';
import { generate, GENERATED, serveAndDiff } from './roundtrip.js';
import { summarise } from './summary.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

/** `tsc --extendedDiagnostics` on one file, with the options generated modules are checked with. */
function diagnostics(file: string): Record<string, string> {
  mkdirSync(GENERATED, { recursive: true });
  const config = join(GENERATED, `tsconfig.${file.replace(/[^A-Za-z0-9]/g, '_')}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'ESNext', moduleResolution: 'Bundler', customConditions: ['lib-source'], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: true, noEmit: true, types: ['node'] }, files: [file] }));
  let text: string;
  try {
    text = execFileSync(process.execPath, [tsc, '-p', config, '--extendedDiagnostics'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  } catch (e) {
    text = String((e as { stdout?: string }).stdout ?? e);
  }
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^(Files|Lines of TypeScript|Types|Instantiations|Memory used|Check time|Total time|Errors?):\s+(.*)$/.exec(line.trim());
    if (m !== null) out[m[1] as string] = (m[2] as string).trim();
  }
  out.errors = String(text.split('\n').filter((l) => /error TS\d+/.test(l)).length);
  return out;
}

test('GitHub REST API: round trip, type-check cost and serve readiness', async () => {
  const doc = github();
  const t0 = performance.now();
  const [r] = generate([doc]);
  const generated = performance.now() - t0;
  await serveAndDiff(r!, doc.doc);
  const s = summarise([r!]);
  const big = diagnostics(r!.file);
  const small = diagnostics(join(here, 'fixtures', 'ten-routes.ts'));
  console.log([
    `github: ${s.operations} operations, ${s.schemas} schemas; generated and type-checked (compiler API) in ${(generated / 1000).toFixed(1)} s`,
    s.text,
    `serve() readiness of ${s.operations} routes: ${r!.serveMs.toFixed(0)} ms`,
    `tsc --extendedDiagnostics, generated GitHub module: ${JSON.stringify(big)}`,
    `tsc --extendedDiagnostics, hand-written 10 routes:  ${JSON.stringify(small)}`,
  ].join('\n'));
  expect(r!.typeErrors).toEqual([]);
  expect(r!.served).toBe(true);
  expect(r!.error).toBeUndefined();
}, 1_800_000);

test('Stripe API: imported, type-checked and served; its round trip measured', async () => {
  const doc = { name: 'stripe', doc: JSON.parse(gunzipSync(readFileSync(join(here, 'fixtures', 'stripe.com.json.gz'))).toString('utf8')) as object };
  const t0 = performance.now();
  const [r] = generate([doc]);
  const generated = performance.now() - t0;
  await serveAndDiff(r!, doc.doc);
  const s = summarise([r!]);
  console.log([
    `stripe: ${s.operations} operations, ${s.schemas} schemas; generated and type-checked (compiler API) in ${(generated / 1000).toFixed(1)} s`,
    s.text,
    `serve() readiness of ${s.operations} routes: ${r!.serveMs.toFixed(0)} ms`,
  ].join('\n'));
  expect(r!.typeErrors).toEqual([]);
  expect(r!.served).toBe(true);
  expect(r!.error).toBeUndefined();
}, 1_800_000);
