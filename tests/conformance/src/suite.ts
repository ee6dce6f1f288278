/**
 * The HTTP-level conformance suite: every behaviour of the server pipeline and the client,
 * over real HTTP on 127.0.0.1, for one adapter. Each adapter's test file calls
 * {@link conformance} with a way to serve a builder.
 */
import { request } from 'node:http';
import * as nodeHttp from '@lib/node-http';
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { countingClient } from './counting-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boom,
  ConflictError,
  createUser,
  createWidget,
  echo,
  getUser,
  handled,
  HandledError,
  listUsers,
  NotFoundError,
  silent,
  TeapotError,
  type User,
} from './fixtures.js';
import { clientTransport } from './client-transport.js';

/** How the suite serves a builder through the adapter under test. */
export interface AdapterUnderTest {
  readonly name: string;
  /**
   * Attaches the adapter's transport to `api`, serves it on 127.0.0.1, and returns its base URL
   * and a stop function (aborts the serve signal, resolves when `api.serve` does).
   */
  serve(api: rest.Server, options?: { readonly shutdownTimeout?: number }): Promise<{ readonly baseURL: string; stop(): Promise<void> }>;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function conformance(adapter: AdapterUnderTest): void {
  describe(`conformance: ${adapter.name}`, () => {
    const users = new Map<string, User>();
    const observed: { status: number; route: string }[] = [];
    const validationErrors: string[] = [];
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let handlerCalls = 0;
    let openapi: ReturnType<rest.Server['openAPISpec']> | undefined;

    beforeAll(async () => {
      const api = rest.newServer({ title: 'Users', version: '1.0.0' });
      const observer: rest.Observer = {
        onResponse: (i) => observed.push({ status: i.status, route: i.route }),
        onValidationError: (i) => validationErrors.push(`${i.location}:${i.name}`),
      };
      createUser
        .withHandler((_ctx, req) => {
          handlerCalls++;
          if ([...users.values()].some((u) => u.email === req.email)) throw new ConflictError(req.email);
          const u = { id: crypto.randomUUID(), ...req };
          users.set(u.id, u);
          return u;
        })
        .withOptions({ observer })
        .register(api);
      getUser
        .withHandler((_ctx, req) => {
          if (req.id === '00000000-0000-4000-8000-000000000418') throw new TeapotError('short and stout');
          const u = users.get(req.id);
          if (u === undefined) throw new NotFoundError(req.id);
          return u;
        })
        .register(api);
      listUsers
        .withHandler((_ctx, req) => {
          const items = [...users.values()].slice(0, req.limit ?? 50);
          return { items, total: users.size, requestId: req.requestId };
        })
        .withOptions({ observer })
        .register(api);
      rest
        .newRoute('GET', '/multi', codec.empty<{ n?: number }>(), codec.object({ n: codec.optional(codec.int()) }),
          rest.newOptionalQueryParam('n', codec.intString().refine(validate.max(9)), (r) => r.n, (r, v) => {
            r.n = v;
          }),
        )
        .withOptions({ multiValueQueryParams: true })
        .withHandler((_ctx, req) => req)
        .register(api);
      boom
        .withHandler(() => {
          throw new Error('secret database password is hunter2');
        })
        .register(api);
      echo
        .withHandler((_ctx, req) => {
          if (req.say === 'badheader') return { out: req.say, token: 'x' };
          return { out: req.say, token: `t-${req.say}`, session: req.session ?? 'new-session' };
        })
        .register(api);
      handled
        .withHandler(() => {
          throw new HandledError('not processable');
        })
        .register(api);
      silent.withHandler(() => undefined).register(api);
      createWidget.withHandler((_ctx, req) => ({ ...req, name: req.name.toUpperCase() })).register(api);
      openapi = api.openAPISpec();
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(() => stop());

    function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer | (() => AsyncIterable<Buffer>)): Promise<RawResponse> {
      return new Promise((resolve, reject) => {
        const req = request(`${base}${path}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        if (typeof body === 'function') {
          void (async () => {
            for await (const chunk of body()) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
            req.end();
          })().catch(() => undefined);
        } else req.end(body);
      });
    }

    const postJSON = (path: string, body: string): Promise<Response> => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const errorOf = async (res: Response): Promise<string> => ((await res.json()) as { error: string }).error;

    describe('server pipeline', () => {
      it('creates with 201 and reads back', async () => {
        const res = await postJSON('/users', JSON.stringify({ name: 'Ada', email: 'ada@example.com' }));
        expect(res.status).toBe(201);
        expect(res.headers.get('content-type')).toBe('application/json');
        const created = (await res.json()) as User;
        expect(created).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
        const got = await fetch(`${base}/users/${created.id}`);
        expect(got.status).toBe(200);
        expect(await got.json()).toEqual(created);
      });

      it('accepts a Content-Type with parameters and strips unknown body keys', async () => {
        const res = await fetch(`${base}/users`, {
          method: 'POST',
          headers: { 'content-type': 'Application/JSON; charset=utf-8' },
          body: JSON.stringify({ name: 'Kim', email: 'kim@example.com', admin: true }),
        });
        expect(res.status).toBe(201);
        expect(Object.keys((await res.json()) as object).sort()).toEqual(['email', 'id', 'name']);
      });

      it('rejects a wrong or missing Content-Type with 415 before the handler', async () => {
        const before = handlerCalls;
        const res = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"x","email":"x@example.com"}' });
        expect(res.status).toBe(415);
        expect(await errorOf(res)).toMatch(/unsupported media type "text\/plain"/);
        const none = await raw('POST', '/users', {}, Buffer.from('{}'));
        expect(none.status).toBe(415);
        expect(handlerCalls).toBe(before);
      });

      it('rejects a 2 MiB body with 413, declared or chunked, without reading it whole', async () => {
        const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
        const declared = await raw('POST', '/users', { 'content-type': 'application/json', 'content-length': String(big.length) }, big);
        expect(declared.status).toBe(413);
        expect(JSON.parse(declared.body)).toEqual({ error: 'request body exceeds 1048576 bytes' });
        const chunked = await raw('POST', '/users', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, async function* () {
          for (let i = 0; i < 32; i++) yield Buffer.alloc(64 * 1024, 0x61);
        });
        expect(chunked.status).toBe(413);
        expect(chunked.headers.connection).toBe('close');
      });

      it('answers 400 naming the invalid field, and for malformed JSON', async () => {
        const res = await postJSON('/users', '{"name":"","email":"e@example.com"}');
        expect(res.status).toBe(400);
        expect(await errorOf(res)).toMatch(/name: must have at least 1 character/);
        const missing = await postJSON('/users', '{"name":"x"}');
        expect(await errorOf(missing)).toMatch(/email: is required/);
        const bad = await postJSON('/users', '{"name":');
        expect(bad.status).toBe(400);
        expect(await errorOf(bad)).toMatch(/not valid JSON/);
        expect(validationErrors).toContain('body:body');
      });

      it('answers 400 for bad path, query and header parameters', async () => {
        const path = await fetch(`${base}/users/not-a-uuid`);
        expect(path.status).toBe(400);
        expect(await errorOf(path)).toMatch(/path parameter "id": must be a UUID/);
        const q = await fetch(`${base}/users?limit=0`, { headers: { 'x-request-id': 'abc' } });
        expect(q.status).toBe(400);
        expect(await errorOf(q)).toMatch(/query parameter "limit": must be at least 1/);
        const h = await fetch(`${base}/users`);
        expect(h.status).toBe(400);
        expect(await errorOf(h)).toMatch(/header "X-Request-ID": is required/);
        expect(validationErrors).toEqual(expect.arrayContaining(['query:limit', 'header:X-Request-ID']));
      });

      it('validates every value of a repeated query key with multiValueQueryParams, else the first', async () => {
        const ok = await fetch(`${base}/multi?n=1&n=2`);
        expect(await ok.json()).toEqual({ n: 1 });
        const bad = await fetch(`${base}/multi?n=1&n=20`);
        expect(bad.status).toBe(400);
        expect(await errorOf(bad)).toMatch(/query parameter "n": must be at most 9/);
        const single = await fetch(`${base}/users?limit=1&limit=0`, { headers: { 'x-request-id': 'abc' } });
        expect(single.status).toBe(200);
      });

      it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
        const nf = await fetch(`${base}/nope`);
        expect(nf.status).toBe(404);
        expect(await nf.json()).toEqual({ error: 'not found' });
        const na = await fetch(`${base}/users`, { method: 'PUT' });
        expect(na.status).toBe(405);
        expect(na.headers.get('allow')).toBe('GET, HEAD, POST');
      });

      it('maps error patterns and error statuses', async () => {
        const id = '6c0a3f0e-1111-4b2a-9d55-0a0b0c0d0e0f';
        const res = await fetch(`${base}/users/${id}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: `user ${id} not found`, id });
        const tea = await fetch(`${base}/users/00000000-0000-4000-8000-000000000418`);
        expect(tea.status).toBe(418);
        expect(await tea.json()).toEqual({ error: 'short and stout' });
      });

      it('routes ErrorHandle patterns through the errorHandler with the pattern status', async () => {
        const res = await fetch(`${base}/handled`);
        expect(res.status).toBe(422);
        expect(await res.json()).toEqual({ problem: 'not processable', status: 422 });
      });

      it('hides an unexpected error behind 500', async () => {
        const res = await fetch(`${base}/boom`, { method: 'DELETE' });
        expect(res.status).toBe(500);
        const text = await res.text();
        expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
        expect(text).not.toMatch(/hunter2|secret|database/);
      });

      it('answers 503 when the handler produces no value', async () => {
        const res = await fetch(`${base}/silent`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ error: 'service unavailable' });
      });

      it('answers 406 when Accept matches no format, and honours wildcards', async () => {
        const res = await fetch(`${base}/users?limit=1`, { headers: { accept: 'application/xml', 'x-request-id': 'abc' } });
        expect(res.status).toBe(406);
        const wild = await fetch(`${base}/users?limit=1`, { headers: { accept: 'text/html, application/*;q=0.5', 'x-request-id': 'abc' } });
        expect(wild.status).toBe(200);
      });

      it('reads cookies, writes response headers and cookies with default attributes', async () => {
        const res = await fetch(`${base}/echo?say=hi`, { headers: { cookie: 'session=abcd; other=1' } });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ out: 'hi' });
        expect(res.headers.get('x-token')).toBe('t-hi');
        expect(res.headers.getSetCookie()).toEqual(['session=abcd; Path=/; HttpOnly; Secure; SameSite=Strict']);
        const badCookie = await fetch(`${base}/echo?say=hi`, { headers: { cookie: 'session=ab' } });
        expect(badCookie.status).toBe(400);
        expect(await errorOf(badCookie)).toMatch(/cookie "session": must have at least 4 characters/);
      });

      it('answers 500 when a response header breaks its contract', async () => {
        const res = await fetch(`${base}/echo?say=badheader`);
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: 'internal server error' });
      });

      it('serves and validates a body codec adapted from zod, and documents its schema', async () => {
        const ok = await postJSON('/widgets', JSON.stringify({ name: 'gear', size: 3, extra: true }));
        expect(ok.status).toBe(201);
        expect(await ok.json()).toEqual({ name: 'GEAR', size: 3 });
        const bad = await postJSON('/widgets', JSON.stringify({ name: 'g', size: -1 }));
        expect(bad.status).toBe(400);
        const message = await errorOf(bad);
        expect(message).toMatch(/name: /);
        expect(message).toMatch(/size: /);
        const doc = JSON.parse(openapi?.marshalJSON() ?? '{}') as { paths: Record<string, any>; components: { schemas: Record<string, any> } };
        expect(doc.paths['/widgets'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Widget' });
        const widget = doc.components.schemas.Widget;
        expect(widget.type).toBe('object');
        expect(widget.required).toEqual(['name', 'size']);
        expect(widget.properties.name).toMatchObject({ type: 'string', minLength: 2 });
        expect(widget.properties.size).toMatchObject({ type: 'integer', exclusiveMinimum: 0 });
        expect(widget.properties.tags).toMatchObject({ type: 'array', items: { type: 'string' } });
      });

      it('reports every response to the observer', () => {
        expect(observed.some((o) => o.route === 'POST /users' && o.status === 201)).toBe(true);
        expect(observed.some((o) => o.route === 'POST /users' && o.status === 415)).toBe(true);
      });
    });

    describe('typed client', () => {
      const client = rest.newClient();
      beforeAll(() => client.attach(clientTransport({ baseURL: base })));

      it('calls every route and merges response headers and cookies', async () => {
        const created = await client.call(createUser, { name: 'Grace', email: 'grace@example.com' });
        expect(created.name).toBe('Grace');
        expect(await client.call(getUser, { id: created.id })).toEqual(created);
        const list = await client.call(listUsers, { limit: 1, requestId: 'req-1' });
        expect(list.items).toHaveLength(1);
        expect(list.requestId).toBe('req-1');
        expect(await client.call(echo, { say: 'yo', session: 'sess-1' })).toEqual({ out: 'yo', token: 't-yo', session: 'sess-1' });
      });

      it('lets explicit per-call entries win and add undeclared parameters', async () => {
        const list = await client.call(listUsers, { limit: 50, requestId: 'from-req' }, { headerParams: { 'X-Request-ID': 'explicit-1' }, queryParams: { extra: '1' } });
        expect(list.requestId).toBe('explicit-1');
        await expect(client.call(listUsers, { requestId: 'from-req' }, { queryParams: { limit: '0' } })).rejects.toBeInstanceOf(rest.QueryParamError);
      });

      it('decodes declared error patterns into ErrorPatternResponse', async () => {
        const err = await client.call(getUser, { id: '6c0a3f0e-1111-4b2a-9d55-0a0b0c0d0e0f' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(nodeHttp.ErrorPatternResponse);
        const e = err as nodeHttp.ErrorPatternResponse<{ error: string; id: string }>;
        expect(e.statusCode).toBe(404);
        expect(e.value.id).toBe('6c0a3f0e-1111-4b2a-9d55-0a0b0c0d0e0f');
        expect(rest.errorPatternAs(err, getUser.errorRules[0] as rest.ErrorBodyMatcher<{ id: string }>)).toEqual(e.value);
        await client.call(createUser, { name: 'G2', email: 'dup@example.com' });
        const dup = await client.call(createUser, { name: 'G3', email: 'dup@example.com' }).catch((x: unknown) => x);
        expect(dup).toMatchObject({ statusCode: 409, value: { error: 'email dup@example.com is taken' } });
      });

      it('turns undeclared statuses into UnexpectedStatusError', async () => {
        const err = await client.call(getUser, { id: '00000000-0000-4000-8000-000000000418' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(nodeHttp.UnexpectedStatusError);
        expect(err).toMatchObject({ statusCode: 418, method: 'GET', path: '/users/00000000-0000-4000-8000-000000000418', body: '{"error":"short and stout"}' });
      });

      it('never sends a request whose parameters or body fail their codecs', async () => {
        const { client: counting, sent } = countingClient(base);
        await expect(counting.call(getUser, { id: 'nope' })).rejects.toBeInstanceOf(rest.PathParamError);
        await expect(counting.call(getUser, { id: '' })).rejects.toBeInstanceOf(rest.PathParamError);
        await expect(counting.call(listUsers, { limit: 0, requestId: 'abc' })).rejects.toBeInstanceOf(rest.QueryParamError);
        await expect(counting.call(listUsers, { requestId: 'x' })).rejects.toBeInstanceOf(rest.HeaderParamError);
        await expect(counting.call(echo, { say: 'x', session: 'no' })).rejects.toBeInstanceOf(rest.CookieParamError);
        await expect(counting.call(createUser, { name: '', email: 'a@example.com' })).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
        const aborted = new AbortController();
        aborted.abort();
        await expect(counting.call(listUsers, { requestId: 'abc' }, { signal: aborted.signal })).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
        expect(sent()).toBe(0);
        await counting.call(listUsers, { requestId: 'abc' });
        expect(sent()).toBe(1);
      });

      it('reports a transport failure as RequestError and a bad base URL as RequestBuildError', async () => {
        const dead = rest.newClient();
        dead.attach(clientTransport({ baseURL: 'http://127.0.0.1:1' }));
        await expect(dead.call(listUsers, { requestId: 'abc' })).rejects.toBeInstanceOf(nodeHttp.RequestError);
        const bad = rest.newClient();
        bad.attach(clientTransport({ baseURL: 'not a url' }));
        await expect(bad.call(listUsers, { requestId: 'abc' })).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
      });

      it('keeps a base URL path prefix', async () => {
        const prefixed = rest.newClient();
        prefixed.attach(clientTransport({ baseURL: `${base}/v1/` }));
        const err = await prefixed.call(listUsers, { requestId: 'abc' }).catch((e: unknown) => e);
        expect(err).toMatchObject({ statusCode: 404 });
      });

      it('refuses a second attach and calls before attach', async () => {
        expect(() => client.attach(clientTransport({ baseURL: base }))).toThrow(rest.ClientTransportAlreadyAttachedError);
        await expect(rest.newClient().call(listUsers, { requestId: 'abc' })).rejects.toBeInstanceOf(rest.ClientTransportNotAttachedError);
      });
    });
  });
}
