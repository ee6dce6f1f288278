/**
 * Mounting an API into an app a team already has, as docs/adapters.md shows it: the node:http
 * listener under `/api` of an existing node:http server, the router adapter's app inside a larger
 * Hono app, and the fetch handler a framework route file takes (`(Request) => Response`). Each
 * serves its API under `rest.withBasePath('/api')`, answers the rest of the app untouched, and
 * keeps its own 404 and 405 under the prefix.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as hono from '@lib/router-adapter';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const getPing = rest.route({ method: 'GET', path: '/ping/{name}', pathParams: { name: codec.string() }, response: codec.object({ pong: codec.string() }), meta: { operationId: 'mountPing' } });

/** A builder serving `getPing` under `/api`. */
async function pingApi(transport: rest.ServerTransport): Promise<rest.Server> {
  const api = rest.newServer({ title: 'Mounted', version: '1' }, rest.withBasePath('/api'));
  getPing.withHandler((_ctx, req) => ({ pong: req.name })).register(api);
  api.attach(transport);
  await api.serve({}); // no addr: wires the routes; the app serves them
  return api;
}

/** What every mount must answer: the API under the prefix, the app's own route, our 404 and 405. */
async function expectMounted(get: (path: string, method?: string) => Promise<Response>): Promise<void> {
  const ok = await get('/api/ping/ada');
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ pong: 'ada' });
  const own = await get('/health');
  expect(await own.text()).toBe('the app’s own route');
  const missing = await get('/api/nothing-here');
  expect(missing.status).toBe(404);
  expect(missing.headers.get('content-type')).toContain('application/json');
  const wrongMethod = await get('/api/ping/ada', 'DELETE');
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toContain('GET');
}

describe('mounting into an existing app', () => {
  describe('the node:http listener under /api of an existing node:http server', () => {
    let server: HttpServer;
    let base = '';
    beforeAll(async () => {
      const transport = nodeHttp.newServerTransport({});
      await pingApi(transport);
      // The app a team already has: /api/* goes to the API's listener, the rest stays the app's.
      server = createServer((req, res) => {
        if (req.url === '/api' || req.url?.startsWith('/api/') === true) return transport.listener(req, res);
        res.end('the app’s own route');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );

    it('serves the API under the prefix over real HTTP, and the typed client reaches it', async () => {
      await expectMounted((path, method = 'GET') => fetch(`${base}${path}`, { method }));
      const client = rest.newClient();
      client.attach(nodeHttp.newClientTransport({ baseURL: `${base}/api` }));
      expect(await client.call(getPing, { name: 'grace' })).toEqual({ pong: 'grace' });
    });
  });

  describe('the router adapter inside a larger Hono app', () => {
    it('takes every request under /api from the app, through its fetch handler', async () => {
      const transport = hono.newServerTransport();
      await pingApi(transport);
      const app = new Hono();
      app.get('/health', (c) => c.text('the app’s own route'));
      app.all('/api/*', (c) => transport.router.fetch(c.req.raw));
      await expectMounted((path, method = 'GET') => Promise.resolve(app.fetch(new Request(`http://app.example${path}`, { method }))));
    });
  });

  describe('a fetch handler for a framework route file', () => {
    it('answers a (Request) => Response handler, as a catch-all route file under /api takes it', async () => {
      const transport = hono.newServerTransport();
      await pingApi(transport);
      // app/api/[...path]/route.ts of a Next.js app: export { handler as GET, handler as POST, … }
      const handler = (request: Request): Response | Promise<Response> => transport.router.fetch(request);
      const framework = (request: Request): Response | Promise<Response> =>
        new URL(request.url).pathname.startsWith('/api/') ? handler(request) : new Response('the app’s own route');
      await expectMounted((path, method = 'GET') => Promise.resolve(framework(new Request(`http://app.example${path}`, { method }))));
    });
  });
});
