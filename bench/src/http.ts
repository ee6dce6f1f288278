/**
 * HTTP benchmark: the same endpoints served by @lib/rest on @lib/node-http and on
 * @lib/router-adapter, raw node:http (the ceiling), fastify + TypeBox, hono + zod and express +
 * zod, each in its own child process on 127.0.0.1 port 0, loaded from this process with
 * autocannon (bounded: a warm-up, then a fixed measured time per case split into interleaved
 * rounds; loopback only). Where the machine has two cores or more and `taskset` exists, the
 * servers run on one core and autocannon on another. Reports requests/s (median of the rounds,
 * with their spread), latency (mean, p50, p99), the server's CPU time per request, the ratios
 * @lib ÷ peer, and each server's memory after the run (sent back over IPC).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  GET_HEADERS,
  INVALID_BODY,
  LIST,
  POST_BODY,
  POST_HEADERS,
  SEED_ID,
  SERVER_KINDS,
  SERVER_LABELS,
  type ChildMessage,
  type ParentMessage,
  type ServerKind,
} from './http/shared.js';
import { atLeast, atMost, int, mdTable, mib, ratio, type Target } from './util.js';

export interface HttpOptions {
  /** Concurrent connections (keep-alive). Default 10. */
  readonly connections?: number;
  /** Measured seconds per case, over all rounds. Default 5. */
  readonly duration?: number;
  /** Warm-up seconds per case, not measured. Default 1. */
  readonly warmup?: number;
  /** Interleaved rounds the measured seconds are split into. Default 2. */
  readonly rounds?: number;
}

interface Endpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly status: number;
}

const ENDPOINTS: readonly Endpoint[] = [
  { name: 'POST /users', method: 'POST', path: '/users', headers: POST_HEADERS, body: POST_BODY, status: 201 },
  { name: 'POST /users, invalid body (400)', method: 'POST', path: '/users', headers: POST_HEADERS, body: INVALID_BODY, status: 400 },
  { name: 'GET /users/:id', method: 'GET', path: `/users/${SEED_ID}`, headers: GET_HEADERS, status: 200 },
  { name: 'GET /users (a list of 200)', method: 'GET', path: '/users', headers: GET_HEADERS, status: 200 },
];

/** The cores servers and load generator are pinned to (`taskset`), when the machine allows. */
const PIN: { readonly load: string; readonly server: string } | undefined = (() => {
  if (os.cpus().length < 2 || process.platform !== 'linux') return undefined;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return { load: '0', server: String(os.cpus().length - 1) };
  } catch {
    return undefined;
  }
})();

