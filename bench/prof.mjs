// usage: node prof.mjs KIND get|post|invalid|list SECONDS OUTDIR
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { POST_BODY, POST_HEADERS, GET_HEADERS, INVALID_BODY, SEED_ID } from './src/http/shared.ts';
const [kind, what, secs, dir] = process.argv.slice(2);
const child = fork(new URL('./src/http/child.ts', import.meta.url).pathname, [kind], { execArgv: ['--import', 'tsx', ...(process.env.GCTRACE ? ['--trace-gc', ...(process.env.GCX ? [process.env.GCX] : [])] : process.env.HEAP ? ['--import', '/tmp/heapsample.mjs'] : ['--cpu-prof', `--cpu-prof-dir=${dir}`])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise((r) => child.once('message', (m) => r(m.port)));
const opts = { get: { method: 'GET', path: `/users/${SEED_ID}`, headers: GET_HEADERS }, list: { method: 'GET', path: '/users', headers: GET_HEADERS }, post: { method: 'POST', path: '/users', headers: POST_HEADERS, body: POST_BODY }, invalid: { method: 'POST', path: '/users', headers: POST_HEADERS, body: INVALID_BODY } }[what];
const url = `http://127.0.0.1:${port}${opts.path}`;
await autocannon({ url, connections: 10, duration: 1, ...opts });
const r = await autocannon({ url, connections: 10, duration: +secs, ...opts });
console.log(kind, what, 'req/s', r.requests.average, 'non2xx', r.non2xx, '2xx', r['2xx']);
child.send({ type: 'stop' });
await new Promise((r) => child.once('exit', r));
