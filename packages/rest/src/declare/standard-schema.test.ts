import * as codec from '@lib/codec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as rest from '../index.js';
import { isMultiValue } from './param-values.js';
import { asCodec } from './params.js';
import { takesNothing } from './route.js';

class NoBook extends Error {
  constructor(readonly id: number) {
    super(`no book ${id}`);
  }
}

const book = z.object({ id: z.number().int(), title: z.string().min(1) });

describe('asCodec: a codec or a Standard Schema, made a codec once', () => {
  it('keeps a codec as it is and adapts a Standard Schema of any library', () => {
    const own = codec.object({ a: codec.string() });
    expect(asCodec(own, 'body')).toBe(own);
    for (const s of [z.object({ a: z.string() }), type({ a: 'string' }), toStandardJsonSchema(v.object({ a: v.string() }))]) {
      const c = asCodec(s, 'body');
      expect(c).toBeInstanceOf(codec.StandardSchemaCodec);
      expect(c.decode({ a: 'x' })).toEqual({ a: 'x' });
      expect(c.schema).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    }
  });

  it('refuses at once what is no schema, a schema without JSON Schema, and one its library cannot write', () => {
    expect(() => asCodec('x' as unknown as codec.Codec<string>, 'query parameter "q"')).toThrow(new TypeError('query parameter "q": expected a codec or a Standard Schema'));
    expect(() => asCodec(v.object({ a: v.string() }), 'body')).toThrow(/^body: the valibot schema has no JSON Schema \(~standard.jsonSchema\) for the document: give it one \(valibot: toStandardJsonSchema of @valibot\/to-json-schema\), or wrap it as codec.fromStandardSchema\(schema, \{ jsonSchema \}\)$/);
    expect(() => asCodec(z.object({ at: z.date() }), 'response')).toThrow(/^response: the zod schema cannot be written as JSON Schema \(Date cannot be represented in JSON Schema\): wrap it as codec.fromStandardSchema\(schema, \{ jsonSchema \}\)$/);
  });

  it('makes a parameter of a schema that takes undefined optional, or defaulted when it gives a value for it', () => {
    const opt = asCodec(z.number().optional(), 'parameter', true);
    expect(opt).toBeInstanceOf(codec.OptionalCodec);
    expect(opt.decode('5')).toBe(5);
    const def = asCodec(z.number().int().default(20), 'parameter', true);
    expect(def).toBeInstanceOf(codec.DefaultedCodec);
    expect(def.decode(undefined)).toBe(20);
    expect(def.decode('3')).toBe(3);
    expect(asCodec(toStandardJsonSchema(v.optional(v.number(), 3)), 'parameter', true).decode(undefined)).toBe(3);
    expect(asCodec(z.number(), 'parameter', true)).toBeInstanceOf(codec.StandardSchemaCodec);
    // Outside parameters, absence is the schema's own business: it stays the schema.
    expect(asCodec(z.number().optional(), 'body')).toBeInstanceOf(codec.StandardSchemaCodec);
  });
});

/** A route with a Standard Schema in every parameter position (declared in each test, so that each fails on its own). */
function declareListBooks() {
  return rest.route({
    method: 'GET',
    path: '/shelves/{shelf}/books',
    pathParams: { shelf: z.number().int().positive() },
    query: { limit: z.number().int().max(50).default(10), tags: z.array(z.string()).optional(), q: rest.named('search', z.string().optional()) },
    headers: { tenant: rest.named('X-Tenant', z.string().min(2)) },
    cookies: { session: type('string >= 4') },
    response: z.array(book),
    responseHeaders: { total: rest.named('X-Total', z.number().int()) },
    responseCookies: { seen: rest.responseCookie(z.string(), { maxAge: 60 }) },
  });
}

describe('takesNothing: a response a handler may leave without a value (503), else a broken contract (500)', () => {
  it('asks a Standard Schema whether it admits no value, as it asks codecs', () => {
    expect(takesNothing(asCodec(z.object({ id: z.string() }), 'response codec'))).toBe(false);
    expect(takesNothing(asCodec(toStandardJsonSchema(v.string()), 'response codec'))).toBe(false);
    expect(takesNothing(asCodec(z.string().optional(), 'response codec'))).toBe(true);
    expect(takesNothing(codec.object({ id: codec.string() }))).toBe(false);
    expect(takesNothing(codec.optional(codec.string()))).toBe(true);
    expect(takesNothing(codec.any())).toBe(true);
  });
});

