/**
 * Where a client call's CPU time goes, by hand: in one process, one call at a time against the
 * raw server, rounds of `fetch` variants, the fetch transport alone, and `client.call`
 * (median CPU µs per call of 5 rounds). Add `--cpu-prof` to profile.
 *
 *   tsx --conditions=lib-source src/profile/client.ts
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { GET_HEADERS, SEED_ID, type ChildMessage } from '../http/shared.js';
const child = fork(fileURLToPath(new URL('../http/child.ts', import.meta.url)), ['raw'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((r) => child.once('message', (m: ChildMessage) => r(m.type === 'ready' ? m.port : NaN)));
const base = `http://127.0.0.1:${port}`;
const url = `${base}/users/${SEED_ID}`;
const user = codec.object({ id: codec.string().refine(validate.uuid), name: codec.string().refine(validate.minLength(1), validate.maxLength(100)), email: codec.string().refine(validate.email), createdAt: codec.time() });
const getUser = rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: codec.string().refine(validate.uuid) }, response: user });
const transport = nodeHttp.newClientTransport({ baseURL: base });
const client = rest.newClient();
client.attach(transport);
const td = new TextDecoder();
const userJson = format.json(user);
const variants: Record<string, () => Promise<unknown>> = {
  'fetch+json': async () => (await fetch(url, { headers: GET_HEADERS })).json(),
  'fetch manual+arr+ab': async () => {
    const r = await fetch(url, { method: 'GET', headers: [['accept', 'application/json']], redirect: 'manual' });
    return JSON.parse(td.decode(new Uint8Array(await r.arrayBuffer())));
  },
  'fetch manual+json': async () => (await fetch(url, { method: 'GET', headers: [['accept', 'application/json']], redirect: 'manual' })).json(),
  'transport.exchange': () => transport.exchange({ method: 'GET', path: `/users/${SEED_ID}`, query: [], headers: [['accept', 'application/json']], body: undefined, signal: undefined }),
  // What client.call cannot avoid: the transport's exchange and the response decoded and validated.
  'exchange+decode': async () => userJson.unmarshal((await transport.exchange({ method: 'GET', path: `/users/${SEED_ID}`, query: [], headers: [['accept', 'application/json']], body: undefined, signal: undefined })).body),
  'client.call': () => client.call(getUser, { id: SEED_ID }),
};
// VARIANTS=client.call,exchange+decode runs only those.
const only = process.env.VARIANTS?.split(',');
if (only !== undefined) for (const k of Object.keys(variants)) if (!only.includes(k)) delete variants[k];
const res: Record<string, number[]> = {};
const ROUNDS = Number(process.env.ROUNDS ?? 6);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(variants)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 700) {
      await fn();
      n++;
    }
    const c = process.cpuUsage(c0);
    if (round > 0) (res[name] ??= []).push((c.user + c.system) / n);
  }
}
for (const [k, v] of Object.entries(res)) {
  v.sort((a, b) => a - b);
  console.log(k.padEnd(22), 'median CPU µs/call', (v[Math.floor(v.length / 2)] as number).toFixed(0), '  rounds:', v.map((x) => x.toFixed(0)).join(' '));
}
child.send({ type: 'stop' });
