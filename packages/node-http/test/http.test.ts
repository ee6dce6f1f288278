import { request } from 'node:http';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as nodeHttp from '../src/index.js';
import { boom, ConflictError, createUser, getUser, listUsers, NotFoundError, TeapotError, type User } from './fixtures.js';

const users = new Map<string, User>();
let base = '';
const stop = new AbortController();
let served: Promise<void>;
let handlerCalls = 0;

beforeAll(async () => {
  const api = rest.newServer({ title: 'Users', version: '1.0.0' });
  createUser
    .withHandler((_ctx, req) => {
      handlerCalls++;
      if ([...users.values()].some((u) => u.email === req.email)) throw new ConflictError(req.email);
      const u = { id: crypto.randomUUID(), ...req };
      users.set(u.id, u);
      return u;
    })
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
    .register(api);
  boom
    .withHandler(() => {
      throw new Error('secret database password is hunter2');
    })
    .register(api);
  const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
  api.attach(transport);
  served = api.serve({ signal: stop.signal });
  const { port } = await transport.listening();
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  stop.abort();
  await served;
});

function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer | (() => AsyncIterable<Buffer>)): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (err) => reject(err));
    if (typeof body === 'function') {
      void (async () => {
        for await (const chunk of body()) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(() => undefined);
    } else req.end(body);
  });
}

