/**
 * Everyday HTTP a new user reaches for: conditional requests (RFC 9110 §13: 304 for a current
 * representation, 412 for a stale write), several success responses per route (an upsert's 201
 * and 200, a 202 without content), body limits stated once in the codec, and a client whose
 * pre-flight names every issue the server's 400 would. Over real HTTP, for one adapter.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { countingClient } from './counting-client.js';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

class BookNotFound extends Error {}

const book = codec.object({
  id: codec.string(),
  title: codec.string().refine(validate.minLength(1)),
  year: codec.int().refine(validate.min(1450)),
  isbn: codec.string().refine(validate.pattern(/^\d{13}$/)),
});
type Book = codec.Infer<typeof book>;
const bookInput = book.omit('id');
const validators = { etag: rest.named('ETag', codec.string()), lastModified: rest.named('Last-Modified', codec.httpDate()) };
const notFound = rest.errorPattern(BookNotFound, 404, codec.object({ error: codec.string() }), (e) => ({ error: e.message }));

/** A conditional GET: the server answers 304 on its own when the validators still match. */
const getBook = rest.route({
  method: 'GET',
  path: '/books/{id}',
  pathParams: { id: codec.string() },
  response: book,
  responseHeaders: validators,
  errors: [notFound],
  meta: { operationId: 'getBook' },
});
/** The handler answers 304 itself, before doing its work (`checkPreconditions`). */
const getSummary = rest.route({
  method: 'GET',
  path: '/books/{id}/summary',
  pathParams: { id: codec.string() },
  response: codec.object({ words: codec.int() }),
  responseHeaders: { etag: rest.named('ETag', codec.string()) },
});
/** A write guarded by `If-Match` (optimistic concurrency): 412 when the client's version is stale. */
const patchBook = rest.route({
  method: 'PATCH',
  path: '/books/{id}',
  pathParams: { id: codec.string() },
  headers: { ifMatch: rest.named('If-Match', codec.optional(codec.string())) },
  body: bookInput.partial(),
  response: book,
  responseHeaders: { etag: rest.named('ETag', codec.string()) },
  errors: [notFound],
});
/** An upsert: 200 when it replaces, 201 (with `Location`) when it creates. */
const putBook = rest.route({
  method: 'PUT',
  path: '/books/{id}',
  pathParams: { id: codec.string() },
  body: bookInput,
  response: book,
  successes: { 201: rest.success(book, { description: 'Created', headers: { location: rest.named('Location', codec.string()) } }) },
  meta: { operationId: 'putBook' },
});
/** 200 with a report when the work is done at once, 202 without content when it is queued. */
const reindex = rest.route({
  method: 'POST',
  path: '/books/{id}/reindex',
  pathParams: { id: codec.string() },
  query: { later: codec.optional(codec.boolString()) },
  response: codec.object({ indexed: codec.int() }),
  successes: { 202: null },
  meta: { respStatus: 200 },
});
const MiB = 1024 * 1024;
const coverBytes = codec.bytes().refine(validate.maxBytes(2 * MiB));
const coverForm = codec.object({ title: codec.string(), cover: coverBytes });
/** The limit is stated once, in the codec: the multipart body is read up to it, no maxBodyBytes beside it. */
const uploadCover = rest.route({ method: 'POST', path: '/covers', body: coverForm, response: codec.object({ size: codec.int() }), requestFormats: [format.multipart(coverForm)] });
/** The same limit for a raw body. */
const putCover = rest.route({
  method: 'PUT',
  path: '/covers/{id}',
  pathParams: { id: codec.string() },
  body: coverBytes,
  response: codec.object({ size: codec.int() }),
  requestFormats: [format.binary(coverBytes)],
});