function pin(pid: number, cores: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

interface CaseResult {
  /** Median requests/s over the rounds. */
  readonly rps: number;
  /** (fastest − slowest round) ÷ median, percent. */
  readonly spread: number;
  /** Latencies in milliseconds, from every response's own time. */
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly requests: number;
  /** Server CPU time (user + system) per completed request, microseconds. */
  readonly cpuPerRequest: number;
}

interface ServerResult {
  readonly kind: ServerKind;
  readonly cases: Map<string, CaseResult>;
  readonly idle: Usage;
  readonly after: Usage;
  readonly heapAfterGc: number;
}

type Usage = Extract<ChildMessage, { type: 'usage' }>;

const childPath = fileURLToPath(new URL('./http/child.ts', import.meta.url));

class Child {
  readonly proc: ChildProcess;
  readonly #waiting: ((m: ChildMessage) => void)[] = [];
  constructor(kind: ServerKind) {
    // The child inherits this process's exec arguments (tsx's loader, and `--conditions=lib-source` unless `--dist`).
    this.proc = fork(childPath, [kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, '--expose-gc'] });
    if (PIN !== undefined && this.proc.pid !== undefined) pin(this.proc.pid, PIN.server);
    this.proc.on('message', (m: ChildMessage) => this.#waiting.shift()?.(m));
  }
  next(): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`server process exited (${code})`));
      this.proc.once('exit', onExit);
      this.#waiting.push((m) => {
        this.proc.off('exit', onExit);
        resolve(m);
      });
    });
  }
  async ask(m: ParentMessage): Promise<ChildMessage> {
    const reply = this.next();
    this.proc.send(m);
    return reply;
  }
  async usage(gc = false): Promise<Usage> {
    const m = await this.ask({ type: 'usage', gc });
    if (m.type !== 'usage') throw new Error(`expected usage, got ${m.type}`);
    return m;
  }
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.send({ type: 'stop' } satisfies ParentMessage);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** Checks that the server answers as declared before loading it: the two endpoints and a 400 for an invalid body. */
async function verify(base: string): Promise<void> {
  const post = await fetch(`${base}/users`, { method: 'POST', headers: POST_HEADERS, body: POST_BODY });
  const created = (await post.json()) as Record<string, unknown>;
  if (post.status !== 201 || typeof created.id !== 'string' || created.name !== 'Ada Lovelace' || typeof created.createdAt !== 'string') {
    throw new Error(`POST /users answered ${post.status} ${JSON.stringify(created)}`);
  }
  const list = await fetch(`${base}/users`, { headers: GET_HEADERS });
  const listed = await list.text();
  if (list.status !== 200 || listed !== JSON.stringify(LIST)) throw new Error(`GET /users answered ${list.status} ${listed.slice(0, 200)}`);
  const get = await fetch(`${base}/users/${SEED_ID}`, { headers: GET_HEADERS });
  const got = await get.text();
  const want = JSON.stringify({ id: SEED_ID, name: 'Ada Lovelace', email: 'ada@example.com', createdAt: '2024-02-29T12:00:00.000Z' });
  if (get.status !== 200 || got !== want) throw new Error(`GET /users/:id answered ${get.status} ${got}`);
  const bad = await fetch(`${base}/users`, { method: 'POST', headers: POST_HEADERS, body: INVALID_BODY });
  await bad.arrayBuffer();
  if (bad.status !== 400) throw new Error(`an invalid body answered ${bad.status}`);
  const badId = await fetch(`${base}/users/not-a-uuid`, { headers: GET_HEADERS });
  await badId.arrayBuffer();
  if (badId.status !== 400) throw new Error(`an invalid id answered ${badId.status}`);
}

interface Loaded {
  readonly result: autocannon.Result;
  /** Every response time in milliseconds (autocannon's own histogram keeps whole milliseconds only). */
  readonly latencies: Float64Array;
}

async function load(base: string, e: Endpoint, connections: number, duration: number): Promise<Loaded> {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${base}${e.path}`, method: e.method, headers: e.headers, ...(e.body !== undefined && { body: e.body }), connections, duration },
      (err: unknown, r: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      if (n === times.length) {
        const grown = new Float64Array(times.length * 2);
        grown.set(times);
        times = grown;
      }
      times[n++] = responseTime;
    });
  });
  return { result, latencies: times.slice(0, n) };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (const x of values) sum += x;
  return sum / values.length;
}

/** What one server and endpoint gathered over the rounds. */
class Tally {
  requests = 0;
  seconds = 0;
  cpu = 0;
  /** Requests/s of each round. */
  readonly rates: number[] = [];
  readonly latencies: Float64Array[] = [];
  result(): CaseResult {
    const all = new Float64Array(this.latencies.reduce((n, l) => n + l.length, 0));
    let at = 0;
    for (const l of this.latencies) {
      all.set(l, at);
      at += l.length;
    }
    all.sort();
    const rates = [...this.rates].sort((a, b) => a - b);
    const median = rates.length % 2 === 1 ? (rates[(rates.length - 1) / 2] as number) : ((rates[rates.length / 2 - 1] as number) + (rates[rates.length / 2] as number)) / 2;
    return {
      rps: median,
      spread: (100 * ((rates[rates.length - 1] as number) - (rates[0] as number))) / median,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      mean: mean(all),
      requests: this.requests,
      cpuPerRequest: this.cpu / this.requests,
    };
  }
}

interface Running {
  readonly kind: ServerKind;
  readonly child: Child;
  readonly base: string;
  readonly idle: Usage;
  readonly tallies: Map<string, Tally>;
}

async function startServer(kind: ServerKind): Promise<Running> {
  const child = new Child(kind);
  const ready = await child.next();
  if (ready.type !== 'ready') throw new Error(`${kind}: ${ready.type === 'error' ? ready.message : ready.type}`);
  const base = `http://127.0.0.1:${ready.port}`;
  await verify(base);
  return { kind, child, base, idle: await child.usage(), tallies: new Map(ENDPOINTS.map((e) => [e.name, new Tally()])) };
}

