import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serveDocs } from './index.js';

const ping = rest.route({ method: 'GET', path: '/ping', response: codec.object({ ok: codec.boolean() }), meta: { operationId: 'ping' } });

/** Serves `api` on 127.0.0.1, runs `fn` with its base URL, then stops it. */
async function withServer(api: rest.Server, fn: (base: string) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
  api.attach(transport);
  const done = api.serve({ signal: stop.signal });
  const { host, port } = await transport.listening();
  try {
    await fn(`http://${host}:${port}`);
  } finally {
    stop.abort();
    await done;
  }
}

describe('serveDocs', () => {
  it('serves at the paths it is given, and only the parts asked for', async () => {
    const api = rest.newServer({ title: 'T', version: '1' });
    ping.withHandler(() => ({ ok: true })).register(api);
    expect(serveDocs(api, { documentPath: '/api/spec.json', yamlPath: false, uiPath: false })).toEqual({ documentPath: '/api/spec.json' });
    await withServer(api, async (base) => {
      expect((await fetch(`${base}/api/spec.json`)).status).toBe(200);
      for (const gone of ['/openapi.json', '/openapi.yaml', '/docs']) expect((await fetch(`${base}${gone}`)).status, gone).toBe(404);
    });
  });

  it('serves the Swagger UI bundle byte for byte from swagger-ui-dist, under a custom page path', async () => {
    const api = rest.newServer({ title: 'T', version: '1' });
    serveDocs(api, { uiPath: '/reference/', title: 'Reference' });
    const dist = createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js');
    await withServer(api, async (base) => {
      const page = await (await fetch(`${base}/reference/`)).text();
      expect(page).toContain('<title>Reference</title>');
      expect(page).toContain('src="/reference/swagger-ui-bundle.js"');
      const bundle = new Uint8Array(await (await fetch(`${base}/reference/swagger-ui-bundle.js`)).arrayBuffer());
      expect(Buffer.compare(Buffer.from(bundle), readFileSync(dist))).toBe(0);
    });
  });

  it('refuses a path a route already takes', () => {
    const api = rest.newServer({ title: 'T', version: '1' });
    rest.route({ method: 'GET', path: '/docs' }).withHandler(() => undefined).register(api);
    expect(() => serveDocs(api)).toThrow(rest.DuplicateRouteError);
  });

  it('answers 500 with the error envelope, not a crash, when the document cannot be rendered', async () => {
    const api = rest.newServer({ title: 'T', version: '1' });
    const a = codec.object({ a: codec.string() }).withName('Same');
    const b = codec.object({ b: codec.string() }).withName('Same');
    rest.route({ method: 'GET', path: '/a', response: a }).withHandler(() => ({ a: '' })).register(api);
    rest.route({ method: 'GET', path: '/b', response: b }).withHandler(() => ({ b: '' })).register(api);
    serveDocs(api);
    await withServer(api, async (base) => {
      const res = await fetch(`${base}/openapi.json`);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('Same');
    });
  });
});