describe('rest.route with Standard Schemas wherever a codec goes', () => {
  it('makes every parameter a codec of text, optional or defaulted as its schema says', () => {
    const listBooks = declareListBooks();
    const params = listBooks.params as readonly rest.RequestMergeParam<unknown, unknown>[];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(['shelf', 'limit', 'tags', 'search', 'X-Tenant', 'session', 'X-Total', 'seen']);
    for (const p of params) expect(p.codec).toBeInstanceOf(codec.Codec);
    expect(params.map((p) => p.required)).toEqual([true, false, false, false, true, true, true, true]);
    expect(byName.limit?.codec.kind).toBe('defaulted');
    expect(isMultiValue(byName.tags?.codec)).toBe(true);
    expect(isMultiValue(byName.limit?.codec)).toBe(false);
    expect(byName['X-Total']?.codec.encode(3)).toBe('3');
    // With response headers, a Standard Schema response sits under `body`.
    expect(listBooks.respCodec.children()[0]).toBeInstanceOf(codec.StandardSchemaCodec);
  });

  it('reads parameters from their text and names the one that fails', () => {
    const handle = declareListBooks().registerHandle(rest.newServer({ title: 'books', version: '1' }));
    expect(() => handle.validateQuery(new URLSearchParams('limit=5&tags=a&tags=b'))).not.toThrow();
    expect(() => handle.validateQuery(new URLSearchParams('limit=500'))).toThrow(/query parameter "limit": .*50/);
    expect(() => handle.validateQuery(new URLSearchParams('limit=ten'))).toThrow(/query parameter "limit": Invalid input: expected number, received string/);
    expect(() => handle.buildPath({ shelf: '0' })).toThrow(rest.PathParamError);
    expect(handle.buildPath({ shelf: '7' })).toBe('/shelves/7/books');
    expect(() => handle.validateHeaders(new Headers({ 'x-tenant': 'a' }))).toThrow(/header parameter "X-Tenant"|header "X-Tenant"/);
    expect(() => handle.validateCookies({ session: 'abc' })).toThrow(/cookie "session"/);
  });

  it('takes a body, successes, error bodies and newRoute codecs, and documents their JSON Schemas', () => {
    const newBook = z.object({ title: z.string().min(1), year: z.number().int().optional() });
    const createBook = rest.route({
      method: 'POST',
      path: '/books',
      body: newBook,
      response: book,
      successes: { 200: rest.success(book, { description: 'Already there' }), 202: null },
      errors: [rest.errorPattern(NoBook, 409, toStandardJsonSchema(v.object({ taken: v.number() })), (e) => ({ taken: e.id }))],
    });
    // A Standard Schema body is the request's `body` field, whatever its shape.
    expect(createBook.reqCodec.decode({ title: 'x' })).toEqual({ body: { title: 'x' } });
    const getBook = rest.newRoute(
      'GET',
      '/books/{id}',
      codec.empty<{ id: number }>(),
      book,
      rest.newPathParam('id', z.coerce.number().int(), (r) => r.id, (r, x) => void (r.id = x)),
      rest.errorPattern(NoBook, 404, z.object({ missing: z.number() }), (e) => ({ missing: e.id })),
    );
    expect(getBook.clientHandle().buildPath({ id: '12' })).toBe('/books/12');
    const api = rest.newServer({ title: 'Shelf', version: '1' });
    createBook.withHandler((_ctx, req) => ({ id: 1, title: req.body.title })).register(api);
    getBook.withHandler((_ctx, req) => ({ id: req.id, title: 't' })).register(api);
    declareListBooks().withHandler(() => ({ body: [], total: 0, seen: 'x' })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, any>> };
    const post = doc.paths['/books']?.post;
    expect(post.requestBody.content['application/json'].schema).toEqual({ type: 'object', properties: { title: { type: 'string', minLength: 1 }, year: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } }, required: ['title'] });
    expect(post.responses['201'].content['application/json'].schema).toMatchObject({ type: 'object', required: ['id', 'title'] });
    expect(post.responses['200'].content['application/json'].schema).toMatchObject({ type: 'object', required: ['id', 'title'] });
    const get = doc.paths['/books/{id}']?.get;
    expect(get.parameters[0]).toMatchObject({ name: 'id', in: 'path', schema: { type: 'integer' } });
    expect(get.responses['404'].content['application/json'].schema).toEqual({ type: 'object', properties: { missing: { type: 'number' } }, required: ['missing'] });
    const list = doc.paths['/shelves/{shelf}/books']?.get;
    expect(list.parameters.find((p: { name: string }) => p.name === 'limit')).toMatchObject({ in: 'query', schema: { type: 'integer', maximum: 50, default: 10 } });
    expect(list.parameters.find((p: { name: string }) => p.name === 'tags')).toMatchObject({ in: 'query', schema: { type: 'array', items: { type: 'string' } } });
    expect(list.responses['200'].headers['X-Total'].schema).toMatchObject({ type: 'integer' });
  });

  it('refuses at declaration a schema the document cannot show, naming where it is', () => {
    expect(() => rest.route({ method: 'GET', path: '/a', query: { n: v.number() } })).toThrow(/^query parameter "n": the valibot schema has no JSON Schema/);
    expect(() => rest.route({ method: 'POST', path: '/a', body: z.object({ at: z.date() }) })).toThrow(/^body: the zod schema cannot be written as JSON Schema/);
    expect(() => rest.route({ method: 'GET', path: '/a', response: v.string() })).toThrow(/^response: the valibot schema/);
    expect(() => rest.route({ method: 'GET', path: '/a', successes: { 202: v.string() } })).toThrow(/^successes\[202\]: the valibot schema/);
    expect(() => rest.errorPattern(NoBook, 404, v.object({ a: v.string() }), () => ({ a: '' }))).toThrow(/^error body of status 404: the valibot schema/);
    expect(() => rest.newRoute('POST', '/a', v.string(), codec.empty<object>())).toThrow(/^request codec: the valibot schema/);
    expect(() => rest.route({ method: 'GET', path: '/a', headers: { h: rest.named('X-H', v.string()) } })).toThrow(/^header parameter "h": the valibot schema/);
  });
});
