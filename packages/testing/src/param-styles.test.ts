// Styled parameters (OpenAPI 3.1 §4.8.12.4) in the kit: requests writes lists and objects in
// each route's style (path simple/label/matrix, query form/spaceDelimited/pipeDelimited/
// deepObject, header simple, cookie form), so checkServer and assertServer pass on a server that
// reads them over real HTTP, invalid requests break one value inside a list or object, and the
// mock server reads them as the server does.
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { served } from '../test/served.js';
import { assertServer, checkServer, formatReport } from './check-server.js';
import { mockServer } from './mock-server.js';
import { requests } from './requests.js';

const ids = codec.array(codec.intString());
const rgb = codec.object({ R: codec.intString(), G: codec.intString(), B: codec.intString() });
const words = codec.array(codec.string());
const range = codec.object({ min: codec.optional(codec.intString()), max: codec.optional(codec.intString()) });

const stylePath = rest.route({
  method: 'GET',
  path: '/s/{simple}/{label}/{matrix}/{words}',
  pathParams: {
    simple: rest.styled(ids),
    label: rest.styled(ids, { style: 'label', explode: true }),
    matrix: rest.styled(rgb, { style: 'matrix' }),
    words: rest.styled(words),
  },
  response: codec.any(),
  meta: { operationId: 'stylePath' },
});

const styleQuery = rest.route({
  method: 'GET',
  path: '/s/query',
  query: {
    ids: rest.styled(ids, { explode: false }),
    color: rest.styled(codec.optional(rgb)),
    sp: rest.styled(codec.optional(ids), { style: 'spaceDelimited' }),
    pipe: rest.styled(codec.optional(words), { style: 'pipeDelimited' }),
    filter: rest.named('f', rest.styled(codec.optional(range), { style: 'deepObject' })),
  },
  response: codec.any(),
  meta: { operationId: 'styleQuery' },
});

const styleFields = rest.route({
  method: 'GET',
  path: '/s/fields',
  headers: { hIds: rest.named('X-Ids', rest.styled(ids)), hColor: rest.named('X-Color', rest.styled(codec.optional(rgb), { explode: true })) },
  cookies: { cWords: rest.named('c-words', rest.styled(codec.optional(words), { explode: false })), cColor: rest.named('c-color', rest.styled(rgb, { explode: false })) },
  response: codec.any(),
  meta: { operationId: 'styleFields' },
});

const styleZod = rest.route({
  method: 'GET',
  path: '/s/zod',
  query: { zc: rest.styled(z.object({ R: z.number().int().min(0), G: z.number().int().optional() }), { style: 'deepObject' }) },
  headers: { zl: rest.named('X-Z', rest.styled(z.array(z.boolean()).min(1))) },
  response: codec.any(),
  meta: { operationId: 'styleZod' },
});

const routes = [stylePath, styleQuery, styleFields, styleZod] as rest.Route<unknown, unknown>[];

/** A server echoing each request value; `seen` receives them. */
function echoServer(seen: unknown[] = []): rest.Server {
  const api = rest.newServer({ title: 'Styles', version: '1.0.0' });
  for (const r of routes) {
    r.withHandler((_ctx, req) => {
      seen.push(req);
      return req;
    }).register(api);
  }
  return api;
}

describe('requests, checkServer and the mock server with styled parameters', () => {
  it('writes each parameter in its style, and breaks a value inside a list or object for an invalid request', () => {
    for (const r of fc.sample(requests(stylePath), { numRuns: 40, seed: 5 })) {
      expect(r.target).toMatch(/^\/s\/[^/]+\/\.[^/]*\/;matrix=[^/]*\/[^/]*$/);
    }
    const query = fc.sample(requests(styleQuery), { numRuns: 60, seed: 5 });
    for (const r of query) expect(r.target).toMatch(/[?&]ids=[^&]*$|[?&]ids=[^&]*&/);
    expect(query.some((r) => /[?&]f\[(min|max)\]=/.test(r.target))).toBe(true);
    expect(query.some((r) => /[?&]pipe=[^&]*\|/.test(r.target))).toBe(true);
    for (const r of fc.sample(requests(styleFields), { numRuns: 40, seed: 5 })) {
      // Its properties as name,value pairs (keys it does not declare among them: the codec leaves them out).
      expect(r.headers['cookie']).toMatch(/(^|; )c-color=([^,;]*,[^,;]*,)*R,-?\d+(,|;|$)/);
    }
    const refused = fc.sample(requests(styleQuery, { valid: false }), { numRuns: 200, seed: 5 });
    const labels = new Set(refused.map((r) => r.breaks?.at.split(' ').slice(0, 2).join(' ')));
    expect([...labels]).toEqual(expect.arrayContaining(['query ids', 'query f', 'query sp']));
  });

  it('passes checkServer and assertServer against a server that reads the styles, each route reached', async () => {
    const seen: unknown[] = [];
    const api = echoServer(seen);
    const report = await served(api, (baseURL) => checkServer({ api, baseURL, runs: 25, seed: 11 }));
    expect(report.failures, formatReport(report)).toEqual([]);
    for (const id of ['stylePath', 'styleQuery', 'styleFields', 'styleZod']) expect(report.reach.find((r) => r.operationId === id)?.succeeded, id).toBe(true);
    // The server got lists and objects, not text.
    expect(seen.some((v) => Array.isArray((v as { label?: unknown }).label))).toBe(true);
    expect(seen.some((v) => typeof (v as { filter?: unknown }).filter === 'object')).toBe(true);
    const again = echoServer();
    await served(again, (baseURL) => assertServer({ api: again, baseURL, runs: 10, seed: 12 }));
  }, 120_000);

  it('serves a mock that reads the styles as the server does', async () => {
    const mock = await mockServer(routes, { seed: 3 });
    try {
      const client = rest.newClient();
      client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
      await client.call(stylePath, { simple: [1, 2], label: [3], matrix: { R: 1, G: 2, B: 3 }, words: ['a,b', 'c'] });
      await client.call(styleQuery, { ids: [1], color: { R: 1, G: 2, B: 3 }, sp: [4, 5], pipe: ['x|y'], filter: { min: 1 } });
      await client.call(styleFields, { hIds: [1, 2], hColor: { R: 1, G: 2, B: 3 }, cWords: ['a,b'], cColor: { R: 4, G: 5, B: 6 } });
      await client.call(styleZod, { zc: { R: 1 }, zl: [true] });
      const good = await fetch(`${mock.baseURL}/s/3,4/.5.6/;matrix=R,1,G,2,B,3/a%2Cb`);
      expect(good.status).toBe(200);
      for (const bad of ['/s/3,x/.5/;matrix=R,1,G,2,B,3/w', '/s/3/5/;matrix=R,1,G,2,B,3/w', '/s/query?ids=1&f[=1', '/s/query?ids=1,x']) {
        const res = await fetch(`${mock.baseURL}${bad}`);
        expect(res.status, bad).toBe(400);
      }
      const header = await fetch(`${mock.baseURL}/s/fields`, { headers: { 'x-ids': '1,a', cookie: 'c-color=R,1,G,2,B,3' } });
      expect(((await header.json()) as { error: string }).error).toMatch(/header "X-Ids"/);
    } finally {
      await mock.close();
    }
  });
});
