/**
 * What a browser loads, minified and gzipped, for each entry of .size-limit.json: the built
 * packages (dist/) bundled as a browser app would bundle them, with esbuild, ESM, code splitting.
 *
 * - **Up front** is what the page loads before the first call: the entry's file and every chunk
 *   it imports statically. The budgets (`limit`) bound it.
 * - **On first use** is what a dynamic `import()` fetches later (the event-stream reader and
 *   writer, when a client opens its first stream), printed apart.
 *
 * Each file is gzipped on its own (level 9), as a server sends it, and the sizes summed; what an
 * empty entry bundles to (the gzip container of an empty file) is taken off once, as size-limit,
 * which measured these budgets before, took off its empty project. The same run bundles oRPC +
 * valibot clients of the same routes (src/peers/) the same way, and prints how @lib compares.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { expect, it } from 'vitest';

interface Budget {
  readonly name: string;
  readonly path: string;
  /** The most the entry may load up front, minified + gzip (`16.6 kB`; 1 kB = 1000 bytes); absent for the peers. */
  readonly limit?: string;
}

interface Measured {
  readonly name: string;
  readonly limit: number | undefined;
  /** Bytes loaded up front (gzip), and the files. */
  readonly initial: number;
  readonly initialFiles: number;
  /** Bytes loaded by dynamic imports on first use (gzip), and the files. */
  readonly lazy: number;
  readonly lazyFiles: number;
  /** The npm packages whose code is loaded up front, and on first use. */
  readonly initialPackages: ReadonlySet<string>;
  readonly lazyPackages: ReadonlySet<string>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `16.6 kB` → 16600. */
function bytesOf(limit: string): number {
  const m = /^\s*([\d.]+)\s*(B|kB|KB|MB)\s*$/.exec(limit);
  if (m === null) throw new Error(`unreadable limit ${JSON.stringify(limit)}`);
  return Math.round(Number(m[1]) * (m[2] === 'B' ? 1 : m[2] === 'MB' ? 1e6 : 1e3));
}

/** The npm package of a bundled input path, if it is one. */
function packageOf(input: string): string | undefined {
  return /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/** The gzip size of each of the files up front and on first use of a bundle of `entry` (a path, or the empty module). */
async function measure(budget: Budget, empty = 0): Promise<Measured> {
  const outdir = join(root, '.size-out');
  const result = await build({
    ...(budget.path === '' ? { stdin: { contents: '', resolveDir: root, sourcefile: 'empty.js' } } : { entryPoints: [join(root, budget.path)] }),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    treeShaking: true,
    write: false,
    metafile: true,
    outdir,
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const contents = new Map(result.outputFiles.map((f) => [relative(root, f.path), f.contents]));
  const main = Object.keys(outputs).find((k) => outputs[k]?.entryPoint !== undefined && k.endsWith('.js'));
  if (main === undefined) throw new Error(`${budget.path}: no entry output`);
  // Up front: the entry and the chunks it imports statically. On first use: the chunks those
  // import dynamically, and what those import. (A dynamic import in a module the bundle left out
  // still gets a chunk, which nothing loads: it counts nowhere.)
  const initial = new Set([main]);
  for (const k of initial) for (const i of outputs[k]?.imports ?? []) if (i.kind === 'import-statement') initial.add(i.path);
  const lazy = new Set<string>();
  for (const k of initial) for (const i of outputs[k]?.imports ?? []) if (i.kind === 'dynamic-import') lazy.add(i.path);
  for (const k of lazy) for (const i of outputs[k]?.imports ?? []) if (!initial.has(i.path)) lazy.add(i.path);
  const gzip = (files: Set<string>): number => [...files].reduce((n, k) => n + gzipSync(contents.get(k) ?? new Uint8Array(), { level: 9 }).length, 0);
  const packages = (files: Set<string>): Set<string> => {
    const out = new Set<string>();
    for (const k of files) {
      for (const [input, { bytesInOutput }] of Object.entries(outputs[k]?.inputs ?? {})) {
        const p = bytesInOutput > 0 ? packageOf(input) : undefined;
        if (p !== undefined) out.add(p);
      }
    }
    return out;
  };
  return {
    name: budget.name,
    limit: budget.limit === undefined ? undefined : bytesOf(budget.limit),
    initial: gzip(initial) - empty,
    initialFiles: initial.size,
    lazy: gzip(lazy),
    lazyFiles: lazy.size,
    initialPackages: packages(initial),
    lazyPackages: packages(lazy),
  };
}

const kB = (n: number): string => `${(n / 1000).toFixed(2)} kB`;

const budgets = JSON.parse(readFileSync(join(root, '.size-limit.json'), 'utf8')) as Budget[];
const measured = (async () => {
  const empty = (await measure({ name: 'empty', path: '' })).initial;
  const all: Measured[] = [];
  for (const b of budgets) all.push(await measure(b, empty));
  for (const e of all) {
    const lazy = e.lazyFiles === 0 ? '' : `, + ${kB(e.lazy)} on first use (${e.lazyFiles} chunk${e.lazyFiles === 1 ? '' : 's'}: ${[...e.lazyPackages].join(', ') || 'our code'})`;
    console.log(`${e.name}: ${kB(e.initial)} up front${e.initialFiles === 1 ? '' : ` in ${e.initialFiles} files`}${e.limit === undefined ? '' : ` of ${kB(e.limit)}`}${lazy}`);
  }
  return all;
})();

function entry(all: readonly Measured[], prefix: string): Measured {
  const e = all.find((x) => x.name.startsWith(prefix));
  if (e === undefined) throw new Error(`no entry in .size-limit.json named ${prefix}…`);
  return e;
}

it('keeps what every bundle loads up front within its budget (minified + gzip)', async () => {
  const all = await measured;
  expect(all.length).toBe(budgets.length);
  for (const e of all) {
    expect(e.initial, e.name).toBeGreaterThan(1000);
    if (e.limit !== undefined) expect(e.initial, `${e.name}: ${e.initial} B up front, over ${e.limit} B`).toBeLessThanOrEqual(e.limit);
  }
  for (const routes of ['1 route', '10 routes']) {
    const ours = entry(all, `@lib client, ${routes}`).initial;
    const orpc = entry(all, `oRPC (OpenAPILink) + valibot, ${routes}`).initial;
    console.log(`${routes}: @lib ${kB(ours)}, oRPC + valibot ${kB(orpc)}: ${(ours / orpc).toFixed(2)}×`);
  }
}, 120_000);

it('loads the event-stream parser only when a client opens a stream, and never in a client without one', async () => {
  const all = await measured;
  for (const prefix of ['@lib client, 1 route', '@lib client, 10 routes']) {
    const e = entry(all, prefix);
    expect(e.initialPackages.has('eventsource-parser'), e.name).toBe(false);
    // The entry stays one file: no chunk shared with the stream code is split off it.
    expect(e.initialFiles, e.name).toBe(1);
  }
  const sse = entry(all, '@lib client of one SSE route');
  expect(sse.initialPackages.has('eventsource-parser')).toBe(false);
  expect(sse.initialFiles).toBe(1);
  expect(sse.lazyPackages.has('eventsource-parser')).toBe(true);
  expect(sse.lazy).toBeGreaterThan(1000);
}, 120_000);
