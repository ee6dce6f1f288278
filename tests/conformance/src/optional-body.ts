/**
 * An optional request body (OpenAPI `requestBody.required: false`) over real HTTP: a route whose
 * body codec admits no value (`codec.optional(...)`) takes a request without content — no
 * `Content-Type`, no `Content-Length` or `0` — or with an empty one as no body, decodes a body
 * that is sent, still refuses a bad one (400) and content of another media type (415); the typed
 * client sends no body for an absent value; the document says `required: false`. A required
 * body left out stays a 415 (no `Content-Type`).
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const settings = codec.object({ dryRun: codec.boolean() });
const outcome = codec.object({ run: codec.boolean(), dryRun: codec.optional(codec.boolean()) });
const startJob = rest.route({ method: 'POST', path: '/jobs/{id}/start', pathParams: { id: codec.string() }, body: codec.optional(settings), response: outcome, meta: { operationId: 'obStartJob' } });
const startPlain = rest.newRoute('PUT', '/plain', codec.optional(settings), outcome, rest.routeMeta({ operationId: 'obStartPlain' }));
// The body in formats of its own: form or JSON, and raw bytes.
const note = codec.object({ text: codec.string() });
const postNote = rest.route({ method: 'POST', path: '/notes', body: codec.optional(note), requestFormats: [format.form(note), format.json(note)], response: outcome, meta: { operationId: 'obPostNote' } });
const putBlob = rest.route({ method: 'PUT', path: '/blob', body: codec.optional(codec.bytes()), requestFormats: [format.binary(codec.bytes())], response: codec.object({ size: codec.optional(codec.int()) }), meta: { operationId: 'obPutBlob' } });
const required = rest.route({ method: 'POST', path: '/required', body: settings, response: outcome, meta: { operationId: 'obRequired' } });

export function optionalBody(adapter: AdapterUnderTest): void {
  describe(`optional request body: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Optional bodies', version: '1' });
      startJob.withHandler((_ctx, req) => ({ run: true, ...(req.body !== undefined && { dryRun: req.body.dryRun }) })).register(api);
      startPlain.withHandler((_ctx, req) => ({ run: true, ...(req !== undefined && { dryRun: req.dryRun }) })).register(api);
      postNote.withHandler((_ctx, req) => ({ run: req.body === undefined ? false : req.body.text === 'go' })).register(api);
      putBlob.withHandler((_ctx, req) => (req.body === undefined ? {} : { size: req.body.byteLength })).register(api);
      required.withHandler((_ctx, req) => ({ run: true, dryRun: req.dryRun })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('takes a request without content, or with an empty one, as no body', async () => {
      for (const init of [{}, { headers: { 'content-length': '0' } }, { headers: { 'content-type': 'application/json' }, body: '' }] as RequestInit[]) {
        const res = await fetch(`${base}/jobs/7/start`, { method: 'POST', ...init });
        expect(res.status, JSON.stringify(init)).toBe(201);
        expect(await res.json()).toEqual({ run: true });
      }
      const plain = await fetch(`${base}/plain`, { method: 'PUT' });
      expect(plain.status).toBe(200);
      expect(await plain.json()).toEqual({ run: true });
    });

    it('decodes a body that is sent, and refuses a bad one or another media type', async () => {
      const sent = await fetch(`${base}/jobs/7/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"dryRun":true}' });
      expect(await sent.json()).toEqual({ run: true, dryRun: true });
      const bad = await fetch(`${base}/jobs/7/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"dryRun":"yes"}' });
      expect(bad.status).toBe(400);
      const other = await fetch(`${base}/jobs/7/start`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'dry' });
      expect(other.status).toBe(415);
      // Content without a Content-Type is not "no body".
      const untyped = await fetch(`${base}/jobs/7/start`, { method: 'POST', body: new Uint8Array([123, 125]) });
      expect(untyped.status).toBe(415);
    });

    it('takes no body, or a body in any of the route\'s formats, where the body has formats of its own', async () => {
      const none = await fetch(`${base}/notes`, { method: 'POST' });
      expect(none.status).toBe(201);
      expect(await none.json()).toEqual({ run: false });
      const empty = await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(empty.status).toBe(201);
      expect(await empty.json()).toEqual({ run: false });
      const formed = await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'text=go' });
      expect(await formed.json()).toEqual({ run: true });
      const inJson = await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"go"}' });
      expect(await inJson.json()).toEqual({ run: true });
      expect((await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'other=1' })).status).toBe(400);
      expect((await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b' })).status).toBe(415);
      expect(await (await fetch(`${base}/blob`, { method: 'PUT' })).json()).toEqual({});
      expect(await (await fetch(`${base}/blob`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([1, 2, 3]) })).json()).toEqual({ size: 3 });
      // The typed client sends nothing for an absent body, and the first format otherwise.
      expect(await client.call(postNote, {})).toEqual({ run: false });
      expect(await client.call(postNote, { body: { text: 'go' } })).toEqual({ run: true });
      expect(await client.call(putBlob, {})).toEqual({});
      expect(await client.call(putBlob, { body: new Uint8Array([9, 9]) })).toEqual({ size: 2 });
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { requestBody?: { required?: boolean; content: object } }>> };
      expect(doc.paths['/notes']?.post?.requestBody?.required ?? false).toBe(false);
      expect(Object.keys(doc.paths['/notes']?.post?.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded', 'application/json']);
      expect(doc.paths['/blob']?.put?.requestBody?.required ?? false).toBe(false);
    });

    it('keeps a required body required', async () => {
      expect((await fetch(`${base}/required`, { method: 'POST' })).status).toBe(415);
      expect((await fetch(`${base}/required`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' })).status).toBe(400);
    });

    it('is called by the typed client with and without a body', async () => {
      expect(await client.call(startJob, { id: '7' })).toEqual({ run: true });
      expect(await client.call(startJob, { id: '7', body: { dryRun: false } })).toEqual({ run: true, dryRun: false });
      expect(await client.call(startPlain, undefined)).toEqual({ run: true });
      expect(await client.call(startPlain, { dryRun: true })).toEqual({ run: true, dryRun: true });
    });

    it('documents the body as not required, and a required one as required', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { requestBody?: { required?: boolean; content: object } }>> };
      // `required` is false unless written (OpenAPI 3.1 §4.8.13.1).
      for (const optional of [doc.paths['/jobs/{id}/start']?.post, doc.paths['/plain']?.put]) {
        expect(Object.keys(optional?.requestBody?.content ?? {})).toEqual(['application/json']);
        expect(optional?.requestBody?.required ?? false).toBe(false);
      }
      expect(doc.paths['/required']?.post?.requestBody?.required).toBe(true);
    });
  });
}
