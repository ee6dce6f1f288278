/**
 * Startup benchmark: how long each server takes from its declarations to answering, for 1, 100
 * and 1000 routes. Each measurement is a fresh process (`startup/child.ts`); the table gives the
 * median of the runs and, for information, the time since the process started (module loading
 * included; every process carries tsx's loader, so compare servers with each other).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_LABELS, STARTUP_KINDS, type StartupKind } from './http/shared.js';
import { atMost, mdTable, ratio, type Target } from './util.js';

const childPath = fileURLToPath(new URL('./startup/child.ts', import.meta.url));

export interface StartupOptions {
  /** Route counts. Default 1, 100, 1000. */
  readonly sizes?: readonly number[];
  /** Fresh processes per server and size. Default 5. */
  readonly runs?: number;
}

interface Sample {
  readonly ready: number;
  readonly sinceStart: number;
}

function once(kind: StartupKind, routes: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const child = fork(childPath, [kind, String(routes)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let got: Sample | undefined;
    child.on('message', (m: { ok: true; ready: number; sinceStart: number } | { ok: false; message: string }) => {
      if (m.ok) got = { ready: m.ready, sinceStart: m.sinceStart };
      else reject(new Error(m.message));
    });
    child.on('exit', (code) => (got !== undefined ? resolve(got) : reject(new Error(`${kind} ${routes}: exited with ${code}`))));
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
}

export async function runStartupBench(options: StartupOptions = {}, log: (s: string) => void = () => undefined): Promise<{ markdown: string; targets: readonly Target[] }> {
  const sizes = options.sizes ?? [1, 100, 1000];
  const runs = options.runs ?? 5;
  const samples = new Map<string, Sample[]>();
  // Interleaved: every server and size once per run, so drift spreads over all of them.
  for (let run = 1; run <= runs; run++) {
    for (const n of sizes) {
      for (const kind of STARTUP_KINDS) {
        const key = `${kind} ${n}`;
        const list = samples.get(key) ?? [];
        list.push(await once(kind, n));
        samples.set(key, list);
      }
    }
    log(`  startup run ${run}/${runs} done`);
  }
  const ready = (kind: StartupKind, n: number): number => median((samples.get(`${kind} ${n}`) as Sample[]).map((s) => s.ready));
  const since = (kind: StartupKind, n: number): number => median((samples.get(`${kind} ${n}`) as Sample[]).map((s) => s.sinceStart));
  const rows = STARTUP_KINDS.map((kind) => [
    SERVER_LABELS[kind],
    ...sizes.flatMap((n) => [ready(kind, n).toFixed(1), kind.startsWith('lib') ? '' : ratio(ready(kind, n), ready('lib', n)), since(kind, n).toFixed(0)]),
  ]);
  const most = Math.max(...sizes);
  const peers = STARTUP_KINDS.filter((k) => !k.startsWith('lib'));
  const fastest = peers.reduce((a, b) => (ready(b, most) < ready(a, most) ? b : a));
  const targets = [
    atMost(`${most} routes ready: @lib on node:http ÷ the fastest peer (${SERVER_LABELS[fastest]}) (ms)`, ready('lib', most) / ready(fastest, most), 1),
    atMost(`${most} routes ready: @lib on the router adapter ÷ bare hono (ms)`, ready('libHono', most) / ready('hono', most), 1),
  ];
  const headers = ['server', ...sizes.flatMap((n) => [`${n} route${n === 1 ? '' : 's'}: ready ms`, '@lib ÷ peer', 'since process start ms'])];
  const notes = [
    `ready: from the first declaration to the first answer of the last route (routes declared, registered, compiled where the library compiles, server listening, one request answered), median of ${runs} fresh processes. \`@lib ÷ peer\` above 1: @lib is ready sooner than the peer (peer's time ÷ @lib's on node:http).`,
    'since process start: the same instant, from the process start (module loading through tsx included).',
    'Each route: `GET /r{i}/users/{id}` with a uuid path parameter and a validated JSON response of three fields.',
  ];
  return { markdown: `${mdTable(headers, rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}`, targets };
}
