/**
 * The request/response contract of the server pipeline: every parameter and body issue
 * reported, array-valued query parameters, response cookies, error mapping into response
 * headers, ErrorLog, server-wide options, the adapter's own answers, redirects. Adapter-agnostic.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { responseHeadersKey } from '@lib/rest/pipeline';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

class RateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super('slow down');
  }
}
class Audited extends Error {}

interface SearchReq {
  tags?: string[];
  ids?: number[];
  limit: number;
  tenant: string;
  session: string;
  name: string;
  size: number;
}
interface Throttled {
  ok: boolean;
  retryAfter?: number;
  session?: string;
}

/** A problem+json style envelope for the server-wide errorHandler. */
const problem = codec.object({ title: codec.string(), status: codec.int() }).withName('Problem');

export function contract(adapter: AdapterUnderTest): void {
  describe(`contract: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    const records: string[] = [];
    const logged: { status: number; value: unknown }[] = [];
    const responses: string[] = [];
    const observer: rest.Observer = {
      onValidationError: (i) => records.push(`${i.location}:${i.name}`),
      onErrorLog: (i) => logged.push({ status: i.status, value: i.value }),
      onResponse: (i) => responses.push(`${i.route} ${i.status}`),
    };

    beforeAll(async () => {
      const api = rest.newServer(
        { title: 'Contract', version: '1.0.0' },
        rest.withDefaultOptions({ errorHandler: (_ctx, err, status) => ({ body: { title: (err as Error).message, status } }), errorBody: problem, observer }),
      );
      const getUser = rest.newRoute('GET', '/c/users/{id}', codec.empty<{ id: string }>(), codec.object({ id: codec.string() }),
        rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
          r.id = v;
        }),
      );
      getUser.withHandler((_ctx, req) => ({ id: req.id })).register(api);

      rest
        .newRoute('POST', '/c/search/{size}', codec.object({ name: codec.string().refine(validate.minLength(2)) }) as unknown as codec.Codec<SearchReq>, codec.object({ tags: codec.array(codec.string()), ids: codec.array(codec.int()) }),
          rest.newOptionalQueryParam('tag', codec.array(codec.string()), (r: SearchReq) => r.tags, (r, v) => {
            r.tags = v;
          }),
          rest.newOptionalQueryParam('id', codec.array(codec.intString().refine(validate.min(1))), (r: SearchReq) => r.ids, (r, v) => {
            r.ids = v;
          }),
          rest.newRequiredQueryParam('limit', codec.intString().refine(validate.max(10)), (r: SearchReq) => r.limit, (r, v) => {
            r.limit = v;
          }),
          rest.newRequiredHeaderParam('X-Tenant', codec.string().refine(validate.minLength(3)), (r: SearchReq) => r.tenant, (r, v) => {
            r.tenant = v;
          }),
          rest.newRequiredCookieParam('session', codec.string().refine(validate.minLength(4)), (r: SearchReq) => r.session, (r, v) => {
            r.session = v;
          }),
          rest.newPathParam('size', codec.intString(), (r: SearchReq) => r.size, (r, v) => {
            r.size = v;
          }),
        )
        .withHandler((_ctx, req) => ({ tags: req.tags ?? [], ids: req.ids ?? [] }))
        .register(api);

      // A plain response cookie, checked after the handler.
      const cookieRoute = rest.newRoute('GET', '/c/plain-cookie', codec.empty<{ mode: string }>(), codec.empty<object>(),
        rest.newRequiredQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => {
          r.mode = v;
        }),
        rest.responseCookieParam({ name: 'theme', required: true }).withCodec(codec.string().refine(validate.oneOf('dark', 'light'))),
      );
      cookieRoute
        .withHandler((ctx, req) => {
          const headers = ctx.get(responseHeadersKey);
          if (req.mode === 'good') headers?.append('set-cookie', 'theme=dark; Path=/');
          if (req.mode === 'bad') headers?.append('set-cookie', 'theme=neon; Path=/');
          return {};
        })
        .register(api);

      // Error mapping rule 5: the 429 payload fills the route's Retry-After and cookie merge fields.
      rest
        .newRoute('GET', '/c/throttled', codec.empty<{ mode: string }>(), codec.object({ ok: codec.boolean() }) as codec.Codec<Throttled>,
          rest.newRequiredQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => {
            r.mode = v;
          }),
          rest.newOptionalResponseHeaderParam('Retry-After', codec.intString(), (r: Throttled) => r.retryAfter, (r, v) => {
            r.retryAfter = v;
          }),
          rest.newOptionalResponseCookieParam('session', codec.string(), (r: Throttled) => r.session, (r, v) => {
            r.session = v;
          }),
          rest.errorPattern(RateLimited, 429, codec.object({ error: codec.string(), retryAfter: codec.int() }), (e) => ({ error: e.message, retryAfter: e.retryAfter })),
          rest.errorPattern(Audited, 451, codec.object({ reason: codec.string() }), () => ({ reason: 'audit' })).withAction(rest.ErrorLog),
        )
        .withHandler((_ctx, req) => {
          if (req.mode === 'limit') throw new RateLimited(30);
          if (req.mode === 'audit') throw new Audited('audited');
          return { ok: true, retryAfter: 1, session: 'abcd' };
        })
        .register(api);

      // A route-level errorHandler overrides the server-wide one.
      rest
        .newRoute('GET', '/c/own-handler', codec.empty<object>(), codec.empty<object>())
        .withOptions({ errorHandler: () => ({ body: { mine: true } }) })
        .withHandler(() => {
          throw new Error('x');
        })
        .register(api);

      // contentType governs the request only.
      rest
        .newRoute('POST', '/c/vendor', codec.object({ a: codec.string() }), codec.object({ a: codec.string() }))
        .withOptions({ contentType: 'application/vnd.acme+json' })
        .withHandler((_ctx, req) => req)
        .register(api);

      // Redirects: a declared 302 route, and rest.redirect returned or thrown by a handler.
      rest
        .newRoute('GET', '/c/old/{id}', codec.empty<{ id: string }>(), codec.empty<{ location: string }>(),
          rest.routeMeta({ respStatus: 302 }),
          rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
            r.id = v;
          }),
          rest.newRequiredResponseHeaderParam('Location', codec.string(), (r: { location: string }) => r.location, (r, v) => {
            r.location = v;
          }),
        )
        .withHandler((_ctx, req) => ({ location: getUser.buildPath({ id: req.id }) }))
        .register(api);
      rest
        .newRoute('POST', '/c/users', codec.object({ id: codec.string(), how: codec.string() }), codec.object({ id: codec.string() }))
        .withHandler((_ctx, req) => {
          if (req.how === 'throw') throw rest.redirect(307, getUser, { id: req.id });
          if (req.how === 'return') return rest.redirect(303, getUser, { id: req.id });
          return { id: req.id };
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(() => stop());

    const search = (query: string, headers: Record<string, string>, body: string): Promise<Response> =>
      fetch(`${base}/c/search/3?${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    describe('validation', () => {
      it('checks every parameter and the body, reports each failure, and answers one 400 naming them all', async () => {
        records.length = 0;
        const res = await search('limit=99&id=0', { 'x-tenant': 'ab' }, '{"name":"x"}');
        expect(res.status).toBe(400);
        const body = (await res.json()) as { title: string; status: number };
        expect(body.status).toBe(400);
        for (const part of ['query parameter "id"', 'query parameter "limit": must be at most 10', 'cookie "session": is required', 'header "X-Tenant": must have at least 3 characters', 'invalid request body: name: must have at least 2 characters']) {
          expect(body.title).toContain(part);
        }
        expect(records).toEqual(['query:id', 'query:limit', 'cookie:session', 'header:X-Tenant', 'body:name']);
      });

      it('keeps a single failure as itself', async () => {
        const res = await search('limit=1', { 'x-tenant': 'abc', cookie: 'session=abcd' }, '{"name":"x"}');
        expect(res.status).toBe(400);
        expect(((await res.json()) as { title: string }).title).toBe('invalid request body: name: must have at least 2 characters');
      });

      it('gives an array-valued query parameter every value of its key', async () => {
        const ok = await search('limit=1&tag=a&tag=b&tag=a&id=1&id=22', { 'x-tenant': 'abc', cookie: 'session=abcd' }, '{"name":"xy"}');
        expect(ok.status).toBe(201);
        expect(await ok.json()).toEqual({ tags: ['a', 'b', 'a'], ids: [1, 22] });
        const none = await search('limit=1', { 'x-tenant': 'abc', cookie: 'session=abcd' }, '{"name":"xy"}');
        expect(await none.json()).toEqual({ tags: [], ids: [] });
        const bad = await search('limit=1&id=1&id=x', { 'x-tenant': 'abc', cookie: 'session=abcd' }, '{"name":"xy"}');
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { title: string }).title).toMatch(/query parameter "id": \[1\]: /);
      });
    });

    describe('response cookies and error payloads', () => {
      it('checks a plain response cookie: required and accepted by its codec', async () => {
        expect((await fetch(`${base}/c/plain-cookie?mode=good`)).status).toBe(200);
        const missing = await fetch(`${base}/c/plain-cookie?mode=none`);
        expect(missing.status).toBe(500);
        expect(missing.headers.getSetCookie()).toEqual([]);
        const bad = await fetch(`${base}/c/plain-cookie?mode=bad`);
        expect(bad.status).toBe(500);
        expect(bad.headers.getSetCookie()).toEqual([]);
      });

      it('fills the route’s response header and cookie merge fields from an error pattern’s payload', async () => {
        const res = await fetch(`${base}/c/throttled?mode=limit`);
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('30');
        expect(res.headers.getSetCookie()).toEqual([]);
        expect(await res.json()).toEqual({ error: 'slow down', retryAfter: 30 });
        const ok = await fetch(`${base}/c/throttled?mode=ok`);
        expect(ok.headers.get('retry-after')).toBe('1');
      });

      it('sends an ErrorLog match through the errorHandler and reports it to the observer', async () => {
        logged.length = 0;
        const res = await fetch(`${base}/c/throttled?mode=audit`);
        expect(res.status).toBe(451);
        expect(await res.json()).toEqual({ title: 'audited', status: 451 });
        expect(logged).toEqual([{ status: 451, value: { reason: 'audit' } }]);
      });
    });

    describe('server-wide options', () => {
      it('gives every route the default errorHandler and observer; a route’s own wins', async () => {
        const res = await fetch(`${base}/c/own-handler`);
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ mine: true });
        expect(responses).toContain('GET /c/own-handler 500');
      });

      it('sends the adapter’s own 404 and 405 through the default errorHandler', async () => {
        const nf = await fetch(`${base}/c/nowhere`);
        expect(nf.status).toBe(404);
        expect(await nf.json()).toEqual({ title: 'not found', status: 404 });
        const na = await fetch(`${base}/c/users/x`, { method: 'DELETE' });
        expect(na.status).toBe(405);
        expect(na.headers.get('allow')).toBe('GET, HEAD');
        expect(await na.json()).toEqual({ title: 'method not allowed', status: 405 });
      });

      it('applies contentType to request bodies only', async () => {
        const res = await fetch(`${base}/c/vendor`, { method: 'POST', headers: { 'content-type': 'application/vnd.acme+json', accept: 'application/json' }, body: '{"a":"b"}' });
        expect(res.status).toBe(201);
        expect(res.headers.get('content-type')).toBe('application/json');
        const wrong = await fetch(`${base}/c/vendor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"b"}' });
        expect(wrong.status).toBe(415);
      });
    });

    describe('redirects', () => {
      it('serves a 3xx route with its Location', async () => {
        const res = await fetch(`${base}/c/old/a%20b`, { redirect: 'manual' });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/c/users/a%20b');
      });

      it('writes rest.redirect returned or thrown by a handler', async () => {
        const post = (how: string): Promise<Response> =>
          fetch(`${base}/c/users`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'u/1', how }) });
        const returned = await post('return');
        expect(returned.status).toBe(303);
        expect(returned.headers.get('location')).toBe('/c/users/u%2F1');
        expect(await returned.text()).toBe('');
        const thrown = await post('throw');
        expect(thrown.status).toBe(307);
        expect(thrown.headers.get('location')).toBe('/c/users/u%2F1');
        expect((await post('none')).status).toBe(201);
      });
    });
  });
}
