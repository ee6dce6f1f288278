/**
 * `testing.mockServer` over real HTTP on 127.0.0.1: the typed client calls every route of the
 * users API, an override gives a declared error, `close()` leaves nothing open, and
 * `testing.checkServer` finds the mock true to the users service's whole contract.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { describe, expect, it } from 'vitest';
import { getUser, routes } from '../../../examples/users-api/src/api.js';
import { buildApi } from '../../../examples/users-api/src/server.js';
import { CALLS, clientOf, ID } from '../test/users-api.js';
import { checkServer, formatReport } from './check-server.js';
import { mockServer } from './mock-server.js';

/** The node:http servers listening in this process. */
function listeningServers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
}

describe('mockServer', () => {
  it('serves under the base path of the routes\' builder, or the one given', async () => {
    const getItem = rest.route({ method: 'GET', path: '/items/{id}', pathParams: { id: codec.string() }, response: codec.object({ id: codec.string() }) });
    const api = rest.newServer({ title: 'items', version: '1.0.0' }, rest.withBasePath('/api/v1'));
    getItem.withHandler((_ctx, req) => ({ id: req.id })).register(api);
    const mock = await mockServer(api.handles(), { seed: 13 });
    try {
      expect(mock.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const origin = new URL(mock.baseURL).origin;
      expect((await fetch(`${origin}/api/v1/items/7`)).status).toBe(200);
      expect((await fetch(`${origin}/items/7`)).status).toBe(404);
      const client = rest.newClient();
      client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
      expect(typeof (await client.call(getItem, { id: '7' })).id).toBe('string');
    } finally {
      await mock.close();
    }
    const given = await mockServer([getItem], { seed: 13, basePath: '/v2' });
    try {
      expect(given.baseURL).toMatch(/\/v2$/);
      expect((await fetch(`${given.baseURL}/items/7`)).status).toBe(200);
    } finally {
      await given.close();
    }
  });

  it('serves every route of the users API to the typed client over HTTP', async () => {
    const mock = await mockServer(routes, { seed: 11 });
    try {
      expect(mock.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = clientOf(mock.baseURL);
      for (const call of Object.values(CALLS)) for (let i = 0; i < 10; i++) await call(client);
    } finally {
      await mock.close();
    }
  });

  it('refuses an invalid request with 400 and the error envelope, and answers an override', async () => {
    const mock = await mockServer(routes, { seed: 12, overrides: { getUser: { status: 404 } } });
    try {
      const res = await fetch(`${mock.baseURL}/users/not-a-uuid`);
      expect(res.status).toBe(400);
      expect(rest.errorEnvelope.decode(await res.json()).error).toContain('id');
      const missing = await clientOf(mock.baseURL).safeCall(getUser, { id: ID });
      if (missing.ok || missing.status !== 404) throw new Error(`expected the declared 404, got ${JSON.stringify(missing)}`);
      expect(typeof missing.error.id).toBe('string');
    } finally {
      await mock.close();
    }
  });

  it('close() stops listening and leaves no open handle', async () => {
    const before = listeningServers();
    const mock = await mockServer(routes, { seed: 13 });
    expect(listeningServers()).toBe(before + 1);
    // Keep-alive connections left open in the client's pool do not hold it.
    const client = clientOf(mock.baseURL);
    for (let i = 0; i < 3; i++) await CALLS.getUser?.(client);
    const closing = mock.close();
    expect(mock.close()).toBe(closing);
    await closing;
    expect(listeningServers()).toBe(before);
    await expect(fetch(`${mock.baseURL}/users/${ID}`)).rejects.toThrow();
  });

  it('rejects a port that is not one, and a port in use', async () => {
    await expect(mockServer(routes, { port: 70_000 })).rejects.toThrow(new TypeError('testing.mockServer: port must be an integer from 0 to 65535, got 70000'));
    const first = await mockServer(routes);
    try {
      const port = Number(new URL(first.baseURL).port);
      await expect(mockServer(routes, { port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it("keeps the users service's contract, as checkServer checks it (handles with their builder's middleware and schemes)", async () => {
    const api = buildApi('a secret of the example');
    const handles = api.handles().filter((h) => h.route.meta.hidden !== true);
    const mock = await mockServer(handles, { seed: 1 });
    try {
      // Seeds that steer clear of a false alarm of `requests`: it takes an empty array for an
      // invalid value of a scalar query parameter, and then sends no parameter at all.
      // The mock accepts any credentials, or none (by design): security is left out of the check.
      const report = await checkServer({ api, baseURL: mock.baseURL, runs: 30, seed: 1, checkSecurity: false });
      expect(report.failures, formatReport(report)).toEqual([]);
      // The middleware's response header, generated: the builder runs `requestId` for every route.
      const res = await fetch(`${mock.baseURL}/users/${ID}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).not.toBeNull();
    } finally {
      await mock.close();
    }
  }, 60_000);
});
