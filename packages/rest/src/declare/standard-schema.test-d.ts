import * as codec from '@lib/codec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import * as rest from '../index.js';

class NoBook extends Error {
  constructor(readonly id: number) {
    super(`no book ${id}`);
  }
}

const book = z.object({ id: z.number().int(), title: z.string(), year: z.number().int().optional() });
type Book = { id: number; title: string; year?: number | undefined };
/** The request value a handler receives, and what a caller sends. */
type ReqOf<R> = R extends rest.Route<infer Req, any, any, any, any, any, any> ? Req : never;
type InputOf<R> = R extends rest.Route<any, any, any, infer In, any, any, any> ? In : never;

test('zod: parameters, body, response, headers and cookies take their output, and a caller their input', () => {
  const updateBook = rest.route({
    method: 'PUT',
    path: '/books/{id}',
    pathParams: { id: z.coerce.number().int() },
    query: { dryRun: z.boolean().default(false), tags: z.array(z.string()).optional() },
    headers: { tenant: rest.named('X-Tenant', z.string()) },
    cookies: { session: z.string().optional() },
    body: z.object({ title: z.string(), at: z.iso.datetime().transform((s) => new Date(s)) }),
    response: book,
    responseHeaders: { etag: rest.named('ETag', z.string()) },
    responseCookies: { seen: rest.responseCookie(z.string(), { maxAge: 60 }) },
    errors: [rest.errorPattern(NoBook, 404, z.object({ missing: z.number() }), (e) => ({ missing: e.id }))],
  });
  expectTypeOf<ReqOf<typeof updateBook>>().toEqualTypeOf<{ id: number; dryRun: boolean; tenant: string; body: { title: string; at: Date }; tags?: string[] | undefined; session?: string | undefined }>();
  const client = rest.newClient();
  expectTypeOf<InputOf<typeof updateBook>>().toEqualTypeOf<{ id: unknown; tenant: string; body: { title: string; at: string }; dryRun?: boolean | undefined; tags?: string[] | undefined; session?: string | undefined }>();
  // A Standard Schema response is no object codec: beside response headers and cookies it sits under `body`.
  expectTypeOf(client.call(updateBook, { id: 1, tenant: 't', body: { title: 'x', at: '2020-01-01T00:00:00Z' } })).toEqualTypeOf<Promise<{ body: Book; etag: string; seen: string }>>();
  updateBook.withHandler((_ctx, req) => ({ body: { id: req.id, title: req.body.title }, etag: '"1"', seen: 'now' }));
  // @ts-expect-error: the response's output type is checked
  updateBook.withHandler(() => ({ body: { id: 'x', title: 't' }, etag: '"1"', seen: 'now' }));
  void client.safeCall(updateBook, { id: 1, tenant: 't', body: { title: 'x', at: '2020-01-01T00:00:00Z' } }).then((r) => {
    if (!r.ok && r.status === 404) expectTypeOf(r.error).toEqualTypeOf<{ missing: number }>();
  });
});

test('a Standard Schema response stands alone; successes and rest.success take schemas', () => {
  const listBooks = rest.route({ method: 'GET', path: '/books', query: { limit: z.number().int().default(10) }, response: z.array(book) });
  expectTypeOf(rest.newClient().call(listBooks, {})).toEqualTypeOf<Promise<Book[]>>();
  const createBook = rest.route({
    method: 'POST',
    path: '/books',
    body: book.omit({ id: true }),
    response: book,
    successes: { 200: rest.success(book, { description: 'Already there' }), 202: null },
  });
  createBook.withHandler((_ctx, req, respond) => {
    expectTypeOf(req).toEqualTypeOf<{ body: { title: string; year?: number | undefined } }>();
    return req.body.title === '' ? respond(200, { id: 1, title: 'x' }) : { id: 2, title: req.body.title };
  });
});

test('valibot and arktype schemas infer the same way', () => {
  const valibotBook = toStandardJsonSchema(v.object({ id: v.number(), title: v.string() }));
  const fromValibot = rest.route({
    method: 'GET',
    path: '/v/books/{id}',
    pathParams: { id: toStandardJsonSchema(v.number()) },
    query: { limit: toStandardJsonSchema(v.optional(v.number(), 10)) },
    response: valibotBook,
  });
  expectTypeOf<ReqOf<typeof fromValibot>>().toEqualTypeOf<{ id: number; limit: number }>();
  expectTypeOf<InputOf<typeof fromValibot>>().toEqualTypeOf<{ id: number; limit?: number | undefined }>();
  expectTypeOf(rest.newClient().call(fromValibot, { id: 1 })).toEqualTypeOf<Promise<{ id: number; title: string }>>();

  const fromArk = rest.route({
    method: 'POST',
    path: '/a/books',
    headers: { tenant: rest.named('X-Tenant', type('string >= 2')) },
    query: { count: type('string.numeric.parse') },
    body: type({ title: 'string', 'year?': 'number.integer' }),
    response: type({ id: 'number', title: 'string' }),
  });
  expectTypeOf<ReqOf<typeof fromArk>>().toEqualTypeOf<{ tenant: string; count: number; body: { title: string; year?: number } }>();
  expectTypeOf<InputOf<typeof fromArk>>().toEqualTypeOf<{ tenant: string; count: string; body: { title: string; year?: number } }>();
  rest.newClient().call(fromArk, { tenant: 'ab', count: '3', body: { title: 't' } });
  // @ts-expect-error: a caller sends the schema's input: text for arktype's parsing schema
  rest.newClient().call(fromArk, { tenant: 'ab', count: 3, body: { title: 't' } });
});

test('newRoute, its parameters and error patterns take Standard Schemas, typed by their output', () => {
  const getBook = rest.newRoute(
    'GET',
    '/books/{id}',
    codec.empty<{ id: number }>(),
    book,
    rest.newPathParam('id', z.coerce.number().int(), (r) => r.id, (r, x) => {
      expectTypeOf(x).toEqualTypeOf<number>();
      r.id = x;
    }),
    rest.errorPattern(NoBook, 404, z.object({ missing: z.number() }), (e) => ({ missing: e.id })),
  );
  expectTypeOf(getBook).toEqualTypeOf<rest.Route<{ id: number }, Book, '/books/{id}', { id: number }, rest.DeclaredError<404, { missing: number }>>>();
  // @ts-expect-error: an error pattern's body is its schema's output
  rest.errorPattern(NoBook, 404, z.object({ missing: z.number() }), (e) => ({ missing: String(e.id) }));
  // @ts-expect-error: a string is neither a codec nor a Standard Schema
  rest.route({ method: 'GET', path: '/x', query: { q: 'text' } });
});
