// The kit on a route that never succeeds (`response: codec.never()`): checkServer takes its
// declared errors as its answers, and the mock answers the first of them, which the typed client
// decodes as the declared error.
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { assertServer } from './check-server.js';
import { mockServer } from './mock-server.js';

class GoneError extends Error {}
const successor = codec.object({ successor: codec.string() });
const oldOrder = rest.route({
  method: 'GET', path: '/v1/orders/{id}', pathParams: { id: codec.string() }, response: codec.never(),
  errors: [rest.errorPattern(GoneError, 410, successor, () => ({ successor: '/v2/orders' }))],
  meta: { operationId: 'oldOrder' },
});

describe('a route that never succeeds', () => {
  it('passes assertServer when it answers its declared error', async () => {
    const api = rest.newServer({ title: 'Sunset', version: '1' });
    oldOrder.withHandler(() => {
      throw new GoneError();
    }).register(api);
    const report = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 10, seed: 1 }));
    const reach = report.reach.find((r) => r.operationId === 'oldOrder');
    expect(reach?.statuses).toEqual({ 410: 10 });
    expect(reach?.succeeded).toBe(true);
  });

  it('is mocked with its first declared error, which the typed client decodes', async () => {
    const mock = await mockServer([oldOrder], { seed: 1 });
    try {
      const client = rest.newClient();
      client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
      const r = await client.safeCall(oldOrder, { id: '7' });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.status).toBe(410);
        expect(typeof (r.error as { successor: unknown }).successor).toBe('string');
      }
    } finally {
      await mock.close();
    }
  });
});
