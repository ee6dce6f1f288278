/**
 * The router adapter's smoke app (`app.ts`) on every runtime its README names — Node, Bun, Deno
 * and workerd, Cloudflare Workers' runtime — each serving `router.fetch` its own way, from the
 * built packages. The checks run from Node over real HTTP (`checks.ts`), the typed client
 * included; the docs page's files are served on every runtime, none of them with a file system.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { EXPECTED, runChecks } from './checks.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const pkg = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string): string => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** A port that was free a moment ago (for a runtime that cannot pick its own). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts `cmd` and resolves once its output says `listening <port>` (or `waitFor` matches). */
function start(cmd: string, args: readonly string[], waitFor: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: pkg, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} did not start within 60 s:\n${out}`));
    }, 60_000);
    const seen = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = waitFor.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited (${String(code)}) before it listened:\n${out}`));
    });
  });
}

/** Stops a runtime's process and waits for it to go. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

describe('the router adapter on every runtime', () => {
  it('Node: router.fetch behind @hono/node-server', async () => {
    const app = await createApp();
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const { port } = server.address() as { port: number };
      expect(await runChecks(`http://127.0.0.1:${port}`)).toEqual(EXPECTED);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 120_000);

  it('Bun: Bun.serve', async () => {
    const { child, match } = await start(bin('bun'), [`${here}bun-server.ts`], /listening (\d+)/);
    try {
      expect(await runChecks(`http://127.0.0.1:${match[1]}`)).toEqual(EXPECTED);
    } finally {
      await stop(child);
    }
  }, 120_000);

  it('Deno: Deno.serve', async () => {
    const { child, match } = await start(bin('deno'), ['run', '--allow-net', '--allow-read', '--allow-env', '--unstable-sloppy-imports', `${here}deno-server.ts`], /listening (\d+)/);
    try {
      expect(await runChecks(`http://127.0.0.1:${match[1]}`)).toEqual(EXPECTED);
    } finally {
      await stop(child);
    }
  }, 120_000);

  it('workerd (Cloudflare Workers): a Worker module, bundled by esbuild, without nodejs_compat', async () => {
    const work = `${pkg}.work/`;
    mkdirSync(work, { recursive: true });
    await build({
      entryPoints: [`${here}worker.ts`],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      outfile: `${work}worker.js`,
      logLevel: 'error',
    });
    const port = await freePort();
    writeFileSync(
      `${work}config.capnp`,
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .smoke)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const smoke :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
);
`,
    );
    const child = spawn(bin('workerd'), ['serve', `${work}config.capnp`], { cwd: pkg, stdio: 'ignore' });
    try {
      // workerd says nothing when it listens: wait until it answers.
      const until = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode})`);
        const up = await fetch(`http://127.0.0.1:${port}/openapi.json`).then((r) => r.ok, () => false);
        if (up) break;
        if (Date.now() > until) throw new Error('workerd did not answer within 60 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await runChecks(`http://127.0.0.1:${port}`)).toEqual(EXPECTED);
    } finally {
      await stop(child);
    }
  }, 180_000);
});
