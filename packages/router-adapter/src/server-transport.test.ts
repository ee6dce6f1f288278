import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as hono from './index.js';

const item = codec.object({ id: codec.string(), seenBy: codec.string() });
const getItem = rest.newRoute('GET', '/items/{id}', codec.empty<{ id: string }>(), item, rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
  r.id = v;
}));
const create = rest.newRoute('POST', '/items', codec.object({ id: codec.string() }), item);

/** The transport with both routes, served on `app` (or a new Hono app), without a socket. */
async function served(app?: Hono): Promise<hono.HonoServerTransport> {
  const api = rest.newServer({ title: 't', version: '1' });
  getItem
    .withHandler((ctx, r) => {
      const request = hono.requestFromContext(ctx);
      const c = hono.honoContextFromContext(ctx);
      return { id: r.id, seenBy: `${request?.headers.get('x-who') ?? '?'}/${String(c?.get('tenant' as never) ?? '-')}` };
    })
    .register(api);
  create.withHandler((_ctx, r) => ({ id: r.id, seenBy: 'post' })).register(api);
  const transport = hono.newServerTransport(app === undefined ? {} : { router: app });
  api.attach(transport);
  await api.serve({});
  return transport;
}

describe('router.fetch without a socket', () => {
  it('serves a Request as an edge runtime would: params, the native request, 404, 405 with Allow, 415', async () => {
    const t = await served();
    const ok = await t.router.fetch(new Request('http://edge.test/items/42', { headers: { 'x-who': 'edge' } }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: '42', seenBy: 'edge/-' });
    const none = await t.router.fetch(new Request('http://edge.test/nope'));
    expect([none.status, await none.json()]).toEqual([404, { error: 'not found' }]);
    const wrong = await t.router.fetch(new Request('http://edge.test/items/42', { method: 'PUT' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    const created = await t.router.fetch(new Request('http://edge.test/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"7"}' }));
    expect([created.status, await created.json()]).toEqual([201, { id: '7', seenBy: 'post' }]);
    const text = await t.router.fetch(new Request('http://edge.test/items', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }));
    expect(text.status).toBe(415);
    expect(t.address()).toBeUndefined();
  });

  it('reads a body up to the limit from a stream, then drops at most 16 MiB more before answering', async () => {
    const t = await served();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const res = await t.router.fetch(new Request('http://edge.test/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(413);
    // 1 MiB in 64 KiB chunks: the pipeline stops at the 17th; what follows is read and dropped
    // (so that a runtime that closes the connection on an early answer still delivers it), up to
    // 16 MiB and never held: an endless body costs at most 17 + 257 chunks of reading.
    expect(pulled).toBeGreaterThan(17);
    expect(pulled).toBeLessThan(17 + 260);
  });

  it('leaves the user\'s own Hono routes and middleware working on the same app', async () => {
    const app = new Hono<{ Variables: { tenant: string } }>();
    app.use('*', async (c, next) => {
      c.set('tenant', 'acme');
      await next();
      c.header('x-powered-by', 'hono middleware');
    });
    app.get('/health', (c) => c.text('ok'));
    const t = await served(app as unknown as Hono);
    const health = await t.router.fetch(new Request('http://edge.test/health'));
    expect([health.status, await health.text(), health.headers.get('x-powered-by')]).toEqual([200, 'ok', 'hono middleware']);
    const ours = await t.router.fetch(new Request('http://edge.test/items/1', { headers: { 'x-who': 'me' } }));
    expect(await ours.json()).toEqual({ id: '1', seenBy: 'me/acme' });
    expect(ours.headers.get('x-powered-by')).toBe('hono middleware');
  });

  it('prefers a literal segment to a parameter, whatever the registration order (as find-my-way does)', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    rest.newRoute('GET', '/users/{id}', codec.empty<{ id: string }>(), codec.string(), rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
      r.id = v;
    })).withHandler((_ctx, r) => `user ${r.id}`).register(api);
    rest.newRoute('GET', '/users', codec.empty<object>(), codec.string()).withHandler(() => 'list').register(api);
    rest.newRoute('GET', '/users/events', codec.empty<object>(), codec.string()).withHandler(() => 'events').register(api);
    const t = hono.newServerTransport();
    api.attach(t);
    await api.serve({});
    const text = async (path: string): Promise<unknown> => (await t.router.fetch(new Request(`http://x${path}`))).json();
    expect([await text('/users/events'), await text('/users/7'), await text('/users')]).toEqual(['events', 'user 7', 'list']);
  });

  it('refuses two routes with the same method and path', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    getItem.withHandler(() => ({ id: '', seenBy: '' })).register(api);
    const t = hono.newServerTransport();
    t.mount([]);
    api.attach(t);
    await api.serve({});
    const again = rest.newServer({ title: 't', version: '1' });
    getItem.withHandler(() => ({ id: '', seenBy: '' })).register(again);
    again.attach(t);
    await expect(again.serve({})).rejects.toBeInstanceOf(rest.DuplicateRouteError);
  });
});

describe('served on Node with addr', () => {
  it('answers through the lightweight response path, leaves the global Request and Response alone, and keeps Hono middleware and c.env working', async () => {
    const globals = [globalThis.Request, globalThis.Response];
    const app = new Hono<{ Bindings: { incoming?: { httpVersion: string } } }>();
    const classes: boolean[] = [];
    app.use('*', async (c, next) => {
      await next();
      // The route answered with @hono/node-server's lightweight Response, not the runtime's.
      classes.push(c.res instanceof Response && c.res.constructor !== Response);
      c.header('x-after', 'middleware');
    });
    app.get('/raw', (c) => c.text(`node ${c.env.incoming?.httpVersion ?? 'none'}`));
    const api = rest.newServer({ title: 't', version: '1' });
    create.withHandler((_ctx, r) => ({ id: r.id, seenBy: 'post' })).register(api);
    rest
      .newRoute('GET', '/cookies', codec.empty<object>(), codec.string())
      .withHandler((ctx) => {
        rest.withResponseCookies(ctx, { name: 'a', value: '1', attributes: { insecure: true } }, { name: 'b', value: '2', attributes: { insecure: true } });
        return 'two cookies';
      })
      .register(api);
    const transport = hono.newServerTransport({ router: app as unknown as Hono, addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const serving = api.serve({ signal: stop.signal });
    try {
      const { port } = await transport.listening();
      const base = `http://127.0.0.1:${port}`;
      expect([globalThis.Request, globalThis.Response]).toEqual(globals);
      const created = await fetch(`${base}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"9"}' });
      expect([created.status, created.headers.get('content-length'), created.headers.get('x-after'), await created.json()]).toEqual([201, '26', 'middleware', { id: '9', seenBy: 'post' }]);
      const cookies = await fetch(`${base}/cookies`);
      expect([cookies.status, cookies.headers.getSetCookie(), cookies.headers.get('x-after'), await cookies.json()]).toEqual([200, ['a=1; Path=/; HttpOnly; SameSite=Strict', 'b=2; Path=/; HttpOnly; SameSite=Strict'], 'middleware', 'two cookies']);
      const raw = await fetch(`${base}/raw`);
      expect(await raw.text()).toBe('node 1.1');
      const tooBig = await fetch(`${base}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"id":"${'x'.repeat(2 << 20)}"}` });
      expect(tooBig.status).toBe(413);
      expect(classes).toEqual([true, true, false, true]);
      expect([globalThis.Request, globalThis.Response]).toEqual(globals);
    } finally {
      stop.abort();
      await serving;
    }
  });
});
