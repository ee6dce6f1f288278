/**
 * One error shape for the whole API, over real HTTP: server-wide error rules
 * (`rest.withErrors`) consulted after a route's own, matching the pipeline's own refusals — so
 * one rule answers every validation failure with 422 and the team's body, and the document says
 * 422 and no 400 — and RFC 9457 problem details (`rest.withProblemDetails()`) for every error
 * answer, documented once.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

class ArticleGone extends Error {}

const article = codec.object({ slug: codec.string(), title: codec.string().refine(validate.minLength(1)) });
const listArticles = rest.route({
  method: 'GET',
  path: '/es/articles',
  query: { limit: codec.defaulted(codec.intString().refine(validate.range(1, 50)), 20), tag: codec.optional(codec.string()) },
  response: codec.array(article),
  meta: { operationId: 'esListArticles' },
});
const createArticle = rest.route({
  method: 'POST',
  path: '/es/articles/{slug}',
  pathParams: { slug: codec.string().refine(validate.slug) },
  body: codec.object({ title: codec.string().refine(validate.minLength(1)), body: codec.string() }),
  response: article,
  errors: [rest.errorStatus(ArticleGone, 410)],
  meta: { operationId: 'esCreateArticle' },
});
const failing = rest.route({ method: 'GET', path: '/es/failing', response: article, meta: { operationId: 'esFailing' } });

/** The team's own body for a validation failure: every failing value's message. */
const unprocessable = codec.object({ errors: codec.object({ body: codec.array(codec.string()) }) }).withName('GenericErrorModel');
const validation422 = rest.errorPattern(rest.RequestValidationError, 422, unprocessable, (e) => ({ errors: { body: e.errors.map((x) => x.message) } }));
const notFoundBody = codec.object({ notFound: codec.string() });
const notFound404 = rest.errorPattern(rest.NoRouteError, 404, notFoundBody, (e) => ({ notFound: e.message }));

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components?: { schemas?: Record<string, unknown> } };

function register(api: rest.Server): void {
  listArticles.withHandler((_ctx, req) => [{ slug: `limit-${req.limit}`, title: req.tag ?? 'all' }]).register(api);
  createArticle
    .withHandler((_ctx, req) => {
      if (req.slug === 'gone') throw new ArticleGone('gone');
      return { slug: req.slug, title: req.title };
    })
    .register(api);
  failing
    .withHandler(() => {
      throw new Error('database password is hunter2');
    })
    .register(api);
}

