// Which parsers a client bundle of `@lib/format` contains. Used by test/tree-shaking.test.ts
// (on src/) and, after the build, by `pnpm run lint` (on dist/: `node test/bundle.mjs dist/index.js`).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The parsers, by the package each format imports. */
export const PARSERS = ['yaml', 'smol-toml', 'cborg', 'multipasta', 'eventsource-parser'];

/** What each import must load: the exports taken, and the one parser they need. */
export const CASES = [
  [['json', 'binary', 'form', 'html', 'newTyped', 'newStreamed', 'lines', 'mediaTypeOf'], undefined],
  [['yaml'], 'yaml'],
  [['toml'], 'smol-toml'],
  [['cbor'], 'cborg'],
  [['multipart'], 'multipasta'],
  [['sse'], 'eventsource-parser'],
];

/**
 * The npm packages whose code a minified browser bundle of `import { names } from entry` (a
 * path relative to the package) contains, and its size in bytes.
 * @param {string} entry
 * @param {string[]} names
 * @returns {Promise<{ packages: Set<string>, bytes: number }>}
 */
export async function bundle(entry, names) {
  const result = await build({
    stdin: { contents: `import { ${names.join(', ')} } from ${JSON.stringify(entry)};\nconsole.log(${names.join(', ')});\n`, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    metafile: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: entry.endsWith('.ts') ? ['lib-source'] : [],
    logLevel: 'silent',
  });
  const packages = new Set();
  // The inputs that put bytes into the output (metafile.inputs lists every module parsed).
  const output = Object.values(result.metafile.outputs)[0];
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    if (bytesInOutput === 0) continue;
    const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m?.[1] !== undefined) packages.add(m[1]);
  }
  return { packages, bytes: result.outputFiles[0]?.contents.length ?? 0 };
}

/**
 * Bundles each case from `entry`; returns the failures (empty when every case loads exactly its parser).
 * @param {string} entry
 * @returns {Promise<string[]>}
 */
export async function check(entry) {
  const failures = [];
  for (const [names, parser] of CASES) {
    const { packages, bytes } = await bundle(entry, names);
    const loaded = PARSERS.filter((p) => packages.has(p));
    const want = parser === undefined ? [] : [parser];
    if (loaded.join() !== want.join()) failures.push(`${entry} { ${names.join(', ')} }: loads [${loaded.join(', ')}], expected [${want.join(', ')}]`);
    else if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`${entry} { ${names.join(', ')} }: ${bytes} bytes, parsers [${loaded.join(', ')}]`);
  }
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2] ?? 'dist/index.js';
  const failures = await check(arg.startsWith('.') ? arg : `./${arg}`);
  for (const f of failures) console.error(f);
  process.exitCode = failures.length === 0 ? 0 : 1;
}
