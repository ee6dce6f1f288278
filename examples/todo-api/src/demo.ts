/**
 * `pnpm demo` for the todo service: starts it on a free port under `/api/v1`, signs in, creates,
 * reads (with its ETag, then 304 when unchanged), upserts (201, then 200), lists with filters,
 * patches (a typed 412 on a stale If-Match, sent as a call option) and deletes todos with the
 * typed client, reads the declared errors through `client.safeCall`, and shows that every error
 * is RFC 9457 problem details.
 */
import * as rest from '@lib/rest';
import { createTodo, deleteTodo, getTodo, listTodos, putTodo, serve, signIn, todoClient, updateTodo } from './todos.js';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`todo-api demo: ${what}`);
  console.log(`  ✓ ${what}`);
}

const stop = new AbortController();
const { baseURL, done } = await serve('127.0.0.1:0', stop.signal);
console.log(`todo-api listening on ${baseURL}`);
try {
  const client = todoClient(baseURL);
  const tenantId = 'acme';
  const anonymous = await client.safeCall(listTodos, { tenantId });
  check(!anonymous.ok && anonymous.status === 401 && anonymous.error.detail === 'sign in first', 'without a session: 401 problem details, "sign in first"');

  const { session } = await client.call(signIn, { user: 'ada' });
  check(session.startsWith('ada.'), `signed in: Set-Cookie session=${session.slice(0, 12)}…`);
  const a = await client.call(createTodo, { tenantId, session, title: 'write the docs', tags: ['docs'] });
  const b = await client.call(createTodo, { tenantId, session, title: 'ship it' });
  check(a.done === false && b.tags.length === 0, `created ${a.id} and ${b.id}; done and tags took their defaults`);

  const got = await client.call(getTodo, { tenantId, session, id: a.id });
  check(got.title === 'write the docs' && /^"[\w-]{16}"$/.test(got.etag), `got ${got.id} with ETag ${got.etag}`);
  const cached = await client.call(getTodo, { tenantId, session, id: a.id }, { ifNoneMatch: got.etag });
  check(cached instanceof rest.NotModified && cached.etag === got.etag, 'GET with If-None-Match: 304 Not Modified, no body: the copy held is current');
  const patched = await client.call(updateTodo, { tenantId, session, id: a.id, done: true }, { ifMatch: got.etag });
  check(patched.done && patched.title === 'write the docs', `PATCH with If-Match ${got.etag} changed done only; new ETag ${patched.etag}`);
  const again = await client.call(getTodo, { tenantId, session, id: a.id }, { ifNoneMatch: got.etag });
  check(!(again instanceof rest.NotModified) && again.etag === patched.etag, 'GET with the old ETag: 200 with the new one');
  const stale = await client.safeCall(updateTodo, { tenantId, session, id: a.id, title: 'lost update' }, { ifMatch: got.etag });
  check(!stale.ok && stale.status === 412 && stale.error.precondition === 'If-Match', `PATCH with the stale If-Match: a typed 412, nothing lost ("${!stale.ok && stale.status === 412 ? stale.error.error : ''}")`);

  const fixedId = '6f1c2b9e-0d4a-4c1e-9a57-3b2f8e7d6c5a';
  const upserted = await client.safeCall(putTodo, { tenantId, session, id: fixedId, title: 'upserted' });
  const replaced = await client.safeCall(putTodo, { tenantId, session, id: fixedId, title: 'replaced', done: true });
  check(upserted.ok && upserted.status === 201 && replaced.ok && replaced.status === 200 && replaced.value.done, 'PUT /todos/{id}: 201 Created, then 200 when it replaces');
  await client.call(deleteTodo, { tenantId, session, id: fixedId });

  const open = await client.call(listTodos, { tenantId, session, done: false });
  const docs = await client.call(listTodos, { tenantId, session, tag: ['docs'], limit: 1 });
  check(open.total === 1 && open.items[0]?.id === b.id && docs.items[0]?.id === a.id, 'list filtered by done and by tag');
  const other = await client.call(listTodos, { tenantId: 'globex', session });
  check(other.total === 0, 'another tenant sees none of them');

  await client.call(deleteTodo, { tenantId, session, id: b.id });
  const gone = await client.safeCall(getTodo, { tenantId, session, id: b.id });
  check(!gone.ok && gone.status === 404 && gone.error.detail === `no todo ${b.id}`, 'deleted; then 404 problem details');

  const refused = await client.safeCall(getTodo, { tenantId, session, id: 'not-a-uuid' });
  check(!refused.ok && refused.status === undefined && refused.error instanceof rest.PathParamError, 'the client refuses a bad id before sending');
  const raw = await fetch(`${baseURL}/todos?limit=500`, { headers: { 'x-tenant-id': tenantId, cookie: `session=${session}` } });
  const problem = (await raw.json()) as rest.ProblemDetails;
  check(raw.status === 400 && raw.headers.get('content-type') === 'application/problem+json' && problem.errors?.[0]?.name === 'limit', `a raw request over the limit: 400 application/problem+json ${JSON.stringify(problem)}`);
  const outside = await fetch(baseURL.replace('/api/v1', '/todos'), { headers: { 'x-tenant-id': tenantId, cookie: `session=${session}` } });
  check(outside.status === 404, `served under /api/v1 only: ${new URL(outside.url).pathname} is 404`);
} finally {
  stop.abort();
  await done;
}
console.log('todo-api demo: all good');
