/**
 * Client benchmark: the cost @lib's client adds over the transport it runs on. A server (raw
 * node:http, in its own process) answers `GET /users/:id`; this process calls it one request at a
 * time over keep-alive with `fetch` + `res.json()`, `undici.request` + `body.json()`, and
 * `client.call(getUser, { id })` of @lib/rest (decoding and validating the response) on each of
 * @lib/node-http's client transports: `fetch` (`newClientTransport`) and undici
 * (`newUndiciClientTransport`). Reports calls/s and this process's CPU time
 * per call, in interleaved rounds (median, spread).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { Agent, request } from 'undici';
import { GET_HEADERS, SEED_ID, type ChildMessage } from './http/shared.js';
import { atLeast, atMost, int, mdTable, ratio, type Target } from './util.js';

const childPath = fileURLToPath(new URL('./http/child.ts', import.meta.url));

const user = codec.object({
  id: codec.string().refine(validate.uuid),
  name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
  email: codec.string().refine(validate.email),
  createdAt: codec.time(),
});
const getUser = rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: codec.string().refine(validate.uuid) }, response: user });

type Caller = () => Promise<unknown>;

/** The upload rows: 5 MiB of bytes as a raw body (`format.binary`), answered `{ bytes }`. */
const UPLOAD_BYTES = 5 * 1024 * 1024;
const upload = codec.bytes().refine(validate.maxBytes(UPLOAD_BYTES));
const putUpload = rest.route({
  method: 'PUT',
  path: '/uploads',
  body: upload,
  requestFormats: [format.binary(upload)],
  response: codec.object({ bytes: codec.int() }),
});

/** `fetch` of 5 MiB against `client.call` of the same bytes, on each transport. */
function uploadCallers(base: string): Record<string, Caller> {
  const body = new Uint8Array(UPLOAD_BYTES).fill(7);
  const client = rest.newClient();
  client.attach(nodeHttp.newClientTransport({ baseURL: base }));
  const onUndici = rest.newClient();
  onUndici.attach(nodeHttp.newUndiciClientTransport({ baseURL: base, dispatcher: new Agent({ connections: 1 }) }));
  const check = (r: { bytes: number }): void => {
    if (r.bytes !== UPLOAD_BYTES) throw new Error(`upload: ${r.bytes} bytes arrived`);
  };
  return {
    'fetch PUT 5 MiB + res.json()': async () => {
      const res = await fetch(`${base}/uploads`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body });
      if (res.status !== 200) throw new Error(`fetch: ${res.status}`);
      check((await res.json()) as { bytes: number });
    },
    '@lib/rest client.call, 5 MiB body (on fetch)': async () => check(await client.call(putUpload, { body })),
    '@lib/rest client.call, 5 MiB body (on undici)': async () => check(await onUndici.call(putUpload, { body })),
  };
}

function callers(base: string): Record<string, Caller> {
  const url = `${base}/users/${SEED_ID}`;
  const dispatcher = new Agent({ connections: 1 });
  const client = rest.newClient();
  client.attach(nodeHttp.newClientTransport({ baseURL: base }));
  const onUndici = rest.newClient();
  onUndici.attach(nodeHttp.newUndiciClientTransport({ baseURL: base, dispatcher: new Agent({ connections: 1 }) }));
  return {
    'fetch + res.json()': async () => {
      const res = await fetch(url, { headers: GET_HEADERS });
      if (res.status !== 200) throw new Error(`fetch: ${res.status}`);
      return res.json();
    },
    'undici.request + body.json()': async () => {
      const res = await request(url, { headers: GET_HEADERS, dispatcher });
      if (res.statusCode !== 200) throw new Error(`undici: ${res.statusCode}`);
      return res.body.json();
    },
    '@lib/rest client.call (on fetch, decodes and validates)': () => client.call(getUser, { id: SEED_ID }),
    '@lib/rest client.call (on undici: newUndiciClientTransport)': () => onUndici.call(getUser, { id: SEED_ID }),
  };
}

/** Each caller measured after a warm-up, in `rounds` interleaved rounds of `time` ms: its figures by name. */
async function measureRounds(all: Record<string, Caller>, rounds: number, time: number, log: (s: string) => void, what: string): Promise<Map<string, { rate: number; cpu: number }[]>> {
  for (const call of Object.values(all)) await measure(call, 300);
  const got = new Map<string, { rate: number; cpu: number }[]>();
  for (let r = 1; r <= rounds; r++) {
    for (const [name, call] of Object.entries(all)) got.set(name, [...(got.get(name) ?? []), await measure(call, time)]);
    log(`  ${what} round ${r}/${rounds} done`);
  }
  return got;
}

