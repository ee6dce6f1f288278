/**
 * Bring your own schemas, over real HTTP: a bookshelf whose routes are declared with zod 4
 * schemas only — path, query and header parameters, JSON bodies, responses, a typed 404 — and
 * routes declared with valibot 1 and arktype 2, served, called with the typed client, refused
 * with 400s that name the field, and documented with the schemas' own JSON Schema.
 */
import { newClientTransport } from '@lib/node-http/client';
import * as rest from '@lib/rest';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AdapterUnderTest } from './suite.js';

class BookNotFound extends Error {
  constructor(readonly id: number) {
    super(`no book ${id}`);
  }
}

// The bookshelf, in zod only.
const NewBook = z.object({ title: z.string().min(1), author: z.string().min(1), year: z.number().int().min(0).optional() });
const Book = NewBook.extend({ id: z.number().int().positive() });
const NotFound = z.object({ error: z.literal('not_found'), id: z.number() });
const tenant = rest.named('X-Tenant', z.string().min(2));
const bookId = z.number().int().positive();
const notFound = rest.errorPattern(BookNotFound, 404, NotFound, (e) => ({ error: 'not_found' as const, id: e.id }));

const listBooks = rest.route({
  method: 'GET',
  path: '/shelf/books',
  // `limit` is read from its text by the schema's JSON Schema (an integer); `offset` is coerced by
  // zod itself (`<number>`: a caller gives a number, which makes the defaulted key optional).
  query: { limit: z.number().int().min(1).max(100).default(20), offset: z.coerce.number<number>().int().min(0).default(0), author: z.string().optional() },
  headers: { tenant },
  response: z.object({ items: z.array(Book), total: z.number().int() }),
  meta: { operationId: 'listBooks' },
});
const getBook = rest.route({ method: 'GET', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, response: Book, errors: [notFound], meta: { operationId: 'getBook' } });
const createBook = rest.route({ method: 'POST', path: '/shelf/books', headers: { tenant }, body: NewBook, response: Book, meta: { operationId: 'createBook' } });
const updateBook = rest.route({ method: 'PUT', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, body: NewBook, response: Book, errors: [notFound], meta: { operationId: 'updateBook' } });
const deleteBook = rest.route({ method: 'DELETE', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, errors: [notFound], meta: { operationId: 'deleteBook', respStatus: 204 } });

// The same shelf read with valibot, and written with arktype.
const valibotBook = toStandardJsonSchema(v.object({ id: v.number(), title: v.string(), author: v.string() }));
const getBookValibot = rest.route({
  method: 'GET',
  path: '/shelf/v/books/{id}',
  pathParams: { id: toStandardJsonSchema(v.pipe(v.number(), v.integer(), v.minValue(1))) },
  query: { upper: toStandardJsonSchema(v.optional(v.boolean(), false)) },
  response: valibotBook,
  meta: { operationId: 'getBookValibot' },
});
const createBookArktype = rest.route({
  method: 'POST',
  path: '/shelf/a/books',
  query: { copies: type('number.integer > 0') },
  body: type({ title: 'string > 0', author: 'string > 0' }),
  response: type({ id: 'number', title: 'string', author: 'string', copies: 'number' }),
  meta: { operationId: 'createBookArktype' },
});

