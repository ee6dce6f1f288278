import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rest from '@lib/rest';
import { createTodo, getTodo, listTodos, putTodo, serve, signIn, todoClient, updateTodo } from './todos.js';

describe('todo-api over real HTTP', () => {
  const stop = new AbortController();
  let server: { baseURL: string; done: Promise<void> };
  beforeAll(async () => {
    server = await serve('127.0.0.1:0', stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await server.done;
  });

  it('fits the whole service, routes, handlers and client, in at most 130 lines, without a cast', () => {
    const source = readFileSync(new URL('./todos.ts', import.meta.url), 'utf8');
    expect(source.trimEnd().split('\n').length).toBeLessThanOrEqual(130);
    expect(source).not.toMatch(/\bas (unknown|any)\b|as codec\.|<\w+Req>/);
  });

  it('creates, reads, patches and lists per tenant, with defaults, ETag and the session cookie', async () => {
    const client = todoClient(server.baseURL);
    const { session } = await client.call(signIn, { user: 'lin' });
    const t = await client.call(createTodo, { tenantId: 't1', session, title: 'a' });
    expect(t).toMatchObject({ title: 'a', done: false, tags: [] });
    const got = await client.call(getTodo, { tenantId: 't1', session, id: t.id });
    expect(got.etag).toMatch(/^"[\w-]{16}"$/);
    expect(await client.call(updateTodo, { tenantId: 't1', session, id: t.id, tags: ['x'] })).toEqual({ ...t, tags: ['x'], etag: expect.stringMatching(/^"[\w-]{16}"$/) });
    expect((await client.call(listTodos, { tenantId: 't1', session, tag: ['x'] })).total).toBe(1);
    expect((await client.call(listTodos, { tenantId: 't2', session })).total).toBe(0);
  });

  it('answers a conditional GET 304, a stale If-Match 412, and an upsert 201 then 200', async () => {
    const client = todoClient(server.baseURL);
    const { session } = await client.call(signIn, { user: 'kim' });
    const t = await client.call(createTodo, { tenantId: 't3', session, title: 'c' });
    const got = await client.call(getTodo, { tenantId: 't3', session, id: t.id });
    const raw = await fetch(`${server.baseURL}/todos/${t.id}`, { headers: { 'x-tenant-id': 't3', cookie: `session=${session}`, 'if-none-match': got.etag } });
    expect([raw.status, await raw.text(), raw.headers.get('etag')]).toEqual([304, '', got.etag]);
    expect(await client.call(getTodo, { tenantId: 't3', session, id: t.id }, { ifNoneMatch: got.etag })).toBeInstanceOf(rest.NotModified);
    await client.call(updateTodo, { tenantId: 't3', session, id: t.id, done: true }, { ifMatch: got.etag });
    const stale = await fetch(`${server.baseURL}/todos/${t.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-tenant-id': 't3', cookie: `session=${session}`, 'if-match': got.etag }, body: '{"title":"x"}' });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toEqual({ error: 'precondition failed: If-Match does not match the current representation', precondition: 'If-Match' });
    const id = crypto.randomUUID();
    expect(await client.safeCall(putTodo, { tenantId: 't3', session, id, title: 'u' })).toMatchObject({ ok: true, status: 201, value: { id, title: 'u' } });
    expect(await client.safeCall(putTodo, { tenantId: 't3', session, id, title: 'v' })).toMatchObject({ ok: true, status: 200, value: { id, title: 'v' } });
  });

  it('answers every error as problem details, typed by status for the client', async () => {
    const client = todoClient(server.baseURL);
    const res = await fetch(`${server.baseURL}/todos`, { headers: { cookie: 'session=x' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: expect.stringContaining('X-Tenant-ID'), errors: [{ detail: 'is required', in: 'header', name: 'X-Tenant-ID' }] });
    const r = await client.safeCall(getTodo, { tenantId: 't', session: 'nope', id: crypto.randomUUID() });
    expect(r).toEqual({ ok: false, status: 401, error: { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'sign in first' } });
    const raw = await fetch(`${server.baseURL}/todos/${crypto.randomUUID()}`, { headers: { 'x-tenant-id': 't', cookie: 'session=nope' } });
    expect(raw.headers.get('content-type')).toBe('application/problem+json');
  });
});
