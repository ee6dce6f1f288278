#!/usr/bin/env node
/**
 * A real npm registry on this machine, holding this clone's packages: starts Verdaccio on
 * 127.0.0.1 (port 4873, or `--port N`; 0 picks a free one), publishes every package under
 * `packages/` to it through changesets (`changeset publish`, the command a release runs, here
 * pointed at the local registry), prints the `npm install` line a project uses, and serves until
 * stopped (Ctrl-C, SIGTERM). Packages must be built first (`pnpm registry` builds them).
 *
 * Everything else a project installs (hono, typescript, the packages' own dependencies) comes
 * from the public registry through the local one. Behind a proxy that re-signs TLS, Node must know its CA
 * (`NODE_EXTRA_CA_CERTS`), or every package from npmjs.org is a 404 here. Storage lives in a temporary folder, removed on
 * exit. Output: progress on stderr; on stdout, one line `registry: <url>` once it is ready, then
 * the install line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServer } from 'verdaccio';

const root = fileURLToPath(new URL('..', import.meta.url));
const portArg = process.argv.indexOf('--port');
const port = portArg === -1 ? 4873 : Number(process.argv[portArg + 1]);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node scripts/local-registry.mjs [--port N]   (N from 0 to 65535; 0 picks a free port)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'lib-registry-'));
let server;
let stopping = false;
/** Stops the registry and removes its storage; exits with `code`. */
function stop(code) {
  if (stopping) return;
  stopping = true;
  const done = () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  if (server === undefined) done();
  else {
    server.close(done);
    server.closeAllConnections?.();
  }
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

/** Runs a command, its output shown on stderr as it comes; rejects with the exit code. */
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (err) => (err === null ? resolve() : reject(err)));
    child.stdout.pipe(process.stderr);
    child.stderr.pipe(process.stderr);
  });
}

try {
  const published = readdirSync(join(root, 'packages')).filter((name) => JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')).private !== true);
  for (const name of published) {
    try {
      readdirSync(join(root, 'packages', name, 'dist'));
    } catch {
      throw new Error(`packages/${name} is not built: run \`pnpm registry\` (it builds first), or \`pnpm build\``);
    }
  }
  console.error(`local registry: starting Verdaccio (storage in ${dir})`);
  const app = await runServer({
    self_path: dir,
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
    // A busy machine makes a large packument (@types/node's) slow: wait for it, and never mark
    // npmjs.org offline after a few slow answers (Verdaccio's default: 2 failures, then 5 minutes of 404s).
    uplinks: { npmjs: { url: 'https://registry.npmjs.org/', timeout: '300s', max_fails: 1000, fail_timeout: '1s', agent_options: { keepAlive: true, maxSockets: 8 } } },
    packages: {
      // Ours: only what is published here, never the public registry's.
      '@lib/*': { access: '$all', publish: '$authenticated' },
      // Everything else from npmjs.org: other scopes (@types/node), then unscoped packages.
      '@*/*': { access: '$all', publish: '$authenticated', proxy: 'npmjs' },
      '**': { access: '$all', publish: '$authenticated', proxy: 'npmjs' },
    },
    max_body_size: '100mb',
    web: { enable: false },
    logs: { type: 'stdout', format: 'pretty', level: 'warn' },
  });
  server = await new Promise((resolve, reject) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const url = `http://127.0.0.1:${server.address().port}`;

  // A publisher account, as `npm adduser` makes one.
  const res = await fetch(`${url}/-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: `local-${process.pid}-${Date.now()}` }),
  });
  if (!res.ok) throw new Error(`the registry refused to add the publisher: ${res.status} ${await res.text()}`);
  const { token } = await res.json();
  const npmrc = join(dir, 'npmrc');
  writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${server.address().port}/:_authToken=${token}\n`);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_|^pnpm_config_/i.test(k))),
    NPM_CONFIG_USERCONFIG: npmrc,
    npm_config_registry: `${url}/`,
  };

  console.error(`local registry: publishing ${published.length} packages with changeset publish`);
  await run('pnpm', ['exec', 'changeset', 'publish', '--no-git-tag'], env);
  console.log(`registry: ${url}`);
  console.log(`In your project:\n  npm install --registry ${url} @lib/codec @lib/validate @lib/rest @lib/node-http`);
  console.error('local registry: serving; Ctrl-C stops it and removes its storage');
} catch (err) {
  console.error(`local registry: ${err instanceof Error ? err.message : String(err)}`);
  stop(1);
}
