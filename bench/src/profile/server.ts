/**
 * Profiles one benchmark server under load, by hand: the server runs in its own process with
 * `--cpu-prof` (or a GC trace, or an allocation sampler), autocannon loads it from this one.
 *
 *   tsx --conditions=lib-source src/profile/server.ts lib get 6 /tmp/prof     # CPU profile into /tmp/prof
 *   node src/profile/top.mjs /tmp/prof/*.cpuprofile                          # self time by function and file
 *   GCTRACE=1 tsx src/profile/server.ts libHono post 4 /tmp/prof              # --trace-gc lines instead
 *   HEAP=/tmp/prof/heap.json tsx src/profile/server.ts lib get 4 /tmp/prof   # allocation sampling (collected objects too)
 *   node src/profile/heap.mjs /tmp/prof/heap.json                            # bytes allocated by function
 *
 * Kinds as in `src/http/shared.ts` (`lib`, `libHono`, `raw`, `fastify`, `hono`, `express`);
 * cases `get`, `post`, `invalid`, `list`. Without `--conditions=lib-source`, @lib runs from dist/.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { GET_HEADERS, INVALID_BODY, POST_BODY, POST_HEADERS, SEED_ID, type ChildMessage } from '../http/shared.js';

const [kind = 'lib', what = 'get', secs = '5', dir = '/tmp/prof'] = process.argv.slice(2);
const cases: Record<string, { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }> = {
  get: { method: 'GET', path: `/users/${SEED_ID}`, headers: GET_HEADERS },
  list: { method: 'GET', path: '/users', headers: GET_HEADERS },
  post: { method: 'POST', path: '/users', headers: POST_HEADERS, body: POST_BODY },
  invalid: { method: 'POST', path: '/users', headers: POST_HEADERS, body: INVALID_BODY },
};
const c = cases[what];
if (c === undefined) throw new Error(`unknown case ${what}: ${Object.keys(cases).join(', ')}`);
const flags =
  process.env.GCTRACE !== undefined ? ['--trace-gc']
  : process.env.HEAP !== undefined ? ['--import', fileURLToPath(new URL('./heap-sample.mjs', import.meta.url))]
  : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
const child = fork(fileURLToPath(new URL('../http/child.ts', import.meta.url)), [kind], { execArgv: [...process.execArgv, ...flags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((resolve, reject) => {
  child.once('message', (m: ChildMessage) => (m.type === 'ready' ? resolve(m.port) : reject(new Error(JSON.stringify(m)))));
});
const url = `http://127.0.0.1:${port}${c.path}`;
const options = { url, connections: 10, method: c.method, headers: c.headers, ...(c.body !== undefined && { body: c.body }) };
await autocannon({ ...options, duration: 1 });
const r = await autocannon({ ...options, duration: Number(secs) });
console.log(`${kind} ${what}: ${Math.round(r.requests.average)} req/s, ${r.non2xx} non-2xx (unpinned, profiler on: compare runs of this script only)`);
child.send({ type: 'stop' });
await new Promise((resolve) => child.once('exit', resolve));
