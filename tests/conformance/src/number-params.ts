/**
 * Number parameters read from their text (`codec.numberString()`) over real HTTP: a query and a
 * path value such as `2.5` or `-1e3` reach the handler as numbers, a text that is no JSON number
 * (or a refused value) is a 400 naming the parameter, the typed client writes them, and the
 * document says `type: number` with the constraints.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const quote = codec.object({ lat: codec.number(), maxPrice: codec.optional(codec.number()) });
const nearby = rest.route({
  method: 'GET',
  path: '/stations/{lat}',
  pathParams: { lat: codec.numberString().refine(validate.min(-90), validate.max(90)) },
  query: { maxPrice: codec.optional(codec.numberString().refine(validate.min(0))) },
  response: quote,
  meta: { operationId: 'npNearby' },
});

export function numberParams(adapter: AdapterUnderTest): void {
  describe(`number parameters: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Stations', version: '1' });
      nearby.withHandler((_ctx, req) => ({ lat: req.lat, ...(req.maxPrice !== undefined && { maxPrice: req.maxPrice }) })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('reads path and query numbers from their text, and refuses other text with 400', async () => {
      const res = await fetch(`${base}/stations/52.5?maxPrice=1.5e0`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ lat: 52.5, maxPrice: 1.5 });
      for (const bad of ['/stations/north', '/stations/91', '/stations/10?maxPrice=-1', '/stations/10?maxPrice=1,5']) {
        const r = await fetch(`${base}${bad}`);
        expect(r.status, bad).toBe(400);
        expect(await r.text(), bad).toMatch(/lat|maxPrice/);
      }
    });

    it('is called by the typed client with numbers', async () => {
      expect(await client.call(nearby, { lat: -33.9, maxPrice: 0.25 })).toEqual({ lat: -33.9, maxPrice: 0.25 });
    });

    it('documents number parameters with their constraints', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { parameters: { name: string; schema: unknown }[] } }> };
      const params = doc.paths['/stations/{lat}']?.get.parameters ?? [];
      expect(params.find((p) => p.name === 'lat')?.schema).toEqual({ type: 'number', minimum: -90, maximum: 90 });
      expect(params.find((p) => p.name === 'maxPrice')?.schema).toEqual({ type: 'number', minimum: 0 });
    });
  });
}
