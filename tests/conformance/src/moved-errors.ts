/**
 * A 3xx answered with content through an error rule: GitHub's "Moved permanently" (301 with a
 * JSON body naming where the resource went) beside the route's success. The handler throws; the
 * server writes the status and the typed body; the typed client, which never follows a
 * redirect, rejects with the declared error and its decoded body; the document lists the 3xx
 * with its content beside the success.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

class Moved extends Error {
  constructor(readonly url: string) {
    super('Moved Permanently');
  }
}
const movedBody = codec.object({ message: codec.string(), url: codec.string() });
const repo = codec.object({ name: codec.string() });
const getRepo = rest.route({
  method: 'GET', path: '/repos/{name}', pathParams: { name: codec.string() }, response: repo,
  errors: [rest.errorPattern(Moved, 301, movedBody, (e) => ({ message: e.message, url: e.url })).withDescription('Moved permanently')],
  meta: { operationId: 'meGetRepo' },
});

export function movedErrors(adapter: AdapterUnderTest): void {
  describe(`a 3xx with content through an error rule: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Moves', version: '1' });
      getRepo.withHandler((_ctx, req) => {
        if (req.name === 'old') throw new Moved('/repos/new');
        return { name: req.name };
      }).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('writes the status and the typed body, and the client rejects with them', async () => {
      const res = await fetch(`${base}/repos/old`, { redirect: 'manual' });
      expect(res.status).toBe(301);
      expect(await res.json()).toEqual({ message: 'Moved Permanently', url: '/repos/new' });
      expect(await client.call(getRepo, { name: 'new' })).toEqual({ name: 'new' });
      const r = await client.safeCall(getRepo, { name: 'old' });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.status).toBe(301);
        expect(r.error).toEqual({ message: 'Moved Permanently', url: '/repos/new' });
      }
    });

    it('documents the 3xx with its content beside the success', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: Record<string, unknown> }> }>> };
      const responses = doc.paths['/repos/{name}']?.get?.responses ?? {};
      expect(Object.keys(responses)).toEqual(['200', '301', '406', '500']);
      expect(responses['301']?.description).toBe('Moved permanently');
      expect(Object.keys(responses['301']?.content ?? {})).toEqual(['application/json']);
    });
  });
}
