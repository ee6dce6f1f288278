/**
 * The packages as a user gets them, from a real npm registry. `scripts/local-registry.mjs` (what
 * `pnpm registry` runs) starts Verdaccio on 127.0.0.1, publishes every package to it with
 * `changeset publish` — the release command, pointed at the local registry — and prints the
 * install line. In a folder outside the workspace, plain `npm install` takes what a service
 * needs **by name** (no tarball paths, no `overrides`), with no warning; `tsc` builds a small
 * service and its typed client against the published type declarations, and it runs over real
 * HTTP on `@lib/node-http`, then with that one import changed to `@lib/router-adapter` (and Hono,
 * its peer, at the lowest version its range allows). A publish dry run closes the check.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixture/', import.meta.url));
/** The publishable packages: every `packages/*` that is not private. */
const published = readdirSync(join(root, 'packages')).filter((name) => {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as { private?: boolean };
  return pkg.private !== true;
});

let packs = '';
let app = '';
let registry = '';
let registryOutput = '';
let registryProcess: ChildProcess | undefined;

/**
 * The environment of a user's shell: this one without the `npm_*` settings pnpm hands the
 * scripts it runs (npm would warn about pnpm's own), npm's progress, funding and audit notes off.
 */
const userEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^pnpm_/i.test(k))),
  npm_config_progress: 'false',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/** Runs a command in `cwd`, its output as one string. */
async function sh(cwd: string, cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = userEnv): Promise<string> {
  const { stdout, stderr } = await run(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}

/** The lines of npm's output that warn. */
const warnings = (out: string): string[] => out.split('\n').filter((l) => /\bwarn\b|WARN/i.test(l));

beforeAll(async () => {
  packs = mkdtempSync(join(tmpdir(), 'lib-packs-'));
  app = mkdtempSync(join(tmpdir(), 'lib-consumer-'));
  // The documented command's registry step, on a free port: it prints `registry: <url>` when the packages are published.
  const child = spawn(process.execPath, [join(root, 'scripts/local-registry.mjs'), '--port', '0'], { cwd: root, env: userEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  registryProcess = child;
  registry = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer): void => {
      registryOutput += chunk.toString();
      const m = /^registry: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(registryOutput);
      if (m !== null) resolve(m[1] as string);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', (c: Buffer) => {
      registryOutput += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the local registry exited (${code}) before it was ready:\n${registryOutput}`)));
  });
}, 300_000);

afterAll(async () => {
  const child = registryProcess;
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  for (const dir of [packs, app]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('the published packages', () => {
  it('carry what their exports name, and nothing of the tests', async () => {
    const names = published.map((n) => `@lib/${n}`);
    await sh(packs, 'npm', ['pack', ...names, '--registry', registry, '--pack-destination', packs]);
    const version = (n: string): string => (JSON.parse(readFileSync(join(root, 'packages', n, 'package.json'), 'utf8')) as { version: string }).version;
    const tarballs = new Map(published.map((n) => [`@lib/${n}`, join(packs, `lib-${n}-${version(n)}.tgz`)]));
    expect(readdirSync(packs).sort()).toEqual([...tarballs.values()].map((f) => f.slice(packs.length + 1)).sort());
    for (const [name, file] of tarballs) {
      const files = (await sh(packs, 'tar', ['-tzf', file])).trim().split('\n').map((f) => f.replace(/^package\//, ''));
      expect(files.filter((f) => /\.test(-d)?\.ts$|(^|\/)\.vitest\/|(^|\/)test\/|tsconfig|vitest\.config/.test(f)), name).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(root, 'packages', name.slice('@lib/'.length), 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      const targets: string[] = [];
      const walk = (v: unknown): void => {
        if (typeof v === 'string') targets.push(v.replace(/^\.\//, ''));
        else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x);
      };
      walk(pkg.exports);
      for (const t of targets) if (!t.includes('*')) expect(files, `${name}: ${t}`).toContain(t);
    }
  });

  it('install by name from the registry with npm and no warning, build with tsc, and serve and call over HTTP on both adapters', async () => {
    expect(registryOutput).toContain(`npm install --registry ${registry} @lib/codec @lib/validate @lib/rest @lib/node-http`);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    copyFileSync(join(fixture, 'service.ts'), join(app, 'service.ts'));
    copyFileSync(join(fixture, 'tsconfig.json'), join(app, 'tsconfig.json'));
    // The printed install line, and the tools to build with.
    const installed = await sh(app, 'npm', ['install', '--registry', registry, '@lib/codec', '@lib/validate', '@lib/rest', '@lib/node-http', 'typescript@~5.9.3', '@types/node@^20.19.0']).catch((err: unknown) => {
      // What the registry said about it (its uplink to npmjs.org, say) belongs in the failure.
      throw new Error(`${err instanceof Error ? err.message : String(err)}\nthe local registry's output:\n${registryOutput.slice(-4000)}`, { cause: err });
    });
    expect(warnings(installed)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides?: unknown };
    expect(manifest.dependencies['@lib/rest']).toMatch(/^\^\d+\.\d+\.\d+/);
    expect(manifest.overrides).toBeUndefined();
    await sh(app, 'npx', ['tsc', '-p', '.']);
    const onNode = JSON.parse((await sh(app, 'node', ['dist/service.js'])).trim().split('\n').at(-1) as string) as Record<string, unknown>;
    const expected = {
      created: { id: '1', name: 'Ada' },
      got: { id: '1', name: 'Ada' },
      missing: [404, { error: 'no user 99' }],
      refused: 'RequestBuildError',
      paths: ['/users', '/users/{id}'],
    };
    expect(onNode).toEqual({ adapter: 'node-http', ...expected });

    // The adapter swap: one import, and the adapter with its peer.
    const swapped = await sh(app, 'npm', ['install', '--registry', registry, '@lib/router-adapter', 'hono@4.7.0']);
    expect(warnings(swapped)).toEqual([]);
    writeFileSync(join(app, 'service.ts'), readFileSync(join(app, 'service.ts'), 'utf8').replace("from '@lib/node-http';", "from '@lib/router-adapter';"));
    await sh(app, 'npx', ['tsc', '-p', '.']);
    const onHono = JSON.parse((await sh(app, 'node', ['dist/service.js'])).trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(onHono).toEqual({ adapter: 'router-adapter', ...expected });

    // CommonJS: every installed package loads with require (an ESM-only dependency is bundled in).
    const names = ['@lib/codec', '@lib/validate', '@lib/format', '@lib/openapi', '@lib/rest', '@lib/node-http', '@lib/router-adapter'];
    const loaded = await sh(app, 'node', ['-e', `for (const n of ${JSON.stringify(names)}) console.log(n, Object.keys(require(n)).length > 0)`]);
    expect(loaded.trim().split('\n')).toEqual(names.map((n) => `${n} true`));
  }, 300_000);

  it('publish: a dry run of every package', async () => {
    const out = await sh(root, 'pnpm', ['-r', '--filter', './packages/*', 'publish', '--dry-run', '--no-git-checks']);
    for (const name of published) expect(out).toContain(`+ @lib/${name}@`);
  }, 300_000);
});
