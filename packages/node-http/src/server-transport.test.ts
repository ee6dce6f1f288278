import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { prepareRoute } from '@lib/rest/pipeline';
import FindMyWay from 'find-my-way';
import { describe, expect, it } from 'vitest';
import * as nodeHttp from './index.js';

const hello = rest.newRoute('GET', '/hello/{name}', codec.empty<{ name: string }>(), codec.object({ greeting: codec.string() }),
  rest.newPathParam('name', codec.string(), (r) => r.name, (r, v) => {
    r.name = v;
  }),
);

/** Serves `api` on 127.0.0.1 through a new transport; `stop()` aborts and waits for `serve`. */
async function serveOn(api: rest.Server, options: nodeHttp.ServerTransportOptions = {}): Promise<{ readonly transport: nodeHttp.NodeServerTransport; readonly port: number; stop(): Promise<void> }> {
  const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0', ...options });
  api.attach(transport);
  const abort = new AbortController();
  const served = api.serve({ signal: abort.signal });
  const { port } = await transport.listening();
  return {
    transport,
    port,
    stop: async () => {
      abort.abort();
      await served;
    },
  };
}

describe('parseAddr', () => {
  it('parses host:port and rejects anything else', () => {
    expect(nodeHttp.parseAddr('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(nodeHttp.parseAddr('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(nodeHttp.parseAddr(':9')).toEqual({ host: '127.0.0.1', port: 9 });
    for (const bad of ['localhost', '1.2.3.4:99999', 'a:b']) expect(() => nodeHttp.parseAddr(bad)).toThrow(TypeError);
    expect(() => nodeHttp.newServerTransport({ addr: 'nope' })).toThrow(TypeError);
  });
});

describe('NodeServerTransport', () => {
  it('serves through a listener of the user’s own server, and decodes path variables', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((ctx, req) => {
      nodeHttp.responseHeadersFromContext(ctx)?.set('x-handled-by', 'hello');
      nodeHttp.withResponseCookies(ctx, { name: 'seen', value: '1', attributes: { insecure: true, maxAge: 60, sameSite: 'lax' } });
      return { greeting: `hello ${req.name}` };
    }).register(api);
    const transport = nodeHttp.newServerTransport();
    api.attach(transport);
    await api.serve();
    expect(transport.address()).toBeUndefined();
    const server = createServer(transport.listener);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/hello/J%C3%BCrgen%20K`);
      expect(await res.json()).toEqual({ greeting: 'hello Jürgen K' });
      expect(res.headers.get('x-handled-by')).toBe('hello');
      expect(res.headers.getSetCookie()).toEqual(['seen=1; Max-Age=60; Path=/; HttpOnly; SameSite=Lax']);
      const head = await fetch(`http://127.0.0.1:${port}/hello/x`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('routes the path with its dot segments removed, and answers 404, and 405 with Allow, for what it does not route', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((_ctx, req) => ({ greeting: req.name })).register(api);
    const { port, stop } = await serveOn(api);
    try {
      const { request } = await import('node:http');
      // fetch would remove the dot segments itself: node:http sends the target as written.
      const status = (method: string, path: string): Promise<[number, string | undefined]> =>
        new Promise((resolve, reject) => {
          const r = request({ host: '127.0.0.1', port, method, path }, (res) => {
            res.resume();
            resolve([res.statusCode ?? 0, res.headers.allow]);
          });
          r.on('error', reject);
          r.end();
        });
      expect(await status('GET', '/x/../hello/dots')).toEqual([200, undefined]);
      expect(await status('GET', '/x/%2e%2e/hello/dots')).toEqual([200, undefined]);
      expect(await status('GET', '/nowhere')).toEqual([404, undefined]);
      expect((await status('DELETE', '/hello/x'))[0]).toBe(405);
      expect((await status('DELETE', '/hello/x'))[1]).toMatch(/GET/);
    } finally {
      await stop();
    }
  });

  it('answers 500 and stays up when a route of the user’s own on the shared mux throws', async () => {
    const mux = FindMyWay();
    mux.on('GET', '/own', () => {
      throw new Error('own route is broken');
    });
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((_ctx, req) => ({ greeting: req.name })).register(api);
    const { port, stop } = await serveOn(api, { mux });
    const res = await fetch(`http://127.0.0.1:${port}/own`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal server error' });
    expect((await fetch(`http://127.0.0.1:${port}/hello/z`)).status).toBe(200);
    await stop();
  });

  it('answers unparseable requests with a JSON envelope on a server of the user’s own', async () => {
    const server = createServer(nodeHttp.newServerTransport().listener);
    server.on('clientError', nodeHttp.clientErrorListener);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const { connect } = await import('node:net');
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('NOT HTTP\r\n\r\n'));
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
      socket.on('close', () => resolve(data));
    });
    server.close();
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(reply.endsWith('\r\n\r\n{"error":"bad request"}')).toBe(true);
  });

  it('validates its timeouts', () => {
    for (const bad of [-1, NaN, Infinity]) {
      expect(() => nodeHttp.newServerTransport({ headersTimeout: bad })).toThrow(TypeError);
      expect(() => nodeHttp.newServerTransport({ requestTimeout: bad })).toThrow(TypeError);
      expect(() => nodeHttp.newServerTransport({ keepAliveTimeout: bad })).toThrow(TypeError);
    }
    expect(() => nodeHttp.newServerTransport({ headersTimeout: 2000, requestTimeout: 1000 })).toThrow(/must not exceed/);
  });

  it('enforces headersTimeout: a client that never finishes its headers gets 408', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((_ctx, req) => ({ greeting: req.name })).register(api);
    const { port, stop } = await serveOn(api, { headersTimeout: 300, requestTimeout: 300 });
    const { connect } = await import('node:net');
    const t0 = performance.now();
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /hello/z HTTP/1.1\r\nHost: t\r\n'));
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
      socket.on('close', () => resolve(data));
    });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(reply.endsWith('{"error":"request timeout"}')).toBe(true);
    await stop();
  });

  it('shares a mux with routes of the user’s own and rejects duplicate routes', async () => {
    const mux = FindMyWay();
    mux.on('GET', '/health', (_req, res) => res.end('ok'));
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((_ctx, req) => ({ greeting: req.name })).register(api);
    const { transport, port, stop } = await serveOn(api, { mux });
    expect(transport.address()).toEqual({ host: '127.0.0.1', port });
    expect(await (await fetch(`http://127.0.0.1:${port}/health`)).text()).toBe('ok');
    expect(await (await fetch(`http://127.0.0.1:${port}/hello/z`)).json()).toEqual({ greeting: 'z' });
    const fresh = nodeHttp.newServerTransport();
    const prepared = api.handles().map((h) => prepareRoute(h));
    fresh.mount(prepared);
    expect(() => fresh.mount(prepared)).toThrow(rest.DuplicateRouteError);
    await stop();
  });

  it('drains in-flight requests before serve resolves', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    hello.withHandler(async (_ctx, req) => {
      entered();
      await gate;
      return { greeting: req.name };
    }).register(api);
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    let resolved = false;
    const served = api.serve({ signal: stop.signal }).then(() => (resolved = true));
    const { port } = await transport.listening();
    const inflight = fetch(`http://127.0.0.1:${port}/hello/slow`);
    await inHandler;
    stop.abort();
    await new Promise((r) => setTimeout(r, 50));
    expect(resolved).toBe(false);
    release();
    expect(await (await inflight).json()).toEqual({ greeting: 'slow' });
    await served;
    expect(resolved).toBe(true);
  });

  it('aborts ctx.signal when the client goes away mid-request', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    let seen: ((reason: unknown) => void) | undefined;
    const aborted = new Promise<unknown>((r) => (seen = r));
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    hello.withHandler(
      (ctx) =>
        new Promise((_resolve, reject) => {
          entered();
          ctx.signal.addEventListener('abort', () => {
            seen?.(ctx.signal.reason);
            reject(ctx.signal.reason as Error);
          });
        }),
    ).register(api);
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const served = api.serve({ signal: stop.signal });
    const { port } = await transport.listening();
    const client = new AbortController();
    const call = fetch(`http://127.0.0.1:${port}/hello/x`, { signal: client.signal }).catch((e: unknown) => e);
    await inHandler;
    client.abort();
    expect(String(await aborted)).toMatch(/client closed the connection/);
    expect(await call).toBeInstanceOf(Error);
    stop.abort();
    await served;
  });

  it('rejects serve when the address is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const api = rest.newServer({ title: 't', version: '1' });
      const transport = nodeHttp.newServerTransport({ addr: `127.0.0.1:${port}` });
      api.attach(transport);
      await expect(api.serve()).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});

