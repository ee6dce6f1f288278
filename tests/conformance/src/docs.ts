/**
 * Serving the API's own document and docs page (`@lib/openapi-ui`'s `serveDocs`) over real
 * HTTP: JSON, YAML by `Accept` and by path, the Swagger UI page and its files, and the document
 * leaving those routes out.
 */
import * as codec from '@lib/codec';
import { serveDocs } from '@lib/openapi-ui';
import * as rest from '@lib/rest';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const ping = rest.route({ method: 'GET', path: '/ping', response: codec.object({ ok: codec.boolean() }), meta: { operationId: 'ping', summary: 'Ping' } });

export function docs(adapter: AdapterUnderTest): void {
  describe(`docs: ${adapter.name}`, () => {
    let server: { baseURL: string; stop(): Promise<void> } | undefined;
    let api: rest.Server;
    const url = (path: string): string => `${server?.baseURL ?? ''}${path}`;

    beforeAll(async () => {
      api = rest.newServer({ title: 'Ping <API>', version: '1.0.0' });
      api.addServer('production', { url: 'https://api.example.com' });
      ping.withHandler(() => ({ ok: true })).register(api);
      serveDocs(api, { sameOrigin: true });
      // Registered after serveDocs: still in the document, which is rendered at the first request.
      rest.route({ method: 'GET', path: '/late', meta: { operationId: 'late', summary: 'Late' } }).withHandler(() => undefined).register(api);
      server = await adapter.serve(api);
    });

    afterAll(async () => {
      await server?.stop();
    });

    it('serves the document as JSON, byte for byte what the renderer writes, without its own routes', async () => {
      const res = await fetch(url('/openapi.json'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const text = await res.text();
      const doc = JSON.parse(text) as { paths: Record<string, unknown>; servers: { url: string }[] };
      expect(Object.keys(doc.paths)).toEqual(['/ping', '/late']);
      // sameOrigin: this server first, then the declared ones.
      expect(doc.servers).toEqual([{ url: '/', description: 'This server' }, { url: 'https://api.example.com', description: 'production' }]);
      const expected = api.openAPISpec();
      expected.servers = doc.servers;
      expect(text).toBe(expected.marshalJSON());
      // The builder's own document leaves the docs routes out too.
      expect(Object.keys(api.openAPISpec().paths)).toEqual(['/ping', '/late']);
    });

    it('serves YAML at its own path and by Accept at the JSON path, and 406 for neither', async () => {
      const yaml = await fetch(url('/openapi.yaml'));
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toBe('application/yaml');
      const yamlText = await yaml.text();
      const json = (await (await fetch(url('/openapi.json'))).json()) as unknown;
      expect(parse(yamlText)).toEqual(json);
      const negotiated = await fetch(url('/openapi.json'), { headers: { accept: 'application/yaml' } });
      expect(negotiated.headers.get('content-type')).toBe('application/yaml');
      expect(await negotiated.text()).toBe(yamlText);
      const refused = await fetch(url('/openapi.json'), { headers: { accept: 'text/csv' } });
      expect(refused.status).toBe(406);
    });

    it('serves the Swagger UI page and its files from the package, no CDN', async () => {
      const page = await fetch(url('/docs'), { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('<title>Ping &#60;API&#62;</title>');
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
      expect(sources).toEqual(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']);
      for (const [path, type, marker] of [
        ['/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8', 'SwaggerUIBundle'],
        ['/docs/swagger-ui.css', 'text/css; charset=utf-8', '.swagger-ui'],
        ['/docs/init.js', 'text/javascript; charset=utf-8', '"/openapi.json"'],
      ] as const) {
        const res = await fetch(url(path));
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toBe(type);
        expect(await res.text(), path).toContain(marker);
      }
    });

    it('leaves other methods on its paths to the usual 405', async () => {
      const res = await fetch(url('/openapi.json'), { method: 'POST' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('GET');
    });
  });
}