async function measure(call: Caller, ms: number): Promise<{ rate: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) {
    await call();
    n++;
  }
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { rate: n / seconds, cpu: (c.user + c.system) / n };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
}

export async function runClientBench(options: { rounds?: number; time?: number } = {}, log: (s: string) => void = () => undefined): Promise<{ markdown: string; targets: readonly Target[] }> {
  const rounds = options.rounds ?? 5;
  const time = options.time ?? 1000;
  const server = fork(childPath, ['raw'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const ready = await new Promise<ChildMessage>((resolve) => server.once('message', resolve));
    if (ready.type !== 'ready') throw new Error(`server: ${ready.type}`);
    const got = await measureRounds(callers(`http://127.0.0.1:${ready.port}`), rounds, time, log, 'client');
    const fetchCpu = median((got.get('fetch + res.json()') ?? []).map((m) => m.cpu));
    const fetchRate = median((got.get('fetch + res.json()') ?? []).map((m) => m.rate));
    const rows = [...got].map(([name, ms]) => {
      const rate = median(ms.map((m) => m.rate));
      const cpu = median(ms.map((m) => m.cpu));
      const rates = ms.map((m) => m.rate);
      return [name, int(rate), ((100 * (Math.max(...rates) - Math.min(...rates))) / rate).toFixed(0), ratio(rate, fetchRate), cpu.toFixed(0), ratio(cpu, fetchCpu)];
    });
    const headers = ['client', 'calls/s (median)', 'spread %', '÷ fetch (calls/s)', 'client CPU µs/call', '÷ fetch (CPU)'];
    const of = (name: string, pick: (m: { rate: number; cpu: number }) => number): number => median((got.get(name) ?? []).map(pick));
    const onUndici = '@lib/rest client.call (on undici: newUndiciClientTransport)';
    const bare = 'undici.request + body.json()';
    const targets: Target[] = [
      atLeast('client.call on undici ÷ fetch + res.json() (calls/s)', of(onUndici, (m) => m.rate) / fetchRate, 1.8),
      atMost('client.call on undici ÷ bare undici.request + body.json() (CPU per call)', of(onUndici, (m) => m.cpu) / of(bare, (m) => m.cpu), 1.3),
    ];
    // Uploads: the same bytes through plain fetch and through client.call (checked, then sent as bytes).
    const up = await measureRounds(uploadCallers(`http://127.0.0.1:${ready.port}`), rounds, time, log, 'upload');
    const upOf = (name: string, pick: (m: { rate: number; cpu: number }) => number): number => median((up.get(name) ?? []).map(pick));
    const plainUpload = 'fetch PUT 5 MiB + res.json()';
    const uploadRows = [...up].map(([name]) => [name, upOf(name, (m) => m.rate).toFixed(1), (upOf(name, (m) => m.cpu) / 1000).toFixed(1), ratio(upOf(name, (m) => m.cpu), upOf(plainUpload, (m) => m.cpu))]);
    targets.push(atMost('client.call of a 5 MiB body on fetch ÷ fetch of the same bytes (CPU per call)', upOf('@lib/rest client.call, 5 MiB body (on fetch)', (m) => m.cpu) / upOf(plainUpload, (m) => m.cpu), 1.2));
    const uploadTable = mdTable(['upload', 'calls/s (median)', 'client CPU ms/call', '÷ fetch (CPU)'], uploadRows);
    const notes = [
      `One call at a time over keep-alive to a raw node:http server in another process; ${rounds} interleaved rounds of ${time} ms after a warm-up. CPU is this process's \`process.cpuUsage()\` per call. \`÷ fetch\`: the row ÷ \`fetch + res.json()\` (the transport @lib's client runs on).`,
    ];
    notes.push('Uploads: 5 MiB of bytes per call to the same server, which reads and drops the body; `client.call` checks the body against its codec (`validate.maxBytes`) and sends the bytes as they are.');
    return { markdown: `${mdTable(headers, rows)}\n\n${uploadTable}\n\n${notes.map((n) => `- ${n}`).join('\n')}`, targets };
  } finally {
    server.kill();
  }
}
