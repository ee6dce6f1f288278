/**
 * An object with declared fields and typed other keys (JSON Schema `additionalProperties` beside
 * `properties`) over real HTTP: the server decodes the other keys by their codec and refuses a
 * bad one at its key (400), the typed client sends and reads them, and the document writes
 * `properties` and `additionalProperties` as the server reads them.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const labels = codec.withAdditionalProperties(codec.object({ name: codec.string() }), codec.string().refine(validate.maxLength(8))).withName('Labels');
const putLabels = rest.route({ method: 'PUT', path: '/runners/{id}/labels', pathParams: { id: codec.string() }, body: labels, response: labels, meta: { operationId: 'apPutLabels' } });

export function additionalProperties(adapter: AdapterUnderTest): void {
  describe(`additional properties: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Labels', version: '1' });
      putLabels.withHandler((_ctx, req) => ({ ...req.body, name: `${req.body.name}@${req.id}` })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('keeps the other keys, each read by its codec, and refuses a bad one at its key', async () => {
      const res = await fetch(`${base}/runners/7/labels`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"ci","os":"linux","arch":"arm64"}' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ name: 'ci@7', os: 'linux', arch: 'arm64' });
      const bad = await fetch(`${base}/runners/7/labels`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"ci","os":"a-very-long-os","gpu":1}' });
      expect(bad.status).toBe(400);
      const text = await bad.text();
      expect(text).toContain('os');
      expect(text).toContain('gpu');
    });

    it('is called by the typed client', async () => {
      expect(await client.call(putLabels, { id: '9', body: { name: 'x', zone: 'eu' } })).toEqual({ name: 'x@9', zone: 'eu' });
    });

    it('documents properties beside additionalProperties', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { components: { schemas: Record<string, unknown> } };
      expect(doc.components.schemas['Labels']).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: { type: 'string', maxLength: 8 } });
    });
  });
}