describe('server pipeline over real HTTP', () => {
  it('creates with 201 and reads back', async () => {
    const res = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }) });
    expect(res.status).toBe(201);
    const created = (await res.json()) as User;
    expect(created).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
    const got = await fetch(`${base}/users/${created.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(created);
  });

  it('rejects a wrong Content-Type with 415 before the handler', async () => {
    const before = handlerCalls;
    const res = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"x","email":"x@example.com"}' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: string }).error).toMatch(/unsupported media type "text\/plain"/);
    expect(handlerCalls).toBe(before);
  });

  it('rejects a 2 MiB body with 413, declared or chunked', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
    const declared = await raw('POST', '/users', { 'content-type': 'application/json', 'content-length': String(big.length) }, big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ error: 'request body exceeds 1048576 bytes' });
    let sent = 0;
    const chunked = await raw('POST', '/users', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, async function* () {
      for (let i = 0; i < 32; i++) {
        sent += 64 * 1024;
        yield Buffer.alloc(64 * 1024, 0x61);
      }
    });
    expect(chunked.status).toBe(413);
    expect(chunked.headers.connection).toBe('close');
    expect(sent).toBeGreaterThan(1024 * 1024);
  });

  it('answers 400 naming the invalid field', async () => {
    const res = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"","email":"e@example.com"}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/name: must have at least 1 character/);
    const bad = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/not valid JSON/);
  });

  it('answers 400 for bad path, query and header parameters', async () => {
    const path = await fetch(`${base}/users/not-a-uuid`);
    expect(path.status).toBe(400);
    expect(((await path.json()) as { error: string }).error).toMatch(/path parameter "id": must be a UUID/);
    const q = await fetch(`${base}/users?limit=0`, { headers: { 'x-request-id': 'abc' } });
    expect(q.status).toBe(400);
    expect(((await q.json()) as { error: string }).error).toMatch(/query parameter "limit": must be at least 1/);
    const h = await fetch(`${base}/users`);
    expect(h.status).toBe(400);
    expect(((await h.json()) as { error: string }).error).toMatch(/header "X-Request-ID": is required/);
  });

  it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
    const nf = await fetch(`${base}/nope`);
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ error: 'not found' });
    const na = await fetch(`${base}/users`, { method: 'PUT' });
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
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

  it('hides an unexpected error behind 500', async () => {
    const res = await fetch(`${base}/boom`, { method: 'DELETE' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
    expect(text).not.toMatch(/hunter2|secret|database/);
  });

  it('answers 406 when Accept matches no format', async () => {
    const res = await fetch(`${base}/users?limit=1`, { headers: { accept: 'application/xml', 'x-request-id': 'abc' } });
    expect(res.status).toBe(406);
  });
});

describe('typed client over real HTTP', () => {
  const client = rest.newClient();
  beforeAll(() => client.attach(nodeHttp.newClientTransport({ baseURL: base })));

  it('calls every route and merges response headers', async () => {
    const created = await client.call(createUser, { name: 'Grace', email: 'grace@example.com' });
    expect(created.name).toBe('Grace');
    expect(await client.call(getUser, { id: created.id })).toEqual(created);
    const list = await client.call(listUsers, { limit: 1, requestId: 'req-1' });
    expect(list.items).toHaveLength(1);
    expect(list.requestId).toBe('req-1');
    expect(list.total).toBeGreaterThanOrEqual(1);
  });

  it('decodes declared error patterns into ErrorPatternResponse', async () => {
    const err = await client.call(getUser, { id: '6c0a3f0e-1111-4b2a-9d55-0a0b0c0d0e0f' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(nodeHttp.ErrorPatternResponse);
    const e = err as nodeHttp.ErrorPatternResponse<{ error: string; id: string }>;
    expect(e.statusCode).toBe(404);
    expect(e.value.id).toBe('6c0a3f0e-1111-4b2a-9d55-0a0b0c0d0e0f');
    expect(rest.errorPatternAs(err, getUser.errorRules[0] as rest.ErrorPattern<unknown, { id: string }>)).toEqual(e.value);
    await client.call(createUser, { name: 'G2', email: 'dup@example.com' });
    const dup = await client.call(createUser, { name: 'G3', email: 'dup@example.com' }).catch((x: unknown) => x);
    expect(dup).toMatchObject({ statusCode: 409, value: { error: 'email dup@example.com is taken' } });
  });

  it('turns undeclared statuses into UnexpectedStatusError', async () => {
    const err = await client.call(getUser, { id: '00000000-0000-4000-8000-000000000418' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(nodeHttp.UnexpectedStatusError);
    expect(err).toMatchObject({ statusCode: 418, method: 'GET', path: '/users/00000000-0000-4000-8000-000000000418' });
  });

  it('never sends a request whose parameters fail their codecs', async () => {
    let sent = 0;
    const counting = rest.newClient();
    counting.attach(
      nodeHttp.newClientTransport({
        baseURL: base,
        httpClient: (input, init) => {
          sent++;
          return fetch(input, init);
        },
      }),
    );
    await expect(counting.call(getUser, { id: 'nope' })).rejects.toBeInstanceOf(rest.PathParamError);
    await expect(counting.call(getUser, { id: '' })).rejects.toBeInstanceOf(rest.PathParamError);
    await expect(counting.call(listUsers, { limit: 0, requestId: 'abc' })).rejects.toBeInstanceOf(rest.QueryParamError);
    await expect(counting.call(listUsers, { requestId: 'x' })).rejects.toBeInstanceOf(rest.HeaderParamError);
    await expect(counting.call(createUser, { name: '', email: 'a@example.com' })).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
    expect(sent).toBe(0);
    await counting.call(listUsers, { requestId: 'abc' });
    expect(sent).toBe(1);
  });

  it('reports a transport failure as RequestError and a bad base URL as RequestBuildError', async () => {
    const dead = rest.newClient();
    dead.attach(nodeHttp.newClientTransport({ baseURL: 'http://127.0.0.1:1' }));
    await expect(dead.call(listUsers, { requestId: 'abc' })).rejects.toBeInstanceOf(nodeHttp.RequestError);
    const bad = rest.newClient();
    bad.attach(nodeHttp.newClientTransport({ baseURL: 'not a url' }));
    await expect(bad.call(listUsers, { requestId: 'abc' })).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
  });

  it('refuses a second attach', () => {
    expect(() => client.attach(nodeHttp.newClientTransport({ baseURL: base }))).toThrow(rest.ClientTransportAlreadyAttachedError);
  });
});