/** One measured slice: `seconds` of load on one server and endpoint, with the server's CPU time around it. */
async function slice(s: Running, e: Endpoint, connections: number, seconds: number): Promise<void> {
  const before = await s.child.usage();
  const { result: r, latencies } = await load(s.base, e, connections, seconds);
  const after = await s.child.usage();
  const ok = (r as unknown as Record<string, number>)[`${Math.floor(e.status / 100)}xx`] ?? 0;
  if (r.errors > 0 || r.timeouts > 0 || ok !== r.requests.total || ok === 0) {
    throw new Error(`${s.kind} ${e.name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.requests.total - ok} not ${Math.floor(e.status / 100)}xx`);
  }
  const t = s.tallies.get(e.name) as Tally;
  t.rates.push(r.requests.total / r.duration);
  t.requests += r.requests.total;
  t.seconds += r.duration;
  t.cpu += after.cpu - before.cpu;
  t.latencies.push(latencies);
}

/**
 * The servers to run: all of them, or those named in `BENCH_SERVERS` (comma-separated kinds, for
 * a quick look while working on one adapter; `lib` always runs, the ratios are against it).
 */
function serverKinds(): readonly ServerKind[] {
  const named = process.env.BENCH_SERVERS?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (named === undefined || named.length === 0) return SERVER_KINDS;
  const unknown = named.filter((n) => !(SERVER_KINDS as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`BENCH_SERVERS: unknown server ${unknown.join(', ')} (known: ${SERVER_KINDS.join(', ')})`);
  return SERVER_KINDS.filter((k) => k === 'lib' || named.includes(k));
}

export interface HttpReport {
  readonly markdown: string;
  /** The HTTP targets against fastify, as ratios of this run. */
  readonly targets: readonly Target[];
}

/**
 * Runs the HTTP benchmark; `log` receives progress lines. Every server is started (each in its
 * own process) and checked, warmed up, then measured in interleaved rounds — each endpoint on
 * each server for `duration / rounds` seconds, round after round — so that a drift of the
 * machine's speed spreads over all servers instead of falling on one.
 */
export async function runHttpBench(options: HttpOptions = {}, log: (s: string) => void = () => undefined): Promise<HttpReport> {
  const connections = options.connections ?? 10;
  const duration = options.duration ?? 5;
  const warmup = options.warmup ?? 1;
  const rounds = options.rounds ?? 3;
  if (PIN !== undefined) pin(process.pid, PIN.load);
  const running: Running[] = [];
  const results: ServerResult[] = [];
  try {
    for (const kind of serverKinds()) running.push(await startServer(kind));
    for (const s of running) for (const e of ENDPOINTS) if (warmup > 0) await load(s.base, e, connections, warmup);
    log(`  servers started, checked and warmed up`);
    for (let round = 1; round <= rounds; round++) {
      for (const e of ENDPOINTS) for (const s of running) await slice(s, e, connections, duration / rounds);
      log(`  HTTP round ${round}/${rounds} done`);
    }
    for (const s of running) {
      const after = await s.child.usage();
      const afterGc = await s.child.usage(true);
      const cases = new Map([...s.tallies].map(([name, t]) => [name, t.result()]));
      results.push({ kind: s.kind, cases, idle: s.idle, after, heapAfterGc: afterGc.heapAfterGc ?? NaN });
    }
  } finally {
    await Promise.all(running.map((s) => s.child.stop()));
  }

  const ours = results.find((r) => r.kind === 'lib') as ServerResult;
  const sections = ENDPOINTS.map((e) => {
    const base = ours.cases.get(e.name) as CaseResult;
    const rows = results.map((r) => {
      const c = r.cases.get(e.name) as CaseResult;
      return [
        SERVER_LABELS[r.kind],
        int(c.rps),
        c.spread.toFixed(0),
        r.kind === 'lib' ? '' : ratio(base.rps, c.rps),
        c.mean.toFixed(2),
        c.p50.toFixed(2),
        c.p99.toFixed(2),
        c.cpuPerRequest.toFixed(0),
        r.kind === 'lib' ? '' : ratio(base.cpuPerRequest, c.cpuPerRequest),
      ];
    });
    const headers = ['server', 'req/s (median)', 'spread %', '@lib ÷ peer', 'mean ms', 'p50 ms', 'p99 ms', 'server CPU µs/req', '@lib ÷ peer (CPU/req)'];
    return `#### ${e.name}\n\n${mdTable(headers, rows)}`;
  });
  const fastify = results.find((r) => r.kind === 'fastify');
  const vsFastify = (name: string, pick: (c: CaseResult) => number): number => {
    const theirs = fastify?.cases.get(name);
    const mine = ours.cases.get(name);
    return theirs === undefined || mine === undefined ? NaN : pick(mine) / pick(theirs);
  };
  const LIST = 'GET /users (a list of 200)';
  const targets = [
    atLeast(`HTTP ${LIST}: @lib ÷ fastify (req/s)`, vsFastify(LIST, (c) => c.rps), 1),
    atMost(`HTTP ${LIST}: @lib ÷ fastify (server CPU per request)`, vsFastify(LIST, (c) => c.cpuPerRequest), 1),
    atMost('HTTP POST /users: @lib ÷ fastify (server CPU per request)', vsFastify('POST /users', (c) => c.cpuPerRequest), 1),
    atMost('HTTP GET /users/:id: @lib ÷ fastify (server CPU per request)', vsFastify('GET /users/:id', (c) => c.cpuPerRequest), 1),
  ];
  const memRows = results.map((r) => [
    SERVER_LABELS[r.kind],
    mib(r.idle.rss),
    mib(r.after.rss),
    mib(r.after.maxRss),
    mib(r.after.heapUsed),
    mib(r.heapAfterGc),
  ]);
  const memHeaders = ['server', 'RSS idle', 'RSS after load', 'peak RSS', 'heap used after load', 'heap after full GC'];
  sections.push(`#### server memory (MiB)\n\n${mdTable(memHeaders, memRows)}`);
  const notes = [
    `${connections} keep-alive connections; ${warmup} s warm-up, then ${duration} s measured per case in ${rounds} interleaved rounds (every server, then every server again); autocannon in the parent process, each server in its own child process, 127.0.0.1 only. ${PIN === undefined ? 'Not pinned to cores (one core, or no `taskset`).' : `Pinned with \`taskset\`: the servers on core ${PIN.server}, autocannon on core ${PIN.load}.`} req/s is the median of the rounds; spread is (fastest − slowest round) ÷ median.`,
    "`@lib ÷ peer` of req/s: above 1, @lib serves more. Latencies are every response's time as autocannon reports it in its `response` event (its own summary rounds to whole milliseconds).",
    "Server CPU: the server process's `process.cpuUsage()` (user + system) over the measured run ÷ requests completed; `@lib ÷ peer (CPU/req)` above 1 means @lib spends more CPU per request. It is the steadier figure where the load generator shares the cores.",
    "Memory: `process.memoryUsage()` in the server process after both cases (peak: `resourceUsage().maxRSS`; the last column after `gc()`, what the server retains). Every server process also carries tsx's loader, so compare the servers with each other, not with a bare `node`.",
  ];
  return { markdown: `${sections.join('\n\n')}\n\n${notes.map((l) => `- ${l}`).join('\n')}`, targets };
}

// `tsx --conditions=lib-source src/http.ts` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runHttpBench({}, (s) => console.error(s))).markdown);
}
