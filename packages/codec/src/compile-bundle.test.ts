/**
 * The decoder compiler survives a bundler. `@lib/codec` is `"sideEffects": false`, so a bundle
 * keeps `internal/compile.ts` only where something calls into it: a bundled Node server must
 * still decode with compiled code, a browser client may leave the compiler out. Each case
 * bundles a small entry with esbuild (ESM for Node, from the sources, as an application's build
 * would take them), runs it in a child process and reads what it prints.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = mkdtempSync(join(tmpdir(), 'codec-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** True when `c` keeps a compiled decoder: the codec decoded through the compiler. */
const COMPILED_PROBE = `(c) => Object.getOwnPropertySymbols(c).some((s) => s.description === 'compiledDecoder' && c[s].name !== 'refuse')`;

/**
 * Bundles `source` for Node (resolved from `packages/<from>`, whose dependencies it may import),
 * runs the bundle without the environment's `LIB_CODEC_JIT`, and parses the JSON line it prints.
 */
async function runBundled(name: string, from: string, source: string): Promise<Record<string, unknown>> {
  const file = join(out, `${name}.mjs`);
  await build({
    stdin: { contents: source, resolveDir: join(packages, from), sourcefile: `${name}.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['lib-source'],
    // CommonJS dependencies `require` Node's modules: give the ES module bundle a `require`.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    outfile: file,
    logLevel: 'silent',
  });
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['LIB_CODEC_JIT'];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [file], { env, timeout: 30_000 }, (err, so, se) => (err === null ? resolve(so) : reject(new Error(`${String(err)}\n${se}`)))),
  );
  return JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
}

describe('the decoder compiler in a bundle', () => {
  it('is used by a bundled Node server: @lib/rest’s serve path installs it', async () => {
    const result = await runBundled(
      'server',
      'rest',
      `
      import * as codec from '@lib/codec';
      import * as rest from '@lib/rest';
      import { HTTP_PARAM_KINDS } from '@lib/rest/pipeline';
      const item = codec.object({ name: codec.string(), count: codec.int() });
      const api = rest.newServer({ title: 't', version: '1' });
      rest.newRoute('POST', '/items', item, item).withHandler((_ctx, req) => req).register(api);
      let mounted = [];
      api.attach({ adapter: 'bundle-test', paramKinds: HTTP_PARAM_KINDS, capabilities: new Map(), mount: (routes) => { mounted = routes; }, serve: async () => {} });
      await api.serve();
      const body = new TextEncoder().encode('{"name":"x","count":2}');
      const res = await mounted[0].run({
        method: 'POST', pathParams: {}, rawQuery: '', native: undefined, signal: new AbortController().signal,
        header: (n) => (n === 'content-type' ? 'application/json' : n === 'content-length' ? String(body.length) : undefined),
        readBody: async () => body,
        bodyStream: async function* () { yield body; },
      });
      console.log(JSON.stringify({ status: res.status, compiled: (${COMPILED_PROBE})(item) }));
      `,
    );
    expect(result).toEqual({ status: 201, compiled: true });
  }, 60_000);

  it('is used by a bundle that decodes with codecs alone once it asks for it (setJit), and left out of one that does not', async () => {
    const source = (asks: boolean): string => `
      import * as codec from '@lib/codec';
      ${asks ? "codec.setJit('auto');" : ''}
      const item = codec.object({ name: codec.string() });
      item.decode({ name: 'x' });
      console.log(JSON.stringify({ compiled: (${COMPILED_PROBE})(item) }));
      `;
    expect(await runBundled('asks', 'codec', source(true))).toEqual({ compiled: true });
    // What a browser client bundle relies on: without a call into the compiler, the bundle has none.
    expect(await runBundled('plain', 'codec', source(false))).toEqual({ compiled: false });
  }, 60_000);
});
