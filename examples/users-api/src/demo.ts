/**
 * The main job, end to end over real HTTP: starts the users service on 127.0.0.1, calls every
 * route with the typed client, provokes every declared error and the pipeline's own answers,
 * writes openapi.yaml and validates it against the official OpenAPI 3.1 schema. Exits 1 when
 * anything differs from what the API declares.
 */
import { writeFileSync } from 'node:fs';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import {
  bearerAuth,
  createSession,
  createUser as createUserRoute,
  deleteUser as deleteUserRoute,
  emailTakenPattern,
  findUserByEmail,
  getMe,
  getUser,
  listUsers,
  notFoundPattern,
  sessionCookie,
  userEvents,
  type User,
} from './api.js';
import { openapiPath, renderOpenAPI, validateOpenAPI } from './openapi.js';
import { randomBytes } from 'node:crypto';
import { signToken } from './auth.js';
import { startServer } from './server.js';

const stop = new AbortController();
// The identity provider and the service share this HS256 secret; the demo mints an admin token with it.
const secret = randomBytes(32).toString('hex');
const { address, done } = await startServer('127.0.0.1:0', stop.signal, secret);
const adminToken = signToken({ sub: 'demo-admin', exp: Math.floor(Date.now() / 1000) + 600 }, secret);
// The typed client gives the secured writes their bearer token (Authorization: Bearer …).
const createUser = createUserRoute.clientMW(bearerAuth, () => adminToken);
const deleteUser = deleteUserRoute.clientMW(bearerAuth, () => adminToken);

const base = `http://${address.host}:${address.port}`;
console.log(`users-api listening on ${base}\n`);

let failures = 0;
let lastStatus = 0;
const observer: rest.Observer = { onResponse: ({ status }) => (lastStatus = status) };
const client = rest.newClient();
client.attach(nodeHttp.newClientTransport({ baseURL: base }));

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s.length > 110 ? `${s.slice(0, 107)}...` : s;
};

