// checkServer on a bookshelf whose routes are declared with zod schemas only (no codec of
// @lib/codec): requests are generated from the schemas' JSON Schema and judged by the schemas,
// over real HTTP. The clean server passes; a handler answering what its response schema refuses
// is found.
import * as rest from '@lib/rest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { z } from 'zod';
import { checkServer, formatReport } from './check-server.js';
import { requests } from './requests.js';

class BookNotFound extends Error {
  constructor(readonly id: number) {
    super(`no book ${id}`);
  }
}

const NewBook = z.object({ title: z.string().min(1), author: z.string().min(1), year: z.number().int().min(0).optional() });
const Book = NewBook.extend({ id: z.number().int().positive() });
const NotFound = z.object({ error: z.literal('not_found'), id: z.number() });
const tenant = rest.named('X-Tenant', z.string().min(2));
const bookId = z.number().int().positive();
const notFound = rest.errorPattern(BookNotFound, 404, NotFound, (e) => ({ error: 'not_found' as const, id: e.id }));

const listBooks = rest.route({
  method: 'GET',
  path: '/shelf/books',
  query: { limit: z.number().int().min(1).max(100).default(20), author: z.string().optional() },
  headers: { tenant },
  response: z.object({ items: z.array(Book), total: z.number().int() }),
  meta: { operationId: 'listBooks' },
});
const getBook = rest.route({ method: 'GET', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, response: Book, errors: [notFound], meta: { operationId: 'getBook' } });
const createBook = rest.route({ method: 'POST', path: '/shelf/books', headers: { tenant }, body: NewBook, response: Book, meta: { operationId: 'createBook' } });
const updateBook = rest.route({ method: 'PUT', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, body: NewBook, response: Book, errors: [notFound], meta: { operationId: 'updateBook' } });
const deleteBook = rest.route({ method: 'DELETE', path: '/shelf/books/{id}', pathParams: { id: bookId }, headers: { tenant }, errors: [notFound], meta: { operationId: 'deleteBook', respStatus: 204 } });

/** The bookshelf; `defect`: getBook answers a negative year, which `Book` refuses. */
function bookshelf(defect: boolean): rest.Server {
  const api = rest.newServer({ title: 'Bookshelf', version: '1.0.0' }, rest.withDefaultOptions({ validateResponses: false }));
  const books = new Map<number, z.infer<typeof Book>>();
  let next = 1;
  listBooks
    .withHandler((_ctx, req) => {
      const all = [...books.values()].filter((b) => req.author === undefined || b.author === req.author);
      return { items: all.slice(0, req.limit), total: all.length };
    })
    .register(api);
  getBook
    .withHandler((_ctx, req) => {
      const b = books.get(req.id);
      if (b === undefined) throw new BookNotFound(req.id);
      return defect ? { ...b, year: -1 } : b;
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
  return api;
}

describe('checkServer on routes declared with zod schemas', () => {
  it('generates requests from the schemas: valid ones decode, invalid ones break one thing', () => {
    for (const r of fc.sample(requests(getBook), { numRuns: 50, seed: 3 })) {
      expect(r.target).toMatch(/^\/shelf\/books\/[1-9]\d*$/);
      expect(r.headers['x-tenant']?.length).toBeGreaterThanOrEqual(2);
    }
    const refused = fc.sample(requests(createBook, { valid: false }), { numRuns: 200, seed: 3 });
    for (const r of refused.filter((x) => x.breaks?.at.startsWith('body'))) expect(NewBook.safeParse(JSON.parse(r.body as string)).success).toBe(false);
    const labels = new Set(refused.map((r) => `${r.breaks?.at} ${r.breaks?.constraint}`));
    expect([...labels]).toEqual(expect.arrayContaining(['body / type', 'body /title minLength', 'header X-Tenant minLength', 'body /author required', 'body /year minimum', 'body /year type']));
  });

  it('passes the bookshelf that keeps its contract', async () => {
    const report = await served(bookshelf(false), (baseURL) => checkServer({ api: bookshelf(false), baseURL, runs: 30, seed: 7 }));
    expect(report.failures, formatReport(report)).toEqual([]);
    expect(report.requests).toBeGreaterThan(100);
    for (const id of ['listBooks', 'getBook', 'createBook', 'updateBook', 'deleteBook']) expect(report.reach.find((r) => r.operationId === id)?.succeeded, id).toBe(true);
  }, 60_000);

  it('finds a handler answering a value its response schema refuses', async () => {
    const api = bookshelf(true);
    const report = await served(api, (baseURL) => checkServer({ api, baseURL, runs: 30, seed: 7 }));
    const failure = report.failures.find((f) => f.operationId === 'getBook');
    expect(failure?.problem).toMatch(/^the 200 body does not decode with the declared codec: .*year/);
    expect(report.failures.map((f) => f.operationId)).toEqual(['getBook']);
  }, 60_000);
});