describe('setCookie', () => {
  it('appends to a node:http ServerResponse, beside cookies already set (a route of your own on the shared mux)', async () => {
    const mux = FindMyWay();
    mux.on('GET', '/own', (_req, res) => {
      (res as ServerResponse).setHeader('set-cookie', ['first=1; Path=/']);
      nodeHttp.setCookie(res as ServerResponse, 'sid', 'abc123', { codec: codec.string(), maxAge: 60 });
      res.end('ok');
    });
    const api = rest.newServer({ title: 't', version: '1' });
    hello.withHandler((_ctx, r) => ({ greeting: r.name })).register(api);
    const served = await serveOn(api, { mux });
    try {
      const res = await fetch(`http://127.0.0.1:${served.port}/own`);
      expect(res.headers.getSetCookie()).toEqual(['first=1; Path=/', 'sid=abc123; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Strict']);
    } finally {
      await served.stop();
    }
  });

  it('validates with the codec and applies default attributes', () => {
    const headers = new Headers();
    nodeHttp.setCookie(headers, 'sid', 'abc123', { codec: codec.string(), maxAge: 3600 });
    expect(headers.getSetCookie()).toEqual(['sid=abc123; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Strict']);
    expect(() => nodeHttp.setCookie(headers, 'sid', '', { codec: codec.string().refine({ name: 'nonEmpty', test: (v) => v !== '', message: () => 'must not be empty' }) })).toThrow(rest.CookieParamError);
  });
});

describe('@lib/node-http/client', () => {
  it('loads without node: modules (its sources and those of the packages it imports)', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const files = [join(here, 'client.ts'), join(here, 'client-transport.ts')];
    for (const pkg of ['rest', 'codec', 'format', 'openapi']) {
      const dir = join(here, '..', '..', pkg, 'src');
      const walk = (d: string): void => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(d, e.name));
          else if (e.name.endsWith('.ts') && !e.name.includes('.test')) files.push(join(d, e.name));
        }
      };
      walk(dir);
    }
    const offenders = files.filter((f) => /from ['"]node:|require\(['"]node:/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
    expect(files.length).toBeGreaterThan(20);
  });
});
