/**
 * The object form of a route declaration (`rest.route({...})`) over real HTTP: every kind of
 * parameter read into and sent from its field, wire names, defaults, response headers and
 * cookies, non-object bodies under `body`, typed errors through `client.safeCall`, and the
 * OpenAPI operation it documents.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingClient } from './counting-client.js';
import type { AdapterUnderTest } from './suite.js';

class TodoNotFound extends Error {
  constructor(readonly id: string) {
    super(`no todo ${id}`);
  }
}
const todo = codec.object({ id: codec.string(), title: codec.string(), done: codec.defaulted(codec.boolean(), false) }).withName('Todo');
const notFound = codec.object({ code: codec.literal('not_found'), id: codec.string() }).withName('NotFound');
const notFoundRule = rest.errorPattern(TodoNotFound, 404, notFound, (e) => ({ code: 'not_found' as const, id: e.id }));

const getTodo = rest.route({
  method: 'GET',
  path: '/o/todos/{id}',
  pathParams: { id: codec.string() },
  query: { fields: codec.optional(codec.array(codec.string())), page: codec.defaulted(codec.intString(), 1) },
  headers: { tenantId: rest.named('X-Tenant-ID', codec.string()).withDescription('The tenant') },
  cookies: { session: codec.optional(codec.string()) },
  response: todo,
  responseHeaders: { etag: rest.named('ETag', codec.string()) },
  responseCookies: { seen: rest.named('last_seen', rest.responseCookie(codec.string(), { maxAge: 60, insecure: true })) },
  errors: [notFoundRule],
  meta: { operationId: 'getTodo', summary: 'Get a todo' },
});

const createTodo = rest.route({
  method: 'POST',
  path: '/o/todos',
  headers: { tenantId: rest.named('X-Tenant-ID', codec.string()) },
  body: todo.omit('id'),
  response: todo,
  meta: { operationId: 'createTodo' },
});

const putFile = rest.route({
  method: 'PUT',
  path: '/o/files/{name}',
  pathParams: { name: codec.string() },
  body: codec.bytes(),
  requestFormats: [format.binary(codec.bytes())],
  response: codec.array(codec.int()),
  responseHeaders: { size: rest.named('X-Size', codec.intString()) },
  meta: { operationId: 'putFile' },
});

const deleteTodo = rest.route({ method: 'DELETE', path: '/o/todos/{id}', pathParams: { id: codec.string() }, errors: [notFoundRule], meta: { operationId: 'deleteTodo', respStatus: 204 } });

export function objectForm(adapter: AdapterUnderTest): void {
  describe(`object form: ${adapter.name}`, () => {
    let server: { baseURL: string; stop(): Promise<void> } | undefined;
    let client: rest.Client;
    let sent: () => number;
    const seen: unknown[] = [];
    let api: rest.Server;

    beforeAll(async () => {
      api = rest.newServer({ title: 'Todos', version: '1.0.0' });
      getTodo
        .withHandler((_ctx, req) => {
          seen.push(req);
          if (req.id === 'missing') throw new TodoNotFound(req.id);
          return { id: req.id, title: `for ${req.tenantId}`, done: false, etag: `"${req.page}"`, seen: 'now' };
        })
        .register(api);
      createTodo.withHandler((_ctx, req) => ({ id: `${req.tenantId}-1`, title: req.title, done: req.done })).register(api);
      putFile.withHandler((_ctx, req) => ({ body: [...req.body.slice(0, 3)], size: req.body.length + req.name.length })).register(api);
      deleteTodo
        .withHandler((_ctx, req) => {
          if (req.id === 'missing') throw new TodoNotFound(req.id);
        })
        .register(api);
      server = await adapter.serve(api);
      ({ client, sent } = countingClient(server.baseURL));
    });

    afterAll(async () => {
      await server?.stop();
    });

    it('reads every parameter into its field, under its wire name, with defaults applied', async () => {
      seen.length = 0;
      const res = await fetch(`${server?.baseURL}/o/todos/a1?fields=title&fields=done`, { headers: { 'x-tenant-id': 'acme', cookie: 'session=s1' } });
      expect(res.status).toBe(200);
      expect(seen).toEqual([{ id: 'a1', fields: ['title', 'done'], page: 1, tenantId: 'acme', session: 's1' }]);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.headers.get('set-cookie')).toBe('last_seen=now; Max-Age=60; Path=/; HttpOnly; SameSite=Strict');
      expect(await res.json()).toEqual({ id: 'a1', title: 'for acme', done: false });
      const missing = await fetch(`${server?.baseURL}/o/todos/a1`);
      expect(missing.status).toBe(400);
      expect(await missing.text()).toContain('X-Tenant-ID');
    });

    it('sends the fields from the typed client, leaving defaulted ones out, and merges response headers and cookies back', async () => {
      seen.length = 0;
      const t = await client.call(getTodo, { id: 'b2', tenantId: 'acme' });
      expect(t).toEqual({ id: 'b2', title: 'for acme', done: false, etag: '"1"', seen: 'now' });
      expect(seen).toEqual([{ id: 'b2', page: 1, tenantId: 'acme' }]);
      const created = await client.call(createTodo, { title: 'write docs', tenantId: 'acme' });
      expect(created).toEqual({ id: 'acme-1', title: 'write docs', done: false });
    });

    it('carries a non-object body and response under body, beside path parameters and headers', async () => {
      const out = await client.call(putFile, { name: 'a.bin', body: new Uint8Array([7, 8, 9, 10]) });
      expect(out).toEqual({ body: [7, 8, 9], size: 9 });
      const raw = await fetch(`${server?.baseURL}/o/files/x`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([1]) });
      expect(raw.status).toBe(200);
      expect(raw.headers.get('x-size')).toBe('2');
      expect(await raw.json()).toEqual([1]);
    });

    it('gives declared errors typed by status through safeCall, and other failures as errors, sending nothing for a refused request', async () => {
      const ok = await client.safeCall(deleteTodo, { id: 'a' });
      expect(ok).toEqual({ ok: true, status: 204, value: {} });
      const nf = await client.safeCall(getTodo, { id: 'missing', tenantId: 't' });
      expect(nf).toEqual({ ok: false, status: 404, error: { code: 'not_found', id: 'missing' } });
      const before = sent();
      const refused = await client.safeCall(getTodo, { id: '', tenantId: 't' });
      if (refused.ok) throw new Error('an empty path variable must be refused');
      expect(refused.status).toBeUndefined();
      expect(refused.error).toBeInstanceOf(rest.PathParamError);
      expect(sent()).toBe(before);
      await expect(client.call(deleteTodo, { id: 'missing' })).rejects.toBeInstanceOf(rest.ErrorPatternResponse);
    });

    it('documents the operation as declared: parameters by wire name, required flags, defaults, response headers and cookies', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, any>> };
      const op = doc.paths['/o/todos/{id}']?.get;
      const params = (op.parameters as { name: string; in: string; required?: boolean; description?: string; schema: unknown }[]).map((p) => [p.in, p.name, p.required ?? false]);
      expect(params).toEqual(
        expect.arrayContaining([
          ['path', 'id', true],
          ['query', 'fields', false],
          ['query', 'page', false],
          ['header', 'X-Tenant-ID', true],
          ['cookie', 'session', false],
        ]),
      );
      const page = op.parameters.find((p: { name: string }) => p.name === 'page');
      expect(page.schema).toEqual({ type: 'integer', format: 'double-int', default: 1 });
      expect(op.parameters.find((p: { name: string }) => p.name === 'X-Tenant-ID').description).toBe('The tenant');
      expect(Object.keys(op.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Set-Cookie']));
      expect(op.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NotFound' });
      const put = doc.paths['/o/files/{name}']?.put;
      expect(Object.keys(put.requestBody.content)).toEqual(['application/octet-stream']);
      expect(put.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: expect.objectContaining({ type: 'integer' }) });
      const post = doc.paths['/o/todos']?.post;
      expect(post.requestBody.content['application/json'].schema.required).toEqual(['title']);
    });
  });
}
