/**
 * CORS (the Fetch standard's CORS protocol): preflights answered for every path that has routes,
 * CORS headers on every answer to an allowed origin, declared response headers exposed.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const APP = 'https://app.example.com';

export function corsSuite(adapter: AdapterUnderTest): void {
  describe(`cors: ${adapter.name}`, () => {
    const servers: { baseURL: string; stop(): Promise<void> }[] = [];
    let base = '';
    let open = '';

    beforeAll(async () => {
      const api = rest.newServer({ title: 'CORS', version: '1.0.0' }, rest.cors({ origin: [APP], credentials: true, maxAge: 600, exposeHeaders: ['X-Extra'] }));
      interface Page {
        items: string[];
        total?: number;
      }
      const list = rest.newRoute('GET', '/c/items', codec.empty<{ n?: number }>(), codec.object({ items: codec.array(codec.string()) }) as codec.Codec<Page>,
        rest.newOptionalQueryParam('n', codec.intString(), (r) => r.n, (r, v) => {
          r.n = v;
        }),
        rest.newOptionalResponseHeaderParam('X-Total-Count', codec.intString(), (r: Page) => r.total, (r, v) => {
          r.total = v;
        }),
      );
      list.withHandler(() => ({ items: ['a'], total: 1 })).register(api);
      rest.newRoute('POST', '/c/items', codec.object({ name: codec.string() }), codec.object({ name: codec.string() })).withHandler((_ctx, req) => req).register(api);
      servers.push(await adapter.serve(api));
      base = servers[0]?.baseURL ?? '';
      // The same option through api.use, as a route-agnostic middleware.
      const star = rest.newServer({ title: 'CORS', version: '1.0.0' }).use(rest.cors({ origin: '*' }));
      rest.newRoute('GET', '/c/open', codec.empty<object>(), codec.object({ ok: codec.boolean() })).withHandler(() => ({ ok: true })).register(star);
      servers.push(await adapter.serve(star));
      open = servers[1]?.baseURL ?? '';
    });

    afterAll(async () => {
      for (const s of servers) await s.stop();
    });

    const preflight = (path: string, origin: string, method = 'POST', headers = 'content-type, authorization'): Promise<Response> =>
      fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

    it('answers a preflight for a path that has routes: 204 with the allowed origin, methods, headers and max-age', async () => {
      const res = await preflight('/c/items', APP);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('vary')).toContain('Origin');
      expect(await res.text()).toBe('');
    });

    it('gives a preflight from another origin no Allow-Origin, and keeps 405 and 404 for what is not a preflight', async () => {
      const other = await preflight('/c/items', 'https://evil.example');
      expect(other.status).toBe(204);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const plain = await fetch(`${base}/c/items`, { method: 'OPTIONS' });
      expect(plain.status).toBe(405);
      expect((await preflight('/c/nowhere', APP)).status).toBe(404);
    });

    it('adds the CORS headers to every answer to an allowed origin, exposing the declared response headers', async () => {
      const ok = await fetch(`${base}/c/items`, { headers: { origin: APP } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
      expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
      expect(ok.headers.get('access-control-expose-headers')).toBe('x-total-count, x-extra');
      expect(ok.headers.get('vary')).toBe('Origin');
      const bad = await fetch(`${base}/c/items?n=x`, { headers: { origin: APP } });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('access-control-allow-origin')).toBe(APP);
      const missing = await fetch(`${base}/c/nothing`, { headers: { origin: APP } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe(APP);
      const other = await fetch(`${base}/c/items`, { headers: { origin: 'https://evil.example' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('vary')).toBe('Origin');
    });

    it('answers * to any origin when credentials are off, without Vary', async () => {
      const res = await fetch(`${open}/c/open`, { headers: { origin: 'https://anywhere.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
    });

    it('refuses malformed options', () => {
      expect(() => rest.cors({ origin: 'app.example.com' })).toThrow(TypeError);
      expect(() => rest.cors({ origin: [APP, 'https://x.example/path'] })).toThrow(TypeError);
      expect(() => rest.cors({ origin: APP, maxAge: -1 })).toThrow(TypeError);
    });
  });
}
