/**
 * The client's own CPU per call, without I/O: `client.call` against a transport that answers at
 * once with a canned reply, beside the response decode alone (`json(user).unmarshal`), which
 * every call does. The difference is what the client adds; with real I/O it grows several times
 * (cold caches, garbage collection), see client.ts.
 *
 *   tsx src/profile/client-canned.ts
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
const SEED_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const user = codec.object({ id: codec.string().refine(validate.uuid), name: codec.string().refine(validate.minLength(1), validate.maxLength(100)), email: codec.string().refine(validate.email), createdAt: codec.time() });
const getUser = rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: codec.string().refine(validate.uuid) }, response: user });
const body = new TextEncoder().encode(JSON.stringify({ id: SEED_ID, name: 'Ada', email: 'ada@example.com', createdAt: '2024-01-02T03:04:05.000Z' }));
const headers = new Headers({ 'content-type': 'application/json' });
const transport: rest.ClientTransport = { adapter: 'x', paramKinds: rest.HTTP_PARAM_KINDS, capabilities: new Map(), exchange: () => Promise.resolve({ status: 200, headers, body }) };
const client = rest.newClient();
client.attach(transport);
const j = format.json(user);
const variants: Record<string, () => unknown> = {
  decode: () => Promise.resolve(j.unmarshal(body)),
  'client.call': () => client.call(getUser, { id: SEED_ID }),
};
for (let round = 0; round < 6; round++) {
  for (const [name, fn] of Object.entries(variants)) {
    const c0 = process.cpuUsage();
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 500) { for (let i = 0; i < 100; i++) await fn(); n += 100; }
    const c = process.cpuUsage(c0);
    if (round > 2) console.log(name.padEnd(12), ((c.user + c.system) / n).toFixed(2), 'µs CPU per call');
  }
}