export function errorShape(adapter: AdapterUnderTest): void {
  describe(`one error shape: ${adapter.name}`, () => {
    describe('rest.withErrors: a 422 rule for every validation failure', () => {
      let base = '';
      let stop: () => Promise<void> = () => Promise.resolve();
      let api: rest.Server;
      beforeAll(async () => {
        api = rest.newServer({ title: 'Conduit-like', version: '1' }, rest.withErrors(validation422, notFound404));
        register(api);
        ({ baseURL: base, stop } = await adapter.serve(api));
      });
      afterAll(() => stop());

      it('answers a bad parameter, a bad body, or both, with 422 and the team’s body', async () => {
        const query = await fetch(`${base}/es/articles?limit=99`);
        expect(query.status).toBe(422);
        expect(await query.json()).toEqual({ errors: { body: [expect.stringContaining('query parameter "limit"')] } });
        const body = await fetch(`${base}/es/articles/ok`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: '', body: 'x' }) });
        expect(body.status).toBe(422);
        const both = await fetch(`${base}/es/articles/Not%20A%20Slug`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(both.status).toBe(422);
        expect(((await both.json()) as { errors: { body: string[] } }).errors.body).toHaveLength(2);
        // The route's own rule still answers what it maps, and what no rule maps keeps its status.
        expect((await fetch(`${base}/es/articles/gone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 't', body: 'b' }) })).status).toBe(410);
        expect((await fetch(`${base}/es/articles`, { headers: { accept: 'application/xml' } })).status).toBe(406);
      });

      it('answers the adapter’s own 404 through the same rules', async () => {
        const res = await fetch(`${base}/es/nowhere`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ notFound: 'not found' });
      });

      it('documents 422 with that body, and no 400, on every route that validates', () => {
        const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Doc;
        for (const [path, method] of [
          ['/es/articles', 'get'],
          ['/es/articles/{slug}', 'post'],
        ] as const) {
          const responses = doc.paths[path]?.[method]?.responses ?? {};
          expect(Object.keys(responses), `${method} ${path}`).toContain('422');
          expect(Object.keys(responses), `${method} ${path}`).not.toContain('400');
          expect(responses['422']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/GenericErrorModel' });
        }
        expect(Object.keys(doc.paths['/es/failing']?.['get']?.responses ?? {})).not.toContain('422');
      });

      it('is read by a typed client given the same rules', async () => {
        // A client built from an older declaration, whose limit the server now refuses.
        const olderList = rest.route({ method: 'GET', path: '/es/articles', query: { limit: codec.optional(codec.string()) }, response: codec.array(article) });
        const client = rest.newClient({ errors: [validation422] });
        client.attach(clientTransport({ baseURL: base }));
        const r = await client.safeCall(olderList, { limit: '99' });
        expect(r).toMatchObject({ ok: false, status: 422, error: { errors: { body: [expect.stringContaining('limit')] } } });
        // The client's type carries the shared rules: the status narrows the body, no cast.
        if (!r.ok && r.status === 422) expectTypeOf(r.error).toEqualTypeOf<{ errors: { body: string[] } }>();
        const thrown = await client.call(olderList, { limit: '0' }).catch((e: unknown) => e);
        expect(thrown).toBeInstanceOf(rest.ErrorPatternResponse);
        // Without the rules the same answer is an unexpected status.
        const bare = rest.newClient();
        bare.attach(clientTransport({ baseURL: base }));
        expect(await bare.call(olderList, { limit: '0' }).catch((e: unknown) => e)).toBeInstanceOf(rest.UnexpectedStatusError);
      });
    });

    describe('rest.withProblemDetails(): every error answer as RFC 9457 problem details', () => {
      let base = '';
      let stop: () => Promise<void> = () => Promise.resolve();
      let api: rest.Server;
      beforeAll(async () => {
        api = rest.newServer({ title: 'Problems', version: '1' }, rest.withProblemDetails());
        register(api);
        ({ baseURL: base, stop } = await adapter.serve(api));
      });
      afterAll(() => stop());

      const problem = async (res: Response): Promise<rest.ProblemDetails> => {
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        return (await res.json()) as rest.ProblemDetails;
      };

      it('answers a validation failure with 400 problem details, each failing value in errors', async () => {
        const res = await fetch(`${base}/es/articles/Not%20A%20Slug`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: '' }) });
        expect(res.status).toBe(400);
        const p = await problem(res);
        expect(p).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
        expect(p.errors).toEqual([
          { detail: expect.any(String), in: 'path', name: 'slug' },
          { detail: expect.any(String), in: 'body', pointer: '#/title' },
          { detail: expect.any(String), in: 'body', pointer: '#/body' },
        ]);
      });

      it('answers 404, 405, 406, 415 and a 500 as problem details too, a 500 without the server’s message', async () => {
        expect((await problem(await fetch(`${base}/es/nowhere`))).status).toBe(404);
        expect((await problem(await fetch(`${base}/es/failing`, { method: 'DELETE' }))).status).toBe(405);
        expect((await problem(await fetch(`${base}/es/articles`, { headers: { accept: 'application/xml' } }))).status).toBe(406);
        expect((await problem(await fetch(`${base}/es/articles/ok`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))).status).toBe(415);
        const failed = await fetch(`${base}/es/failing`);
        expect(failed.status).toBe(500);
        const text = JSON.stringify(await problem(failed));
        expect(text).not.toContain('hunter2');
        expect(JSON.parse(text)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Internal Server Error' });
      });

      it('documents ProblemDetails once in components, under application/problem+json', () => {
        const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Doc;
        expect(doc.components?.schemas?.['ProblemDetails']).toBeDefined();
        const post = doc.paths['/es/articles/{slug}']?.['post']?.responses ?? {};
        expect(post['400']?.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } });
        // The last-resort answer, when even the errorHandler fails, stays the JSON envelope.
        expect(Object.keys(post['500']?.content ?? {})).toEqual(['application/json', 'application/problem+json']);
      });
    });
  });
}
