/**
 * A smoke subset of the conformance suite for runtimes other than Node: one declaration served by
 * `@lib/router-adapter`'s `router.fetch` on the runtime's own server (`Bun.serve` under Bun),
 * called over real HTTP with `fetch` and the typed client. Prints one JSON line of results;
 * `router-adapter.runtime.test.ts` runs it with Bun and checks them.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import * as hono from '@lib/router-adapter';
import * as validate from '@lib/validate';
import { ndjson, row, rows } from './ndjson-rows.js';

const user = codec.object({ id: codec.string(), name: codec.string().refine(validate.minLength(1)) });
const newUser = codec.object({ name: codec.string().refine(validate.minLength(1)) });
class Missing extends Error {}
const getUser = rest.newRoute(
  'GET',
  '/users/{id}',
  codec.empty<{ id: string }>(),
  user,
  rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
    r.id = v;
  }),
  rest.formats(format.json(user), format.yaml(user)),
  rest.errorPattern(Missing, 404, codec.object({ error: codec.string() }), () => ({ error: 'no such user' })),
);
const createUser = rest.newRoute('POST', '/users', newUser, user);
const exportRows = rest.newRoute('GET', '/rows', codec.empty<object>(), rows, rest.formats(ndjson));
const ticks = rest.newSSERoute('GET', '/ticks', codec.empty<object>(), row);

const api = rest.newServer({ title: 'smoke', version: '1' });
getUser
  .withHandler((_ctx, r) => {
    if (r.id !== 'ada') throw new Missing();
    return { id: 'ada', name: 'Ada' };
  })
  .register(api);
createUser.withHandler((_ctx, r) => ({ id: 'new', name: r.name })).register(api);
exportRows
  .withHandler(async function* () {
    for (let n = 0; n < 1000; n++) yield { n };
  })
  .register(api);
ticks
  .withHandler(async function* () {
    for (let n = 0; n < 3; n++) yield { data: { n }, id: String(n) };
  })
  .register(api);
const transport = hono.newServerTransport();
api.attach(transport);
await api.serve({});

const runtime = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' ? 'bun' : typeof (globalThis as { Deno?: unknown }).Deno !== 'undefined' ? 'deno' : 'node';
const results: Record<string, unknown> = { runtime };
// No socket at all: a Request in, a Response out.
const direct = await transport.router.fetch(new Request('http://smoke.test/users/ada'));
results.direct = [direct.status, await direct.json()];

const server = (globalThis as unknown as { Bun: { serve(o: { port: number; hostname: string; fetch: (r: Request) => Response | Promise<Response> }): { port: number; stop(force?: boolean): void } } }).Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (r) => transport.router.fetch(r),
});
const base = `http://127.0.0.1:${server.port}`;
const status = async (path: string, init?: RequestInit): Promise<[number, string]> => {
  const res = await fetch(`${base}${path}`, init);
  return [res.status, await res.text()];
};
results.get = await status('/users/ada');
results.yaml = await status('/users/ada', { headers: { accept: 'application/yaml' } });
results.missing = await status('/users/bob');
results.notFound = await status('/nothing');
results.methodNotAllowed = await status('/users/ada', { method: 'DELETE' });
results.notAcceptable = (await status('/users/ada', { headers: { accept: 'text/csv' } }))[0];
results.unsupported = (await status('/users', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))[0];
results.invalid = await status('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' });
const client = rest.newClient();
client.attach(hono.newClientTransport({ baseURL: base }));
results.created = await client.call(createUser, { name: 'Grace' });
let count = 0;
for await (const r of await client.call(exportRows, {})) count += r.n >= 0 ? 1 : 0;
results.streamed = count;
const events: string[] = [];
for await (const ev of await client.call(ticks, {})) events.push(`${ev.id ?? ''}:${ev.data.n}`);
results.events = events;
server.stop(true);
console.log(JSON.stringify(results));