export function everyday(adapter: AdapterUnderTest): void {
  describe(`everyday HTTP: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let doc: { paths: Record<string, Record<string, { responses: Record<string, any>; parameters?: any[] }>> } = { paths: {} };
    const books = new Map<string, { book: Book; version: number; modified: Date }>();
    const client = rest.newClient();
    let summaries = 0;
    const etagOf = (id: string): string => `"${id}-v${books.get(id)?.version ?? 0}"`;

    beforeAll(async () => {
      const api = rest.newServer({ title: 'Bookshelf', version: '1.0.0' });
      getBook
        .withHandler((_ctx, r) => {
          const b = books.get(r.id);
          if (b === undefined) throw new BookNotFound(`no book ${r.id}`);
          return { ...b.book, etag: etagOf(r.id), lastModified: b.modified };
        })
        .register(api);
      getSummary
        .withHandler((ctx, r) => {
          rest.checkPreconditions(ctx, { etag: etagOf(r.id) });
          summaries++;
          return { words: (books.get(r.id)?.book.title.split(' ').length ?? 0) * 100, etag: etagOf(r.id) };
        })
        .register(api);
      patchBook
        .withHandler((ctx, r) => {
          const b = books.get(r.id);
          if (b === undefined) throw new BookNotFound(`no book ${r.id}`);
          rest.checkPreconditions(ctx, { etag: etagOf(r.id), lastModified: b.modified });
          const { id, ifMatch: _ifMatch, ...changes } = r;
          const updated: Book = { ...b.book };
          for (const [k, v] of Object.entries(changes)) if (v !== undefined) Object.assign(updated, { [k]: v });
          books.set(id, { book: updated, version: b.version + 1, modified: new Date() });
          return { ...(books.get(id) as { book: Book }).book, etag: etagOf(id) };
        })
        .register(api);
      putBook
        .withHandler((_ctx, r, respond) => {
          const existed = books.has(r.id);
          books.set(r.id, { book: r, version: (books.get(r.id)?.version ?? 0) + 1, modified: new Date('2026-01-02T03:04:05Z') });
          return existed ? r : respond(201, { ...r, location: `/books/${r.id}` });
        })
        .register(api);
      reindex.withHandler((_ctx, r, respond) => (r.later === true ? respond(202) : { indexed: 1 })).register(api);
      uploadCover.withHandler((_ctx, r) => ({ size: r.cover.byteLength })).register(api);
      putCover.withHandler((_ctx, r) => ({ size: r.body.byteLength })).register(api);
      doc = JSON.parse(api.openAPISpec().marshalJSON()) as typeof doc;
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });

    afterAll(() => stop());

    describe('several success responses', () => {
      it('answers an upsert 201 with Location when it creates, then 200 when it replaces; the client decodes each by status', async () => {
        const first = await client.safeCall(putBook, { id: 'b1', title: 'Dune', year: 1965, isbn: '9780441013593' });
        expect(first).toMatchObject({ ok: true, status: 201, value: { id: 'b1', title: 'Dune', location: '/books/b1' } });
        const second = await client.safeCall(putBook, { id: 'b1', title: 'Dune', year: 1966, isbn: '9780441013593' });
        expect(second).toEqual({ ok: true, status: 200, value: { id: 'b1', title: 'Dune', year: 1966, isbn: '9780441013593' } });
        if (first.ok && first.status === 201) expectTypeOf(first.value.location).toEqualTypeOf<string>();
        const raw = await fetch(`${base}/books/b9`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'X', year: 1999, isbn: '9780000000002' }) });
        expect(raw.status).toBe(201);
        expect(raw.headers.get('location')).toBe('/books/b9');
      });

      it('answers 202 without content, and the client gives its status', async () => {
        const queued = await fetch(`${base}/books/b1/reindex?later=true`, { method: 'POST' });
        expect(queued.status).toBe(202);
        expect(await queued.text()).toBe('');
        expect(queued.headers.get('content-type')).toBeNull();
        const done = await client.safeCall(reindex, { id: 'b1' });
        expect(done).toEqual({ ok: true, status: 200, value: { indexed: 1 } });
        const later = await client.safeCall(reindex, { id: 'b1', later: true });
        expect(later.ok && later.status).toBe(202);
      });

      it('documents each success with its own body and headers', () => {
        const put = doc.paths['/books/{id}']?.put?.responses ?? {};
        expect(Object.keys(put)).toEqual(expect.arrayContaining(['200', '201']));
        expect(put['201'].description).toBe('Created');
        expect(put['201'].headers).toHaveProperty('Location');
        expect(put['200'].headers).toBeUndefined();
        const post = doc.paths['/books/{id}/reindex']?.post?.responses ?? {};
        expect(post['202']).toEqual({ description: 'Accepted' });
        expect(post['200'].content['application/json']).toBeDefined();
      });
    });

    describe('conditional requests', () => {
      it('answers a GET whose If-None-Match or If-Modified-Since is current with 304, no body, and the validators', async () => {
        const ok = await fetch(`${base}/books/b1`);
        expect(ok.status).toBe(200);
        const etag = ok.headers.get('etag') as string;
        const modified = ok.headers.get('last-modified') as string;
        expect(etag).toBe(etagOf('b1'));
        expect(modified).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
        for (const headers of [{ 'if-none-match': etag }, { 'if-none-match': `W/${etag}` }, { 'if-none-match': `"other", ${etag}` }, { 'if-none-match': '*' }, { 'if-modified-since': modified }]) {
          const res = await fetch(`${base}/books/b1`, { headers });
          expect(res.status).toBe(304);
          expect(await res.text()).toBe('');
          expect(res.headers.get('etag')).toBe(etag);
          expect(res.headers.get('content-type')).toBeNull();
        }
        const head = await fetch(`${base}/books/b1`, { method: 'HEAD', headers: { 'if-none-match': etag } });
        expect(head.status).toBe(304);
        for (const headers of [{ 'if-none-match': '"stale"' }, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' }, { 'if-modified-since': 'not a date' }]) {
          expect((await fetch(`${base}/books/b1`, { headers })).status).toBe(200);
        }
      });

      it('lets a handler answer 304 before doing its work', async () => {
        const first = await fetch(`${base}/books/b1/summary`);
        const etag = first.headers.get('etag') as string;
        const before = summaries;
        const again = await fetch(`${base}/books/b1/summary`, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(summaries).toBe(before);
      });

      it('refuses a write whose If-Match is stale with 412, and applies a current one', async () => {
        const current = etagOf('b1');
        const stale = await fetch(`${base}/books/b1`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'if-match': '"b1-v0"' }, body: '{"title":"Dune Messiah"}' });
        expect(stale.status).toBe(412);
        expect(await stale.json()).toEqual({ error: 'precondition failed: If-Match does not match the current representation' });
        const applied = await client.call(patchBook, { id: 'b1', ifMatch: current, title: 'Dune Messiah' });
        expect(applied.title).toBe('Dune Messiah');
        expect(applied.etag).not.toBe(current);
        const lost = await client.safeCall(patchBook, { id: 'b1', title: 'Lost update' }, { ifMatch: current });
        expect(lost.ok).toBe(false);
        expect(!lost.ok && lost.status === undefined && lost.error).toMatchObject({ statusCode: 412 });
      });

      it('gives the client a typed NotModified for a validator it passes, and the value otherwise', async () => {
        const fresh = await client.call(getBook, { id: 'b1' });
        expect(fresh).toMatchObject({ id: 'b1', etag: etagOf('b1') });
        const cached = await client.call(getBook, { id: 'b1' }, { ifNoneMatch: fresh.etag });
        expect(cached).toBeInstanceOf(rest.NotModified);
        expect(cached).toMatchObject({ status: 304, etag: fresh.etag });
        expectTypeOf(cached).toEqualTypeOf<{ id: string; title: string; year: number; isbn: string; etag: string; lastModified: Date } | rest.NotModified>();
        const safe = await client.safeCall(getBook, { id: 'b1' }, { ifModifiedSince: fresh.lastModified });
        expect(safe).toMatchObject({ ok: true, status: 304 });
        const changed = await client.safeCall(getBook, { id: 'b1' }, { ifNoneMatch: '"stale"' });
        expect(changed.ok && changed.status === 200 && changed.value.title).toBe('Dune Messiah');
      });

      it('documents 304 without content on conditional GETs, its validators as parameters, and 412 on guarded writes', () => {
        const get = doc.paths['/books/{id}']?.get;
        expect(get?.responses['304']).toMatchObject({ description: expect.stringMatching(/^Not Modified/) });
        expect(get?.responses['304'].content).toBeUndefined();
        expect(Object.keys(get?.responses['304'].headers ?? {})).toEqual(['ETag', 'Last-Modified']);
        expect(get?.parameters?.map((p: { name: string }) => p.name)).toEqual(['id', 'If-None-Match', 'If-Modified-Since']);
        expect(doc.paths['/books/{id}']?.patch?.responses['412']).toBeDefined();
        expect(doc.paths['/books/{id}']?.patch?.responses['304']).toBeUndefined();
        expect(doc.paths['/books/{id}']?.put?.responses['412']).toBeUndefined();
      });
    });

    describe('body limits stated once', () => {
      const cover = (n: number): Uint8Array => new Uint8Array(n).fill(7);
      it('reads a multipart part up to the codec\'s maxBytes, past the server default, and refuses one byte more with 413', async () => {
        for (const [n, status] of [[1.5 * MiB, 201], [2 * MiB, 201], [2 * MiB + 1, 413]] as const) {
          const fd = new FormData();
          fd.append('title', 'cover');
          fd.append('cover', new Blob([cover(n)]), 'cover.png');
          const res = await fetch(`${base}/covers`, { method: 'POST', body: fd });
          expect([n, res.status]).toEqual([n, status]);
          if (status === 201) expect(await res.json()).toEqual({ size: n });
        }
        expect((await client.call(uploadCover, { title: 't', cover: cover(2 * MiB) })).size).toBe(2 * MiB);
      });

      it('reads a raw body up to the codec\'s maxBytes and refuses one byte more with 413', async () => {
        for (const [n, status] of [[2 * MiB, 200], [2 * MiB + 1, 413]] as const) {
          const res = await fetch(`${base}/covers/c1`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: cover(n) });
          expect([n, res.status]).toEqual([n, status]);
        }
      });

      it('states the limit in the document\'s 413', () => {
        const raw = doc.paths['/covers/{id}']?.put?.responses['413'];
        expect(raw.description).toMatch(/at most 2097152 bytes \(2 MiB\)/);
        expect(raw['x-max-body-bytes']).toBe(2 * MiB);
        const multipart = doc.paths['/covers']?.post?.responses['413'];
        expect(multipart['x-max-body-bytes']).toBeGreaterThan(2 * MiB);
        const json = doc.paths['/books/{id}']?.put?.responses['413'];
        expect(json['x-max-body-bytes']).toBe(1048576);
      });
    });

    describe('pre-flight', () => {
      it('names every body issue the server\'s 400 names, field by field', async () => {
        const { client: counting, sent } = countingClient(base);
        const bodies = [
          { title: '', year: 1200, isbn: 'x' },
          { title: '', year: 'x', isbn: 'x' },
          { title: 7, year: 1.5, isbn: '1' },
          { year: 2000 },
        ];
        for (const body of bodies) {
          const server = await fetch(`${base}/books/pf`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          expect(server.status).toBe(400);
          const serverMessage = ((await server.json()) as { error: string }).error;
          const err = await counting.call(putBook, { id: 'pf', ...(body as { title: string; year: number; isbn: string }) }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(nodeHttp.RequestBuildError);
          // The fields the server's message names (`invalid request body: title: …; year: …`), in order.
          const serverFields = serverMessage.replace(/^invalid request body: /, '').split('; ').map((part) => part.slice(0, part.indexOf(': ')));
          const clientFields = ((err as Error).cause as codec.DecodeError).issues.map((i) => codec.formatPath(i.path));
          expect(clientFields).toEqual(serverFields);
        }
        expect(sent()).toBe(0);
      });
    });
  });
}