function check(label: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(58)} ${detail}`);
}

/** A typed call expected to succeed with `status`. */
async function call<Req, Resp, In>(label: string, route: rest.Route<Req, Resp, string, In>, req: NoInfer<In>, status: number, options: rest.ClientCallOptions = {}): Promise<Resp> {
  const resp = await client.call(route, req, { observer, ...options });
  check(label, lastStatus === status, `${lastStatus} ${show(resp)}`);
  return resp;
}

/** A typed call expected to fail with an instance of `errorClass` (and `status`, 0 when nothing may be sent). */
async function fail<Req, Resp, In>(
  label: string,
  route: rest.Route<Req, Resp, string, In>,
  req: NoInfer<In>,
  errorClass: abstract new (...a: never[]) => Error,
  status: number,
  options: rest.ClientCallOptions = {},
): Promise<void> {
  lastStatus = -1;
  try {
    const resp = await client.call(route, req, { observer, ...options });
    check(label, false, `unexpected success ${show(resp)}`);
  } catch (err) {
    const value = err instanceof nodeHttp.ErrorPatternResponse ? ` ${show(err.value)}` : ` ${(err as Error).message}`;
    check(label, err instanceof errorClass && lastStatus === status, `${lastStatus} ${(err as Error).name}${value}`);
  }
}

/** A raw HTTP request expected to get `status`. */
async function raw(label: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string | Uint8Array }, status: number, expectHeader?: [string, string]): Promise<void> {
  const res = await fetch(`${base}${path}`, { method, redirect: 'manual', headers: init.headers ?? {}, ...(init.body !== undefined && { body: init.body }) });
  const text = await res.text();
  const headerOk = expectHeader === undefined || res.headers.get(expectHeader[0]) === expectHeader[1];
  check(label, res.status === status && headerOk, `${res.status} ${text}${expectHeader ? `  ${expectHeader[0]}: ${res.headers.get(expectHeader[0])}` : ''}`);
}

console.log('typed client: every route');
const ada = await call('createUser {name: Ada} with a bearer token', createUser, { name: 'Ada Lovelace', email: 'ada@example.com' }, 201);
const grace = await call('createUser {name: Grace} with a bearer token', createUser, { name: 'Grace Hopper', email: 'grace@example.com' }, 201);
const anonymousRead = await call('getUser {id: ada}, anonymous (sign-in is optional)', getUser, { id: ada.id }, 200);
check('  an anonymous reader sees no isSelf', !('isSelf' in anonymousRead), show(anonymousRead));
const adaToken = signToken({ sub: ada.id, exp: Math.floor(Date.now() / 1000) + 600 }, secret);
const asAda = getUser.clientMW(bearerAuth, () => adaToken);
const selfRead = await call('getUser {id: ada} with Ada\'s token', asAda, { id: ada.id }, 200);
check('  a signed-in reader sees isSelf', selfRead.isSelf === true, show(selfRead));
await fail('getUser {id: ada} with a forged token -> 401, not anonymous', getUser.clientMW(bearerAuth, () => `${adaToken.slice(0, -2)}xx`), { id: ada.id }, rest.UnexpectedStatusError, 401);
const page = await call('listUsers {limit: 10}', listUsers, { limit: 10 }, 200);
check('  listed both users, oldest first', page.items.map((u: User) => u.name).join() === 'Ada Lovelace,Grace Hopper', String(page.total));
await call('deleteUser {id: grace} with a bearer token', deleteUser, { id: grace.id }, 204);
check(`  buildPath for getUser`, getUser.buildPath({ id: ada.id }) === `/users/${ada.id}`, getUser.buildPath({ id: ada.id }));
const found = await call('findUserByEmail {email: ada} -> 303 See Other', findUserByEmail, { email: 'ADA@example.com' }, 303);
check('  Location merged into the response, not followed', found.location === `/users/${ada.id}`, found.location);

console.log('\ntyped client: a cookie pair');
const session = await call('createSession {email: ada}', createSession, { email: ada.email }, 201);
check('  Set-Cookie session merged into the response', /^[0-9a-f]{32}$/.test(session.session), session.session);
const me = await call('getMe with Cookie: session', getMe.clientMW(sessionCookie, () => session.session), {}, 200);
check('  the session is Ada’s', me.id === ada.id, me.name);

console.log('\ntyped client: every declared error');
await fail('createUser with a taken e-mail -> 409 EmailTaken', createUser, { name: 'Ada again', email: 'ada@example.com' }, nodeHttp.ErrorPatternResponse, 409);
await fail('getUser of a deleted user -> 404 UserNotFound', getUser, { id: grace.id }, nodeHttp.ErrorPatternResponse, 404);
await fail('deleteUser of a deleted user -> 404 UserNotFound', deleteUser, { id: grace.id }, nodeHttp.ErrorPatternResponse, 404);
await fail('getMe with an unknown session -> 401 SessionExpired', getMe.clientMW(sessionCookie, () => '0'.repeat(32)), {}, nodeHttp.ErrorPatternResponse, 401);

console.log('\nserver-sent events: GET /users/events');
{
  const stopEvents = new AbortController();
  const events = await client.call(userEvents, {}, { signal: stopEvents.signal });
  const received: string[] = [];
  const reading = (async () => {
    for await (const ev of events) {
      const e = ev.data;
      received.push(e.kind === 'created' ? `${ev.id} created ${e.user.name} <${e.user.email}>` : `${ev.id} deleted ${e.id}`);
      console.log(`     event ${received.at(-1) ?? ''}`);
      if (received.length === 2) break;
    }
  })();
  const linus = await client.call(createUser, { name: 'Linus Torvalds', email: 'linus@example.com' });
  await client.call(deleteUser, { id: linus.id });
  await reading;
  stopEvents.abort();
  check('subscribed, then created and deleted a user: two typed events', received.length === 2 && received[0]?.includes('created Linus') === true && received[1]?.includes(`deleted ${linus.id}`) === true, received.join(' | '));
  // A client that lost the connection resumes from the last id it saw: the server replays what came after.
  const firstId = Number(received[0]?.split(' ')[0]);
  const replay = new AbortController();
  const replayed: string[] = [];
  for await (const ev of await client.call(userEvents, { lastEventId: String(firstId - 1) }, { signal: replay.signal })) {
    replayed.push(`${ev.id ?? ''} ${ev.event ?? ''}`);
    if (replayed.length === 2) break;
  }
  replay.abort();
  check(`resumed with Last-Event-ID: ${firstId - 1} -> the same two events again`, replayed.join() === `${firstId} created,${firstId + 1} deleted`, replayed.join(' | '));
}

console.log('\ntyped client: security');
await fail('createUser without a token -> 401', createUserRoute, { name: 'Eve', email: 'eve@example.com' }, nodeHttp.UnexpectedStatusError, 401);
const forged = `${adminToken.slice(0, adminToken.lastIndexOf('.'))}.${'A'.repeat(43)}`;
await fail('createUser with a forged signature -> 401', createUserRoute.clientMW(bearerAuth, () => forged), { name: 'Eve', email: 'eve@example.com' }, nodeHttp.UnexpectedStatusError, 401);
const expired = signToken({ sub: 'demo-admin', exp: Math.floor(Date.now() / 1000) - 1 }, secret);
await fail('deleteUser with an expired token -> 401', deleteUserRoute.clientMW(bearerAuth, () => expired), { id: ada.id }, nodeHttp.UnexpectedStatusError, 401);
await fail('getMe without the session cookie -> 401', getMe, {}, nodeHttp.ErrorPatternResponse, 401);
await fail('a credential function that throws: nothing sent', createUserRoute.clientMW(bearerAuth, () => {
  throw new Error('the keychain is locked');
}), { name: 'Eve', email: 'eve@example.com' }, nodeHttp.RequestBuildError, 0);
await fail('findUserByEmail of an unknown address -> 404 EmailUnknown', findUserByEmail, { email: 'nobody@example.com' }, nodeHttp.ErrorPatternResponse, 404);

console.log('\ntyped client: reading typed error bodies');
const err = await client.call(getUser, { id: grace.id }).catch((e: unknown) => e);
const body = rest.errorPatternAs(err, notFoundPattern);
check('errorPatternAs(err, notFoundPattern): typed UserNotFound', body?.id === grace.id, show(body));
check('errorPatternAs(err, emailTakenPattern): undefined, no throw', rest.errorPatternAs(err, emailTakenPattern) === undefined, 'undefined');
let handledBy = '';
const handled = rest.handleErrorPattern(
  err,
  rest.errorCase(emailTakenPattern, (b) => (handledBy = `email taken: ${b.email}`)),
  rest.errorCase(notFoundPattern, (b) => (handledBy = `not found: ${b.id}`)),
);
check('handleErrorPattern runs the matching case', handled && handledBy === `not found: ${grace.id}`, handledBy);

console.log('\ntyped client: rejected before sending (status 0)');
await fail('getUser {id: "not-a-uuid"}', getUser, { id: 'not-a-uuid' }, rest.PathParamError, 0);
await fail('listUsers {limit: 500}', listUsers, { limit: 500 }, rest.QueryParamError, 0);
await fail('createUser {name: ""}', createUser, { name: '', email: 'x@example.com' }, nodeHttp.RequestBuildError, 0);

console.log('\nraw HTTP: the pipeline answers for itself');
const json = { 'content-type': 'application/json' };
await raw('POST /users with Content-Type text/plain -> 415', 'POST', '/users', { headers: { 'content-type': 'text/plain' }, body: 'hi' }, 415);
const jsonAsAdmin = { ...json, authorization: `Bearer ${adminToken}` };
await raw('POST /users {"name":""} -> 400 naming the field', 'POST', '/users', { headers: jsonAsAdmin, body: '{"name":"","email":"e@example.com"}' }, 400);
await raw('POST /users with a 2 MiB body -> 413', 'POST', '/users', { headers: jsonAsAdmin, body: new Uint8Array(2 * 1024 * 1024).fill(0x20) }, 413);
await raw('POST /users without a token -> 401 with a Bearer challenge', 'POST', '/users', { headers: json, body: '{}' }, 401, ['www-authenticate', 'Bearer realm="api"']);
await raw('GET /users?limit=abc -> 400', 'GET', '/users?limit=abc', { headers: { 'x-request-id': 'demo-req-0003' } }, 400);
await raw('GET /users with X-Request-ID -> echoed by the middleware', 'GET', '/users', { headers: { 'x-request-id': 'demo-req-0001' } }, 200, ['x-request-id', 'demo-req-0001']);
const made = (await fetch(`${base}/users`)).headers.get('x-request-id') ?? '';
check('GET /users without X-Request-ID -> the middleware makes one up', /^[0-9a-f-]{36}$/.test(made), made);
await raw('GET /users with X-Request-ID: short -> 400 from the middleware', 'GET', '/users', { headers: { 'x-request-id': 'short' } }, 400);
await raw('GET /nothing-here -> 404', 'GET', '/nothing-here', {}, 404);
await raw('PATCH /users -> 405 with Allow', 'PATCH', '/users', {}, 405, ['allow', 'GET, HEAD, POST']);
await raw('GET /users/{id} with Accept: text/csv -> 406', 'GET', `/users/${ada.id}`, { headers: { accept: 'text/csv' } }, 406);
await raw('GET /users/by-email/{email} -> 303 with Location', 'GET', '/users/by-email/ada%40example.com', {}, 303, ['location', `/users/${ada.id}`]);
await raw('GET /me without the session cookie -> 401', 'GET', '/me', {}, 401);
await raw('OPTIONS /users preflight from the browser origin -> 204', 'OPTIONS', '/users', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }, 204, ['access-control-allow-origin', 'http://localhost:5173']);

console.log('\nOpenAPI 3.1');
writeFileSync(openapiPath, renderOpenAPI());
const errors = await validateOpenAPI(openapiPath);
check(`wrote and validated ${openapiPath.split('/').slice(-2).join('/')}`, errors.length === 0, errors.length === 0 ? 'valid against the OpenAPI 3.1 schema' : errors.join('; '));

stop.abort();
await done;
console.log(failures === 0 ? '\ndemo passed: every call answered as declared' : `\ndemo FAILED: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
