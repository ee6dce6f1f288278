/**
 * A route that never succeeds (`response: codec.never()`): an endpoint that answers only the
 * errors its rules declare, a sunset one answering 410 Gone, say (RFC 8594). Over real HTTP: the
 * declared error goes out with its body; a handler that returns anyway breaks the contract and is
 * a hidden 500; the typed client rejects with the declared error, and takes a 2xx as an
 * unexpected status; the document lists the error responses and no success.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

class GoneError extends Error {
  readonly successor: string;
  constructor(successor: string) {
    super('this version is gone');
    this.successor = successor;
  }
}
class TeapotError extends Error {}
const gone = codec.object({ successor: codec.string() });
const oldOrder = rest.route({
  method: 'GET', path: '/v1/orders/{id}', pathParams: { id: codec.string() }, response: codec.never(),
  errors: [rest.errorPattern(GoneError, 410, gone, (e) => ({ successor: e.successor }))],
  meta: { operationId: 'nsOldOrder' },
});
const teapot = rest.route({ method: 'POST', path: '/brew', response: codec.never(), errors: [rest.errorStatus(TeapotError, 418)], meta: { operationId: 'nsBrew' } });
const broken = rest.route({ method: 'GET', path: '/broken', response: codec.never(), meta: { operationId: 'nsBroken' } });

export function neverSucceeds(adapter: AdapterUnderTest): void {
  describe(`a route that never succeeds: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Sunset', version: '1' });
      oldOrder.withHandler((_ctx, req) => {
        throw new GoneError(`/v2/orders/${req.id}`);
      }).register(api);
      teapot.withHandler(async () => {
        throw new TeapotError('short and stout');
      }).register(api);
      // A handler that returns anyway (untyped JavaScript): the route's contract is broken.
      broken.withHandler((() => ({ sneaky: true })) as never).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('answers the declared errors, and a returned value as a hidden 500', async () => {
      const res = await fetch(`${base}/v1/orders/7`);
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ successor: '/v2/orders/7' });
      expect((await fetch(`${base}/brew`, { method: 'POST' })).status).toBe(418);
      const b = await fetch(`${base}/broken`);
      expect(b.status).toBe(500);
      expect(await b.text()).not.toContain('sneaky');
    });

    it('is called by the typed client, which rejects with the declared error', async () => {
      const r = await client.safeCall(oldOrder, { id: '7' });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.status).toBe(410);
        expect(r.error).toEqual({ successor: '/v2/orders/7' });
      }
      await expect(client.call(oldOrder, { id: '7' })).rejects.toBeInstanceOf(rest.ErrorPatternResponse);
      // An errorStatus rule has no typed body: an unexpected status to the client, with its status.
      await expect(client.call(teapot, {})).rejects.toMatchObject({ statusCode: 418 });
    });

    it('takes a 2xx as an unexpected status', async () => {
      // The same route, served by a server that answers 200 where the contract says it never succeeds.
      const other = rest.newServer({ title: 'Liar', version: '1' });
      rest.route({ method: 'GET', path: '/v1/orders/{id}', pathParams: { id: codec.string() }, response: codec.object({ id: codec.string() }) })
        .withHandler((_ctx, req) => ({ id: req.id }))
        .register(other);
      const served = await adapter.serve(other);
      try {
        const liar = rest.newClient();
        liar.attach(clientTransport({ baseURL: served.baseURL }));
        await expect(liar.call(oldOrder, { id: '7' })).rejects.toBeInstanceOf(rest.UnexpectedStatusError);
      } finally {
        await served.stop();
      }
    });

    it('documents the error responses and no success (500 is every route\'s)', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
      expect(Object.keys(doc.paths['/v1/orders/{id}']?.get?.responses ?? {})).toEqual(['410', '500']);
      expect(Object.keys(doc.paths['/v1/orders/{id}']?.get?.responses['410']?.content ?? {})).toEqual(['application/json']);
      expect(Object.keys(doc.paths['/brew']?.post?.responses ?? {})).toEqual(['418', '500']);
    });
  });
}
