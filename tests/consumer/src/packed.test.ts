/**
 * The packages as a user gets them. Every publishable package is packed with `pnpm pack` (the
 * workspace's `workspace:*` turned into versions); in a folder outside the workspace, plain `npm`
 * installs only what a service needs, with no warning; `tsc` builds a small service and its typed
 * client against the packed type declarations, and it runs over real HTTP on `@lib/node-http`,
 * then again with that one import changed to `@lib/router-adapter` (and Hono, its peer, at the
 * lowest version its range allows). A publish dry run of every package closes the check.
 */
import { execFile } from 'node:child_process';
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
const tarballs = new Map<string, string>();

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

beforeAll(async () => {
  packs = mkdtempSync(join(tmpdir(), 'lib-packs-'));
  app = mkdtempSync(join(tmpdir(), 'lib-consumer-'));
  for (const name of published) {
    const out = await sh(join(root, 'packages', name), 'pnpm', ['pack', '--pack-destination', packs]);
    const file = out.trim().split('\n').at(-1) as string;
    tarballs.set(`@lib/${name}`, file.startsWith('/') ? file : join(packs, file));
  }
}, 300_000);

afterAll(() => {
  for (const dir of [packs, app]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('carry what their exports name, and nothing of the tests', async () => {
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

  it('install with npm and no warning, build with tsc, and serve and call over HTTP on both adapters', async () => {
    const dep = (name: string): string => `file:${tarballs.get(name) as string}`;
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify(
        {
          name: 'consumer',
          private: true,
          type: 'module',
          dependencies: { '@lib/codec': dep('@lib/codec'), '@lib/validate': dep('@lib/validate'), '@lib/rest': dep('@lib/rest'), '@lib/node-http': dep('@lib/node-http') },
          devDependencies: { typescript: '~5.9.3', '@types/node': '^20.19.0' },
          // What the four depend on among the packages, from the same packs (no registry has them).
          overrides: { '@lib/format': dep('@lib/format'), '@lib/openapi': dep('@lib/openapi') },
        },
        null,
        2,
      ),
    );
    copyFileSync(join(fixture, 'service.ts'), join(app, 'service.ts'));
    copyFileSync(join(fixture, 'tsconfig.json'), join(app, 'tsconfig.json'));
    const installed = await sh(app, 'npm', ['install']);
    expect(installed.split('\n').filter((l) => /\bwarn\b|WARN/i.test(l))).toEqual([]);
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
    const swapped = await sh(app, 'npm', ['install', dep('@lib/router-adapter'), 'hono@4.7.0']);
    expect(swapped.split('\n').filter((l) => /\bwarn\b|WARN/i.test(l))).toEqual([]);
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