export function standardSchemas(adapter: AdapterUnderTest): void {
  describe(`standard schemas (zod, valibot, arktype): ${adapter.name}`, () => {
    let server: { baseURL: string; stop(): Promise<void> } | undefined;
    let api: rest.Server;
    const client = rest.newClient();
    let sent = 0;
    const books = new Map<number, z.infer<typeof Book>>();
    const seen: unknown[] = [];
    let next = 1;
    const base = (): string => server?.baseURL ?? '';

    beforeAll(async () => {
      api = rest.newServer({ title: 'Bookshelf', version: '1.0.0' });
      listBooks
        .withHandler((_ctx, req) => {
          seen.push(req);
          const all = [...books.values()].filter((b) => req.author === undefined || b.author === req.author);
          return { items: all.slice(req.offset, req.offset + req.limit), total: all.length };
        })
        .register(api);
      getBook
        .withHandler((_ctx, req) => {
          const b = books.get(req.id);
          if (b === undefined) throw new BookNotFound(req.id);
          return b;
        })
        .register(api);
      createBook
        .withHandler((_ctx, req) => {
          const b = { id: next++, ...req.body };
          books.set(b.id, b);
          return b;
        })
        .register(api);
      updateBook
        .withHandler((_ctx, req) => {
          if (!books.has(req.id)) throw new BookNotFound(req.id);
          const b = { id: req.id, ...req.body };
          books.set(b.id, b);
          return b;
        })
        .register(api);
      deleteBook
        .withHandler((_ctx, req) => {
          if (!books.delete(req.id)) throw new BookNotFound(req.id);
        })
        .register(api);
      getBookValibot
        .withHandler((_ctx, req) => {
          const b = books.get(req.id);
          if (b === undefined) throw new BookNotFound(req.id);
          return { id: b.id, title: req.upper ? b.title.toUpperCase() : b.title, author: b.author };
        })
        .register(api);
      createBookArktype
        .withHandler((_ctx, req) => {
          const b = { id: next++, ...req.body };
          books.set(b.id, b);
          return { ...b, copies: req.copies };
        })
        .register(api);
      server = await adapter.serve(api);
      client.attach(
        newClientTransport({
          baseURL: server.baseURL,
          httpClient: (input, init) => {
            sent++;
            return fetch(input, init);
          },
        }),
      );
    });

    afterAll(async () => {
      await server?.stop();
    });

    it('serves the zod bookshelf to the typed client: 201 on create, read, list with limit and offset, update, 204 on delete', async () => {
      const dune = await client.call(createBook, { tenant: 'acme', body: { title: 'Dune', author: 'Herbert', year: 1965 } });
      expect(dune).toEqual({ id: dune.id, title: 'Dune', author: 'Herbert', year: 1965 });
      const emma = await client.call(createBook, { tenant: 'acme', body: { title: 'Emma', author: 'Austen' } });
      await client.call(createBook, { tenant: 'acme', body: { title: 'Persuasion', author: 'Austen' } });
      expect(await client.call(getBook, { id: dune.id, tenant: 'acme' })).toEqual(dune);
      const page = await client.call(listBooks, { tenant: 'acme', limit: 1, offset: 1 });
      expect(page).toEqual({ items: [emma], total: 3 });
      expect(seen.at(-1)).toEqual({ tenant: 'acme', limit: 1, offset: 1 });
      const austen = await client.call(listBooks, { tenant: 'acme', author: 'Austen' });
      expect(austen.items.map((b) => b.title)).toEqual(['Emma', 'Persuasion']);
      expect(seen.at(-1)).toEqual({ tenant: 'acme', limit: 20, offset: 0, author: 'Austen' });
      expect(await client.call(updateBook, { id: emma.id, tenant: 'acme', body: { title: 'Emma', author: 'Jane Austen' } })).toEqual({ id: emma.id, title: 'Emma', author: 'Jane Austen' });
      const created = await fetch(`${base()}/shelf/books`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tenant': 'acme' }, body: JSON.stringify({ title: 'Ubik', author: 'Dick' }) });
      expect(created.status).toBe(201);
      const ubik = (await created.json()) as { id: number };
      const deleted = await fetch(`${base()}/shelf/books/${ubik.id}`, { method: 'DELETE', headers: { 'x-tenant': 'acme' } });
      expect(deleted.status).toBe(204);
      await client.call(deleteBook, { id: dune.id, tenant: 'acme' });
      expect(books.has(dune.id)).toBe(false);
    });

    it('reads numbers from the text of path and query parameters, by the schema or by its own coercion', async () => {
      const res = await fetch(`${base()}/shelf/books?limit=2&offset=0`, { headers: { 'x-tenant': 'acme' } });
      expect(res.status).toBe(200);
      expect(seen.at(-1)).toEqual({ tenant: 'acme', limit: 2, offset: 0 });
      const [first] = [...books.keys()];
      const one = await fetch(`${base()}/shelf/books/${first}`, { headers: { 'x-tenant': 'acme' } });
      expect(one.status).toBe(200);
      expect(((await one.json()) as { id: unknown }).id).toBe(first);
    });

    it('answers 400 naming the field a schema refuses: in the body, the query, the path and a header', async () => {
      const post = (body: unknown): Promise<Response> => fetch(`${base()}/shelf/books`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tenant': 'acme' }, body: JSON.stringify(body) });
      const errorOf = async (res: Response): Promise<string> => {
        expect(res.status).toBe(400);
        return ((await res.json()) as { error: string }).error;
      };
      expect(await errorOf(await post({ title: '', author: 'x' }))).toMatch(/title: Too small: expected string to have >=1 characters/);
      expect(await errorOf(await post({ title: 't', author: 'x', year: 1.5 }))).toMatch(/year: Invalid input: expected int, received number/);
      expect(await errorOf(await post({ title: 't' }))).toMatch(/author: Invalid input: expected string, received undefined/);
      const get = (path: string, headers: Record<string, string> = { 'x-tenant': 'acme' }): Promise<Response> => fetch(`${base()}${path}`, { headers });
      expect(await errorOf(await get('/shelf/books?limit=0'))).toMatch(/query parameter "limit": Too small: expected number to be >=1/);
      expect(await errorOf(await get('/shelf/books?limit=many'))).toMatch(/query parameter "limit": Invalid input: expected number, received string/);
      expect(await errorOf(await get('/shelf/books?offset=-1'))).toMatch(/query parameter "offset": Too small/);
      expect(await errorOf(await get('/shelf/books/abc'))).toMatch(/path parameter "id": Invalid input: expected number, received string/);
      expect(await errorOf(await get('/shelf/books/0'))).toMatch(/path parameter "id": Too small: expected number to be >0/);
      expect(await errorOf(await get('/shelf/books', {}))).toMatch(/header "X-Tenant": is required/);
      expect(await errorOf(await get('/shelf/books', { 'x-tenant': 'a' }))).toMatch(/header "X-Tenant": Too small/);
    });

    it('answers 404 with the declared error body, typed by status through safeCall', async () => {
      const missing = await client.safeCall(getBook, { id: 9999, tenant: 'acme' });
      expect(missing).toEqual({ ok: false, status: 404, error: { error: 'not_found', id: 9999 } });
      const raw = await fetch(`${base()}/shelf/books/9999`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-tenant': 'acme' }, body: JSON.stringify({ title: 't', author: 'a' }) });
      expect(raw.status).toBe(404);
      expect(await raw.json()).toEqual({ error: 'not_found', id: 9999 });
    });

    it('refuses before sending what the schemas refuse', async () => {
      const before = sent;
      await expect(client.call(createBook, { tenant: 'acme', body: { title: '', author: 'x' } })).rejects.toBeInstanceOf(rest.RequestBuildError);
      await expect(client.call(listBooks, { tenant: 'acme', limit: 0 })).rejects.toBeInstanceOf(rest.QueryParamError);
      await expect(client.call(getBook, { id: -1, tenant: 'acme' })).rejects.toBeInstanceOf(rest.PathParamError);
      await expect(client.call(getBook, { id: 1, tenant: 'a' })).rejects.toBeInstanceOf(rest.HeaderParamError);
      expect(sent).toBe(before);
    });

    it('serves valibot and arktype schemas the same way', async () => {
      const made = await client.call(createBookArktype, { copies: 3, body: { title: 'Solaris', author: 'Lem' } });
      expect(made).toEqual({ id: made.id, title: 'Solaris', author: 'Lem', copies: 3 });
      expect(await client.call(getBookValibot, { id: made.id })).toEqual({ id: made.id, title: 'Solaris', author: 'Lem' });
      expect(await client.call(getBookValibot, { id: made.id, upper: true })).toEqual({ id: made.id, title: 'SOLARIS', author: 'Lem' });
      const upper = await fetch(`${base()}/shelf/v/books/${made.id}?upper=true`);
      expect(((await upper.json()) as { title: string }).title).toBe('SOLARIS');
      const badPath = await fetch(`${base()}/shelf/v/books/1.5`);
      expect(badPath.status).toBe(400);
      expect(((await badPath.json()) as { error: string }).error).toMatch(/path parameter "id": Invalid integer/);
      const badBody = await fetch(`${base()}/shelf/a/books?copies=2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: '', author: 'x' }) });
      expect(badBody.status).toBe(400);
      expect(((await badBody.json()) as { error: string }).error).toMatch(/title: title must be non-empty/);
      const badQuery = await fetch(`${base()}/shelf/a/books?copies=0`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 't', author: 'x' }) });
      expect(badQuery.status).toBe(400);
      expect(((await badQuery.json()) as { error: string }).error).toMatch(/query parameter "copies": must be positive/);
    });

    it("documents each schema's own JSON Schema in the OpenAPI document", () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, any>> };
      const list = doc.paths['/shelf/books']?.get;
      const param = (op: { parameters: { name: string }[] }, name: string): unknown => op.parameters.find((p) => p.name === name);
      expect(param(list, 'limit')).toEqual({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
      expect(param(list, 'offset')).toEqual({ name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 9007199254740991, default: 0 } });
      expect(param(list, 'X-Tenant')).toEqual({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', minLength: 2 } });
      const book = {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 }, author: { type: 'string', minLength: 1 }, year: { type: 'integer', minimum: 0, maximum: 9007199254740991 }, id: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 } },
        required: ['title', 'author', 'id'],
      };
      expect(list.responses['200'].content['application/json'].schema).toEqual({ type: 'object', properties: { items: { type: 'array', items: book }, total: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } }, required: ['items', 'total'] });
      const get = doc.paths['/shelf/books/{id}']?.get;
      expect(param(get, 'id')).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 } });
      expect(get.responses['404'].content['application/json'].schema).toEqual({ type: 'object', properties: { error: { type: 'string', const: 'not_found' }, id: { type: 'number' } }, required: ['error', 'id'] });
      const post = doc.paths['/shelf/books']?.post;
      expect(post.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['title', 'author'] });
      expect(Object.keys(post.responses)).toContain('201');
      expect(doc.paths['/shelf/books/{id}']?.delete.responses['204']).toBeDefined();
      const valibotGet = doc.paths['/shelf/v/books/{id}']?.get;
      expect(param(valibotGet, 'id')).toMatchObject({ schema: { type: 'integer', minimum: 1 } });
      expect(param(valibotGet, 'upper')).toEqual({ name: 'upper', in: 'query', schema: { type: 'boolean', default: false } });
      expect(valibotGet.responses['200'].content['application/json'].schema).toEqual({ type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' }, author: { type: 'string' } }, required: ['id', 'title', 'author'] });
      const arkPost = doc.paths['/shelf/a/books']?.post;
      expect(param(arkPost, 'copies')).toEqual({ name: 'copies', in: 'query', required: true, schema: { type: 'integer', exclusiveMinimum: 0 } });
      expect(arkPost.requestBody.content['application/json'].schema).toEqual({ type: 'object', properties: { author: { type: 'string', minLength: 1 }, title: { type: 'string', minLength: 1 } }, required: ['author', 'title'] });
      // No schema of the document is the empty schema.
      expect(JSON.stringify(doc)).not.toContain('"schema":{}');
    });
  });
}
