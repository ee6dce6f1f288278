/**
 * Preconditions declared on the route (`meta: { preconditions: true }`), over real HTTP: the
 * handler reads the validators from the context with `rest.checkPreconditions`, never from its
 * request value; the client sends them from its call options; a write's 412 is a typed failure
 * and a read's 304 a typed answer; the document lists the headers and the 412 or 304.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const book = codec.object({ id: codec.string(), title: codec.string(), version: codec.int() });
type Book = codec.Infer<typeof book>;
const etagOf = (b: Book): string => `"v${b.version}"`;

const getBook = rest.route({
  method: 'GET',
  path: '/pc/books/{id}',
  pathParams: { id: codec.string() },
  response: book,
  responseHeaders: { etag: rest.named('ETag', codec.string()) },
  meta: { operationId: 'pcGetBook', preconditions: true },
});
const patchBook = rest.route({
  method: 'PATCH',
  path: '/pc/books/{id}',
  pathParams: { id: codec.string() },
  body: codec.object({ title: codec.string() }),
  response: book,
  errors: [rest.preconditionFailed()],
  meta: { operationId: 'pcPatchBook', preconditions: true },
});
const putBook = rest.route({
  method: 'PUT',
  path: '/pc/new/{id}',
  pathParams: { id: codec.string() },
  body: codec.object({ title: codec.string() }),
  response: book,
  errors: [rest.preconditionFailed()],
  meta: { operationId: 'pcPutBook', preconditions: true },
});

export function preconditionsSuite(adapter: AdapterUnderTest): void {
  describe(`preconditions declared on the route: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();
    const books = new Map<string, Book>();
    const seenRequests: object[] = [];

    beforeAll(async () => {
      api = rest.newServer({ title: 'Books', version: '1' });
      getBook
        .withHandler((ctx, req) => {
          const b = books.get(req.id) as Book;
          rest.checkPreconditions(ctx, { etag: etagOf(b) }); // 304 when the client's copy is current
          return { ...b, etag: etagOf(b) };
        })
        .register(api);
      patchBook
        .withHandler((ctx, req) => {
          seenRequests.push(req);
          const current = books.get(req.id) as Book;
          rest.checkPreconditions(ctx, { etag: etagOf(current) }); // 412 when the client's copy is stale
          const { id, ...patch } = req;
          const next = { ...current, ...patch, version: current.version + 1 };
          books.set(id, next);
          return next;
        })
        .register(api);
      putBook
        .withHandler((ctx, req) => {
          const current = books.get(req.id);
          rest.checkPreconditions(ctx, current === undefined ? {} : { etag: etagOf(current) }); // If-None-Match: * creates only
          const created = { id: req.id, title: req.title, version: 1 };
          books.set(req.id, created);
          return created;
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    it('a conditional write: the handler never sees the validators in its request, a stale one is a typed 412', async () => {
      books.set('dune', { id: 'dune', title: 'Dune', version: 1 });
      const fresh = await client.call(getBook, { id: 'dune' });
      const updated = await client.safeCall(patchBook, { id: 'dune', title: 'Dune Messiah' }, { ifMatch: fresh.etag });
      expect(updated).toMatchObject({ ok: true, status: 200, value: { title: 'Dune Messiah', version: 2 } });
      expect(seenRequests.at(-1)).toEqual({ id: 'dune', title: 'Dune Messiah' });
      const stale = await client.safeCall(patchBook, { id: 'dune', title: 'Children of Dune' }, { ifMatch: fresh.etag });
      expect(stale).toEqual({ ok: false, status: 412, error: { error: 'precondition failed: If-Match does not match the current representation', precondition: 'If-Match' } });
      if (!stale.ok && stale.status === 412) expectTypeOf(stale.error).toEqualTypeOf<rest.PreconditionFailed>();
      expect(books.get('dune')?.title).toBe('Dune Messiah');
    });

    it('a conditional read: the typed client gets NotModified for a current copy', async () => {
      books.set('emma', { id: 'emma', title: 'Emma', version: 3 });
      const fresh = await client.call(getBook, { id: 'emma' });
      expect(await client.call(getBook, { id: 'emma' }, { ifNoneMatch: fresh.etag })).toBeInstanceOf(rest.NotModified);
      expect(await client.call(getBook, { id: 'emma' }, { ifNoneMatch: '"v1"' })).toMatchObject({ title: 'Emma' });
    });

    it('If-None-Match: * creates only what does not exist, and says so when it does', async () => {
      expect(await client.safeCall(putBook, { id: 'new-one', title: 'New' }, { headerParams: { 'If-None-Match': '*' } })).toMatchObject({ ok: true });
      const again = await client.safeCall(putBook, { id: 'new-one', title: 'New' }, { headerParams: { 'If-None-Match': '*' } });
      expect(again).toEqual({ ok: false, status: 412, error: { error: 'precondition failed: If-None-Match: * and the resource already has a current representation', precondition: 'If-None-Match' } });
    });

    it('documents the validators a client may send, and the 304 or the typed 412', () => {
      type Op = { parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, Op>> };
      const get = doc.paths['/pc/books/{id}']?.['get'] as Op;
      expect(get.parameters?.map((p) => p.name)).toEqual(['id', 'If-None-Match', 'If-Modified-Since']);
      expect(Object.keys(get.responses)).toContain('304');
      expect(Object.keys(get.responses)).not.toContain('412');
      const patch = doc.paths['/pc/books/{id}']?.['patch'] as Op;
      expect(patch.parameters?.map((p) => p.name)).toEqual(['id', 'If-Match', 'If-Unmodified-Since', 'If-None-Match']);
      expect(patch.responses['412']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/PreconditionFailed' });
      expect(Object.keys(patch.responses)).not.toContain('304');
    });
  });
}
