/**
 * The document lists exactly what the server can send, over real HTTP: every status an
 * operation documents is provoked and observed here, and the statuses a route cannot give — a
 * 400 for a path of plain strings, a 503 for a handler whose type admits no empty answer, a 406
 * where the server disregards `Accept` — are not listed.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const item = codec.object({ id: codec.string() });
const getItem = rest.route({ method: 'GET', path: '/ds/items/{id}', pathParams: { id: codec.string() }, response: item, meta: { operationId: 'dsGetItem' } });
const search = rest.route({ method: 'GET', path: '/ds/search', query: { limit: codec.optional(codec.intString().refine(validate.max(10))), q: codec.optional(codec.string()) }, response: codec.array(item), meta: { operationId: 'dsSearch' } });
const broken = rest.route({ method: 'GET', path: '/ds/broken', response: item, meta: { operationId: 'dsBroken' } });
const maybe = rest.route({ method: 'GET', path: '/ds/maybe/{id}', pathParams: { id: codec.string() }, response: codec.optional(item), meta: { operationId: 'dsMaybe' } });

type Responses = Record<string, unknown>;

function register(api: rest.Server): void {
  getItem
    .withHandler((_ctx, req) => {
      if (req.id === 'boom') throw new Error('boom');
      return { id: req.id };
    })
    .register(api);
  search.withHandler((_ctx, req) => [{ id: String(req.limit ?? 0) }]).register(api);
  maybe.withHandler((_ctx, req) => (req.id === 'none' ? undefined : { id: req.id })).register(api);
  // A handler that escapes its type and answers nothing breaks its contract: 500, not 503.
  broken.withHandler(() => undefined as unknown as { id: string }).register(api);
}

export function documentedStatuses(adapter: AdapterUnderTest): void {
  describe(`documented statuses: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let doc: { paths: Record<string, { get: { responses: Responses } }> };
    beforeAll(async () => {
      const api = rest.newServer({ title: 'What is sent', version: '1' });
      register(api);
      doc = JSON.parse(api.openAPISpec().marshalJSON()) as typeof doc;
      ({ baseURL: base, stop } = await adapter.serve(api));
    });
    afterAll(() => stop());
    const statuses = (path: string): string[] => Object.keys(doc.paths[path]?.get.responses ?? {}).sort();
    const status = async (path: string, headers: Record<string, string> = {}): Promise<number> => (await fetch(`${base}${path}`, { headers })).status;

    it('documents for each route exactly the statuses it is seen to send', async () => {
      expect(statuses('/ds/items/{id}')).toEqual(['200', '406', '500']);
      expect([await status('/ds/items/a'), await status('/ds/items/a', { accept: 'application/xml' }), await status('/ds/items/boom')]).toEqual([200, 406, 500]);

      expect(statuses('/ds/search')).toEqual(['200', '400', '406', '500']);
      expect([await status('/ds/search?limit=3'), await status('/ds/search?limit=11'), await status('/ds/search', { accept: 'text/csv' })]).toEqual([200, 400, 406]);

      expect(statuses('/ds/maybe/{id}')).toEqual(['200', '406', '500', '503']);
      expect([await status('/ds/maybe/a'), await status('/ds/maybe/none')]).toEqual([200, 503]);

      expect(statuses('/ds/broken')).toEqual(['200', '406', '500']);
      expect(await status('/ds/broken')).toBe(500);
    });

    describe('with disregardAccept', () => {
      let lenient = '';
      let stopLenient: () => Promise<void> = () => Promise.resolve();
      let lenientDoc: { paths: Record<string, { get: { responses: Responses } }> };
      beforeAll(async () => {
        const api = rest.newServer({ title: 'Lenient', version: '1' }, rest.withDefaultOptions({ disregardAccept: true }));
        register(api);
        lenientDoc = JSON.parse(api.openAPISpec().marshalJSON()) as typeof lenientDoc;
        ({ baseURL: lenient, stop: stopLenient } = await adapter.serve(api));
      });
      afterAll(() => stopLenient());

      it('answers an Accept it cannot satisfy with the first format, and documents no 406', async () => {
        const res = await fetch(`${lenient}/ds/items/a`, { headers: { accept: 'application/xml' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(await res.json()).toEqual({ id: 'a' });
        expect(Object.keys(lenientDoc.paths['/ds/items/{id}']?.get.responses ?? {}).sort()).toEqual(['200', '500']);
      });
    });
  });
}
