// The kit on an error response with headers (`errorPattern(...).withHeaders(...)`): checkServer
// holds a server to the headers the document declares for the status, and the mock writes them,
// so that the typed client decodes them.
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { checkServer } from './check-server.js';
import { mockServer } from './mock-server.js';

class RateLimited extends Error {
  constructor(readonly seconds: number) {
    super('slow down');
  }
}
const problem = codec.object({ title: codec.string() });
const limited = rest
  .errorPattern(RateLimited, 429, problem, (e) => ({ title: e.message }))
  .withHeaders({ retryAfter: rest.named('Retry-After', codec.intString()) }, (e) => ({ retryAfter: e.seconds }));
const search = rest.route({ method: 'GET', path: '/search', response: codec.object({ hits: codec.int() }), errors: [limited], meta: { operationId: 'search' } });

describe('error responses with headers', () => {
  it('are mocked with their headers, which the typed client decodes', async () => {
    const mock = await mockServer([search], { seed: 1, overrides: { search: { status: 429 } } });
    try {
      const client = rest.newClient();
      client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
      const r = await client.safeCall(search, {});
      if (r.ok || r.status !== 429) throw new Error(`expected the declared 429, got ${JSON.stringify(r)}`);
      expect(Number.isInteger(r.headers.retryAfter)).toBe(true);
      expect(typeof r.error.title).toBe('string');
    } finally {
      await mock.close();
    }
  });

  it('hold a server to the headers the document declares for the status', async () => {
    const api = rest.newServer({ title: 'Limits', version: '1' });
    search.withHandler(() => {
      throw new RateLimited(30);
    }).register(api);
    const good = await served(api, (baseURL) => checkServer({ api, baseURL, runs: 5, seed: 1 }));
    expect(good.failures).toEqual([]);
    // A server whose 429 leaves out the Retry-After that api's document promises.
    const bare = rest.newServer({ title: 'Limits', version: '1' });
    rest.route({ method: 'GET', path: '/search', response: codec.object({ hits: codec.int() }), errors: [rest.errorPattern(RateLimited, 429, problem, (e) => ({ title: e.message }))] })
      .withHandler(() => {
        throw new RateLimited(30);
      })
      .register(bare);
    const bad = await served(bare, (baseURL) => checkServer({ api, baseURL, runs: 5, seed: 1 }));
    expect(bad.failures.some((f) => f.problem.startsWith('the declared response header Retry-After is missing'))).toBe(true);
  });
});
