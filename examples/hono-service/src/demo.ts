/**
 * The users contract of `examples/users-api`, served by `@lib/router-adapter` on a Hono app that
 * also has plain Hono routes and middleware of its own, called by the same typed client code.
 * Checks that the document is the one node-http serves. Exits 1 when anything differs.
 */
import { randomBytes } from 'node:crypto';
import * as rest from '@lib/rest';
import * as hono from '@lib/router-adapter';
import * as testing from '@lib/testing';
import { Hono } from 'hono';
import { bearerAuth, createUser, deleteUser, getUser, listUsers, userEvents } from 'users-api/src/api.js';
import { signToken } from 'users-api/src/auth.js';
import { buildApi } from 'users-api/src/server.js';

// A Hono app of the user's own: a middleware and two plain routes.
const app = new Hono();
app.use('*', async (c, next) => {
  await next();
  c.header('x-served-by', 'hono');
});
app.get('/health', (c) => c.json({ ok: true }));
app.get('/hello/:name', (c) => c.text(`hello ${c.req.param('name')}`));

// The declared API on the same app.
const secret = randomBytes(32).toString('hex');
const api = buildApi(secret);
const transport = hono.newServerTransport({ router: app, addr: '127.0.0.1:0' });
api.attach(transport);
const stop = new AbortController();
const done = api.serve({ signal: stop.signal });
const { host, port } = await transport.listening();
const base = `http://${host}:${port}`;
console.log(`hono-service listening on ${base}\n`);

let failures = 0;
function check(label: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(58)} ${detail}`);
}

// The same client code as against node-http.
const token = signToken({ sub: 'demo-admin', exp: Math.floor(Date.now() / 1000) + 600 }, secret);
const client = rest.newClient();
client.attach(hono.newClientTransport({ baseURL: base }));
const events = await client.call(userEvents, {});
const seen: string[] = [];
const reading = (async () => {
  for await (const ev of events) {
    seen.push(`${ev.event ?? ''} ${ev.id ?? ''}`);
    if (seen.length === 2) break;
  }
})();
const ada = await client.call(createUser.clientMW(bearerAuth, () => token), { name: 'Ada Lovelace', email: 'ada@example.com' });
check('createUser through the router adapter -> 201', ada.name === 'Ada Lovelace', JSON.stringify(ada));
const got = await client.call(getUser, { id: ada.id });
check('getUser', got.id === ada.id, got.email);
const page = await client.call(listUsers, { limit: 5 });
check('listUsers', page.total === 1, `${page.total} user(s)`);
await client.call(deleteUser.clientMW(bearerAuth, () => token), { id: ada.id });
await reading;
check('userEvents: created and deleted, as server-sent events', seen.join() === 'created 1,deleted 2', seen.join(' | '));
const missing = await client.call(getUser, { id: ada.id }).catch((e: unknown) => e);
check('getUser after delete -> 404 typed', missing instanceof rest.ErrorPatternResponse && missing.statusCode === 404, String(missing));

const health = await fetch(`${base}/health`);
check('GET /health: the app\'s own route', health.status === 200 && health.headers.get('x-served-by') === 'hono', `${health.status} ${await health.text()}`);
const hello = await fetch(`${base}/hello/world`);
check('GET /hello/world: the app\'s own route with a param', (await hello.text()) === 'hello world', 'hello world');
const wrong = await fetch(`${base}/users`, { method: 'PATCH' });
check('PATCH /users -> 405 with Allow, from the adapter', wrong.status === 405 && wrong.headers.get('allow') === 'GET, HEAD, POST', `${wrong.status} ${wrong.headers.get('allow') ?? ''}`);
const nothing = await fetch(`${base}/nothing`);
check('GET /nothing -> 404 envelope', nothing.status === 404, `${nothing.status} ${await nothing.text()}`);

// Generated valid and invalid requests to every declared route, each answer checked against the declarations.
const report = await testing.checkServer({ api, baseURL: base, runs: 15, seed: 1, credentials: { headers: { authorization: `Bearer ${token}` } } });
check('@lib/testing checkServer: every route keeps its contract', report.failures.length === 0, report.failures.length === 0 ? `${report.requests} requests` : testing.formatReport(report));

// One declaration, one document, whichever adapter serves it.
const same = api.openAPISpec().marshalYAML() === buildApi('other').openAPISpec().marshalYAML();
check('the OpenAPI document is the users-api document', same, same ? 'identical' : 'differs');

stop.abort();
await done;
console.log(failures === 0 ? '\ndemo passed: every call answered as declared' : `\ndemo FAILED: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
