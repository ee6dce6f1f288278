/**
 * `pnpm bench`: the codec benchmark, then the HTTP benchmark, printed as markdown. Run by hand,
 * never by CI or `pnpm test`; the numbers are ratios against peers measured in this one run.
 *
 *   pnpm bench                    # both, @lib from its TypeScript source (tsx)
 *   pnpm bench -- codec           # only the codec benchmark
 *   pnpm bench -- http            # only the HTTP benchmark
 *   pnpm bench -- startup         # only the startup benchmark (1, 100, 1000 routes)
 *   pnpm bench -- client          # only the client benchmark (client.call vs fetch and undici)
 *   pnpm bench -- --dist          # @lib from its built dist/ (run `pnpm build` first): what users run
 *
 * Why `--dist`: tsx compiles with esbuild's `keepNames`, which wraps every function expression
 * in `__name(fn, 'name')` (an `Object.defineProperty` per closure created). The peers run from
 * their published builds, which have no such calls, and neither has @lib's tsup build.
 */
import { fork } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { targetTable, type Target } from './util.js';

// Servers run as in production: @lib checks response bodies against their constraints only in
// development (`validateResponses` defaults to NODE_ENV !== 'production'); children inherit it.
process.env.NODE_ENV ??= 'production';

const args = process.argv.slice(2).filter((a) => a !== '--');
const SOURCE = '--conditions=lib-source';

if (args.includes('--dist') && process.execArgv.includes(SOURCE)) {
  // Run again without the `lib-source` condition, so `@lib/*` resolve to their dist/ (the HTTP
  // servers' processes inherit these exec arguments).
  const child = fork(fileURLToPath(import.meta.url), process.argv.slice(2), { execArgv: process.execArgv.filter((a) => a !== SOURCE) });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

/** The newest modification time under `dir` (files only), in ms. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(`${e.parentPath}/${e.name}`).mtimeMs);
  }
  return t;
}

/** Where `@lib/*` resolve from, and a warning when a dist/ is older than its source. */
function libOrigin(): string {
  const resolved = import.meta.resolve('@lib/rest');
  if (resolved.includes('/src/')) return '@lib from its TypeScript source (tsx, `--conditions=lib-source`)';
  const stale: string[] = [];
  for (const pkg of ['codec', 'validate', 'format', 'openapi', 'rest', 'node-http']) {
    const root = fileURLToPath(new URL(`../../packages/${pkg}/`, import.meta.url));
    try {
      if (newest(`${root}src`) > statSync(`${root}dist/index.js`).mtimeMs) stale.push(pkg);
    } catch {
      stale.push(pkg);
    }
  }
  const warn = stale.length > 0 ? ` — WARNING: dist/ older than src/ for ${stale.join(', ')}; run \`pnpm build\`` : '';
  return `@lib from its built dist/ (tsup)${warn}`;
}

async function main(): Promise<void> {
  const { runCodecBench } = await import('./codec.js');
  const { runHttpBench } = await import('./http.js');
  const { runStartupBench } = await import('./startup.js');
  const { runClientBench } = await import('./client.js');
  const only = args.filter((a) => !a.startsWith('--'));
  const want = (name: string): boolean => only.length === 0 || only.includes(name);

  const started = performance.now();
  const cpus = os.cpus();
  const origin = libOrigin();
  console.error(origin);
  const header = [
    `## @lib benchmark — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB. ${origin}.`,
  ];
  const out: string[] = [header.join('\n')];
  const targets: Target[] = [];

  if (want('codec')) {
    console.error('codec benchmark…');
    const r = await runCodecBench({}, (s) => console.error(s));
    targets.push(...r.targets);
    out.push(`### Codecs: a user object, a list of 200, compile time\n\n${r.markdown}`);
  }
  if (want('http')) {
    console.error('HTTP benchmark…');
    const r = await runHttpBench({}, (s) => console.error(s));
    targets.push(...r.targets);
    out.push(`### HTTP: one server per process, under load\n\n${r.markdown}`);
  }
  if (want('startup')) {
    console.error('startup benchmark…');
    const r = await runStartupBench({}, (s) => console.error(s));
    targets.push(...r.targets);
    out.push(`### Startup: 1, 100 and 1000 routes\n\n${r.markdown}`);
  }
  if (want('client')) {
    console.error('client benchmark…');
    const r = await runClientBench({}, (s) => console.error(s));
    targets.push(...r.targets);
    out.push(`### Client: overhead over its transport\n\n${r.markdown}`);
  }
  if (targets.length > 0) {
    const met = targets.filter((t) => t.met).length;
    out.splice(1, 0, `### Summary: the targets, as ratios within this run (${met} of ${targets.length} met)\n\n${targetTable(targets)}`);
  }
  out.push(`Total time: ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  console.log(out.join('\n\n'));
}
