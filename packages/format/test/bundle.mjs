// Which parsers a client bundle of `@lib/format` contains, up front and loaded later. Used by
// test/tree-shaking.test.ts (on src/) and, after the build, by `pnpm run lint` (on dist/:
// `node test/bundle.mjs dist/index.js`).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The parsers, by the package each format imports. */
export const PARSERS = ['yaml', 'smol-toml', 'cborg', 'fast-xml-parser', 'multipasta', 'eventsource-parser'];

/**
 * What each import must load: the exports taken, the one parser they need up front, and the one
 * they load on first use (`sse`: its reader, writer and parser come in a chunk of their own).
 */
export const CASES = [
  [['json', 'binary', 'form', 'html', 'newTyped', 'newStreamed', 'lines', 'mediaTypeOf'], undefined, undefined],
  [['yaml'], 'yaml', undefined],
  [['toml'], 'smol-toml', undefined],
  [['cbor'], 'cborg', undefined],
  [['xml'], 'fast-xml-parser', undefined],
  [['multipart'], 'multipasta', undefined],
  [['sse', 'SSEFormat', 'SSEErrorEvent'], undefined, 'eventsource-parser'],
];

/** The npm package of a bundled input path, if it is one. */
function packageOf(input) {
  return /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/**
 * A minified, code-split browser bundle of `import { names } from entry` (a path relative to the
 * package): the npm packages whose code the browser loads up front (the entry and the chunks it
 * imports statically) and later (the chunks behind a dynamic `import()`), the number of files
 * loaded up front, and their size in bytes.
 * @param {string} entry
 * @param {readonly string[]} names
 * @returns {Promise<{ packages: Set<string>, lazy: Set<string>, files: number, bytes: number }>}
 */
export async function bundle(entry, names) {
  const result = await build({
    stdin: { contents: `import { ${names.join(', ')} } from ${JSON.stringify(entry)};\nconsole.log(${names.join(', ')});\n`, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    splitting: true,
    outdir: 'out',
    write: false,
    metafile: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: entry.endsWith('.ts') ? ['lib-source'] : [],
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const main = Object.keys(outputs).find((k) => outputs[k].entryPoint !== undefined && k.endsWith('.js'));
  // Up front: the entry and every chunk it imports statically, transitively. Later: the chunks
  // those import dynamically, and theirs. (esbuild also writes a chunk for a dynamic import in a
  // module it left out, which nothing loads.)
  const initial = new Set([main]);
  for (const k of initial) for (const i of outputs[k].imports) if (i.kind === 'import-statement') initial.add(i.path);
  const later = new Set();
  for (const k of [...initial]) for (const i of outputs[k].imports) if (i.kind === 'dynamic-import') later.add(i.path);
  for (const k of later) for (const i of outputs[k].imports) if (!initial.has(i.path)) later.add(i.path);
  const packages = new Set();
  const lazy = new Set();
  let bytes = 0;
  for (const [k, out] of Object.entries(outputs)) {
    if (!initial.has(k) && !later.has(k)) continue;
    if (initial.has(k)) bytes += out.bytes;
    // The inputs that put bytes into the output (metafile.inputs lists every module parsed).
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      const p = bytesInOutput === 0 ? undefined : packageOf(input);
      if (p !== undefined) (initial.has(k) ? packages : lazy).add(p);
    }
  }
  return { packages, lazy, files: initial.size, bytes };
}

/**
 * Bundles each case from `entry`; returns the failures (empty when every case loads exactly its
 * parsers, and up front in one file).
 * @param {string} entry
 * @returns {Promise<string[]>}
 */
export async function check(entry) {
  const failures = [];
  for (const [names, parser, lazyParser] of CASES) {
    const { packages, lazy, files, bytes } = await bundle(entry, names);
    const loaded = PARSERS.filter((p) => packages.has(p));
    const later = PARSERS.filter((p) => lazy.has(p));
    const want = parser === undefined ? [] : [parser];
    const wantLater = lazyParser === undefined ? [] : [lazyParser];
    const what = `${entry} { ${names.join(', ')} }`;
    if (loaded.join() !== want.join() || later.join() !== wantLater.join()) {
      failures.push(`${what}: loads [${loaded.join(', ')}] up front and [${later.join(', ')}] later, expected [${want.join(', ')}] and [${wantLater.join(', ')}]`);
    } else if (files !== 1) failures.push(`${what}: loads ${files} files up front, expected 1 (a lazy chunk shares a module with the entry)`);
    else if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`${what}: ${bytes} bytes, parsers [${loaded.join(', ')}], later [${later.join(', ')}]`);
  }
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2] ?? 'dist/index.js';
  const failures = await check(arg.startsWith('.') ? arg : `./${arg}`);
  for (const f of failures) console.error(f);
  process.exitCode = failures.length === 0 ? 0 : 1;
}
