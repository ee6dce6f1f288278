/**
 * A base path (`rest.withBasePath('/api/v1')`) over real HTTP: every route answers under the
 * prefix and nowhere else, 404 and 405 keep their shape there, the typed client reaches it through
 * its `baseURL`, `api.buildPath` and redirects include it, and the document says it in `servers`.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const item = codec.object({ id: codec.string(), name: codec.string() });
const getItem = rest.route({ method: 'GET', path: '/items/{id}', pathParams: { id: codec.string() }, response: item, meta: { operationId: 'bpGetItem' } });
const createItem = rest.route({ method: 'POST', path: '/items', body: codec.object({ name: codec.string() }), response: item, meta: { operationId: 'bpCreateItem' } });
const oldItem = rest.route({ method: 'GET', path: '/old/{id}', pathParams: { id: codec.string() }, meta: { operationId: 'bpOldItem' } });

export function basePath(adapter: AdapterUnderTest): void {
  describe(`base path: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Under a prefix', version: '1' }, rest.withBasePath('/api/v1'));
      getItem.withHandler((_ctx, req) => ({ id: req.id, name: `item ${req.id}` })).register(api);
      createItem.withHandler((_ctx, req) => ({ id: '7', name: req.name })).register(api);
      oldItem.withHandler((_ctx, req) => rest.redirect(301, getItem, { id: req.id })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: `${base}/api/v1` }));
    });
    afterAll(() => stop());

    it('answers every route under the prefix, and nothing outside it', async () => {
      const res = await fetch(`${base}/api/v1/items/3`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: '3', name: 'item 3' });
      for (const outside of ['/items/3', '/api/items/3', '/api/v1x/items/3', '/api/v1']) expect((await fetch(`${base}${outside}`)).status, outside).toBe(404);
      const wrongMethod = await fetch(`${base}/api/v1/items/3`, { method: 'DELETE' });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toContain('GET');
    });

    it('is reached by the typed client through its baseURL', async () => {
      expect(await client.call(getItem, { id: 'a' })).toEqual({ id: 'a', name: 'item a' });
      expect(await client.call(createItem, { name: 'new' })).toEqual({ id: '7', name: 'new' });
    });

    it('includes the prefix in api.buildPath and in a redirect; route.buildPath stays relative to the API root', async () => {
      expect(api.buildPath(getItem, { id: 'x y' })).toBe('/api/v1/items/x%20y');
      expect(getItem.buildPath({ id: 'x' })).toBe('/items/x');
      const moved = await fetch(`${base}/api/v1/old/5`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe('/api/v1/items/5');
    });

    it('documents the prefix in servers, not in the paths', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { servers: { url: string }[]; paths: Record<string, unknown> };
      expect(doc.servers).toEqual([{ url: '/api/v1' }]);
      expect(Object.keys(doc.paths)).toEqual(['/items/{id}', '/items', '/old/{id}']);
      const named = rest.newServer({ title: 't', version: '1' }, rest.withBasePath('/api'));
      named.addServer('production', { url: 'https://api.example.com/' }).addServer('local', { url: 'http://127.0.0.1:8080' });
      const servers = (JSON.parse(named.openAPISpec().marshalJSON()) as { servers: { url: string; description?: string }[] }).servers;
      expect(servers).toEqual([
        { url: 'https://api.example.com/api', description: 'production' },
        { url: 'http://127.0.0.1:8080/api', description: 'local' },
      ]);
    });

    it('refuses a base path that is not one', () => {
      for (const bad of ['api', '/api/', '/api//v1', '/{tenant}', '/a b', '/..']) expect(() => rest.withBasePath(bad), bad).toThrow(TypeError);
      expect(rest.withBasePath('/').basePath).toBe('');
    });
  });
}
