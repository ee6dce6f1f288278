/**
 * Codec-backed middleware over real HTTP: a request-id middleware for every route (`api.use`),
 * route middleware (`route.use`, `handleMW`), their order, `Out` reaching the handler through the
 * context, the errors middleware can cause (400, a route pattern winning, 500), the typed client
 * writing a middleware's input (`clientMW`, `withSend`), attachment errors, and the OpenAPI
 * document. Adapter-agnostic.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { countingClient } from './counting-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

class RateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super('slow down');
  }
}
class Gone extends Error {}

/** Which middleware ran for this request, in order. */
const trail = rest.contextKey<string[]>('trail');
function mark(ctx: rest.Context, name: string): void {
  const t = ctx.get(trail) ?? [];
  t.push(name);
  ctx.set(trail, t);
}

let generated = 0;

/** Reads an optional `X-Request-ID` and echoes it, generating one when absent. */
const requestId = rest
  .newMiddleware(
    rest.declaration(
      'requestId',
      codec.object({ requestId: codec.optional(codec.string()) }),
      codec.object({ requestId: codec.string() }),
    ),
  )
  .withRequestHeader(
    rest.newOptionalHeaderParam('X-Request-ID', codec.string().refine(validate.pattern(/^[\w-]{1,64}$/)), (i) => i.requestId, (i, v) => {
      i.requestId = v;
    }),
  )
  .withResponseHeader(
    rest.newRequiredResponseHeaderParam('X-Request-ID', codec.string(), (o) => o.requestId, (o, v) => {
      o.requestId = v;
    }),
  )
  .withReceive((ctx, input) => {
    mark(ctx, 'requestId');
    return { requestId: input.requestId ?? `gen-${++generated}` };
  });

interface TenantIn {
  tenant: string;
}
interface TenantOut {
  tenant: string;
  plan: string;
}
/** A tenant middleware bound per route: the server function with `handleMW`, the client one with `clientMW`. */
const tenant = rest
  .newMiddleware(rest.declaration('tenant', codec.empty<TenantIn>(), codec.object({ tenant: codec.string(), plan: codec.string() }) as codec.Codec<TenantOut>))
  .withRequestHeader(
    rest.newRequiredHeaderParam('X-Tenant', codec.string().refine(validate.minLength(3)), (i) => i.tenant, (i, v) => {
      i.tenant = v;
    }),
  )
  .withResponseHeader(
    rest.newRequiredResponseHeaderParam('X-Plan', codec.string(), (o) => o.plan, (o, v) => {
      o.plan = v;
    }),
  );

/** A route-agnostic middleware that audits; no request fields. */
const audit = rest.newMiddleware(rest.declaration('audit', codec.empty<object>(), codec.empty<object>())).withReceive((ctx) => {
  mark(ctx, 'audit');
  return {};
});

/** A bundled middleware with both sides: the client sends `?v=` and a `locale` cookie. */
const version = rest
  .newMiddleware(
    rest.declaration(
      'version',
      codec.object({ version: codec.int(), locale: codec.optional(codec.string()) }),
      codec.object({ version: codec.int(), locale: codec.optional(codec.string()) }),
    ),
  )
  .withRequestQuery(
    rest.newRequiredQueryParam('v', codec.intString().refine(validate.min(1)), (i) => i.version, (i, v) => {
      i.version = v;
    }),
  )
  .withRequestCookie(
    rest.newOptionalCookieParam('locale', codec.string(), (i) => i.locale, (i, v) => {
      i.locale = v;
    }),
  )
  .withResponseCookie(
    rest
      .newOptionalResponseCookieParam('locale', codec.string(), (o: { version: number; locale?: string | undefined }) => o.locale, (o, v) => {
        o.locale = v;
      })
      .withAttributes(() => ({ insecure: true, sameSite: 'lax' })),
  )
  .withSend(() => ({ version: 2, locale: 'fr' }))
  .withReceive((ctx, input) => {
    mark(ctx, 'version');
    return input;
  });

const trailBody = codec.object({ trail: codec.array(codec.string()), requestId: codec.string(), tenant: codec.optional(codec.string()), version: codec.optional(codec.int()) });
type TrailBody = codec.Infer<typeof trailBody>;

function trailOf(ctx: rest.Context): TrailBody {
  const t = tenant.output(ctx);
  const v = version.output(ctx);
  return {
    trail: [...(ctx.get(trail) ?? []), 'handler'],
    requestId: requestId.output(ctx)?.requestId ?? 'none',
    ...(t !== undefined && { tenant: t.tenant }),
    ...(v !== undefined && { version: v.version }),
  };
}

/** The tenant route, shared by server and client: both sides of `tenant` are bound. */
const tenantRoute = rest
  .newRoute('GET', '/mw/tenant', codec.empty<{ mode?: string }>(), trailBody,
    rest.newOptionalQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => {
      r.mode = v;
    }),
    rest.errorPattern(RateLimited, 429, codec.object({ error: codec.string(), retryAfter: codec.int() }), (e) => ({ error: e.message, retryAfter: e.retryAfter })),
    rest.errorStatus(Gone, 410),
  )
  .use(audit)
  .handleMW(tenant, (ctx, req, input) => {
    mark(ctx, 'tenant');
    if (input.tenant === 'banned') throw new Error('tenant is suspended');
    if (input.tenant === 'slow') throw new RateLimited(30);
    if (input.tenant === 'broken') return { tenant: input.tenant, plan: 'pro\r\nX-Leak: secret-plan-hunter2' };
    if (input.tenant === 'shapeless') return { tenant: input.tenant, plan: 42 } as unknown as TenantOut;
    return { tenant: input.tenant, plan: req.mode === 'gone' ? 'free' : 'pro' };
  })
  .clientMW(tenant, (req) => {
    if (req.mode === 'refuse') throw new Error('no tenant configured');
    return { tenant: req.mode === 'other' ? 'globex' : 'acme' };
  });

export function middleware(adapter: AdapterUnderTest): void {
  describe(`middleware: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    let handlerRuns = 0;

    beforeAll(async () => {
      api = rest.newServer({ title: 'Middleware', version: '1.0.0' });
      // Registered before api.use: the builder's middleware still runs first.
      tenantRoute
        .withHandler((ctx, req) => {
          handlerRuns++;
          if (req.mode === 'gone') throw new Gone('gone');
          return trailOf(ctx);
        })
        .register(api);
      api.use(requestId);
      rest
        .newRoute('GET', '/mw/echo', codec.empty<object>(), trailBody)
        .withHandler((ctx) => {
          handlerRuns++;
          return trailOf(ctx);
        })
        .register(api);
      // Route-level order is declaration order: tenant before audit here.
      rest
        .newRoute('GET', '/mw/reversed', codec.empty<object>(), trailBody)
        .handleMW(tenant, (ctx, _req, input) => {
          mark(ctx, 'tenant');
          return { tenant: input.tenant, plan: 'basic' };
        })
        .use(audit)
        .withHandler((ctx) => trailOf(ctx))
        .register(api);
      versionRoute.withHandler((ctx) => trailOf(ctx)).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(() => stop());

    const versionRoute = rest.newRoute('GET', '/mw/version', codec.empty<object>(), trailBody).use(version);
    const errorOf = async (res: Response): Promise<string> => ((await res.json()) as { error: string }).error;

    describe('server', () => {
      it('echoes X-Request-ID, and hands the middleware output to the handler through the context', async () => {
        const res = await fetch(`${base}/mw/echo`, { headers: { 'x-request-id': 'req-123' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toBe('req-123');
        expect(await res.json()).toEqual({ trail: ['requestId', 'handler'], requestId: 'req-123' });
      });

      it('generates a request id when the header is absent', async () => {
        const res = await fetch(`${base}/mw/echo`);
        expect(res.status).toBe(200);
        const id = res.headers.get('x-request-id');
        expect(id).toMatch(/^gen-\d+$/);
        expect(((await res.json()) as TrailBody).requestId).toBe(id);
      });

      it('answers 400 with MiddlewareInputError when the input fails its codecs, before the handler', async () => {
        const before = handlerRuns;
        const bad = await fetch(`${base}/mw/echo`, { headers: { 'x-request-id': 'no spaces allowed' } });
        expect(bad.status).toBe(400);
        expect(await errorOf(bad)).toBe('middleware "requestId": invalid input: header "X-Request-ID": must match /^[\\w-]{1,64}$/');
        const missing = await fetch(`${base}/mw/tenant`, { headers: { 'x-request-id': 'r-1' } });
        expect(missing.status).toBe(400);
        expect(await errorOf(missing)).toBe('middleware "tenant": invalid input: header "X-Tenant": is required');
        // The request-id middleware ran before tenant failed: its header is still sent.
        expect(missing.headers.get('x-request-id')).toBe('r-1');
        expect(handlerRuns).toBe(before);
      });

      it('runs api.use middleware first, then the route\'s in declaration order', async () => {
        const res = await fetch(`${base}/mw/tenant`, { headers: { 'x-tenant': 'acme', 'x-request-id': 'r-2' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-plan')).toBe('pro');
        expect(res.headers.get('x-request-id')).toBe('r-2');
        expect(await res.json()).toEqual({ trail: ['requestId', 'audit', 'tenant', 'handler'], requestId: 'r-2', tenant: 'acme' });
        const reversed = await fetch(`${base}/mw/reversed`, { headers: { 'x-tenant': 'acme' } });
        expect(((await reversed.json()) as TrailBody).trail).toEqual(['requestId', 'tenant', 'audit', 'handler']);
        expect(reversed.headers.get('x-plan')).toBe('basic');
      });

      it('answers 400 with the message of a middleware error no rule matches', async () => {
        const before = handlerRuns;
        const res = await fetch(`${base}/mw/tenant`, { headers: { 'x-tenant': 'banned' } });
        expect(res.status).toBe(400);
        expect(await errorOf(res)).toBe('middleware "tenant": tenant is suspended');
        expect(handlerRuns).toBe(before);
      });

      it('lets a route pattern that matches the middleware error win', async () => {
        const res = await fetch(`${base}/mw/tenant`, { headers: { 'x-tenant': 'slow' } });
        expect(res.status).toBe(429);
        expect(await res.json()).toEqual({ error: 'slow down', retryAfter: 30 });
        expect(res.headers.get('x-request-id')).toMatch(/^gen-/);
      });

      it('keeps the output of middleware that ran on the handler\'s error responses', async () => {
        const res = await fetch(`${base}/mw/tenant?mode=gone`, { headers: { 'x-tenant': 'acme', 'x-request-id': 'r-3' } });
        expect(res.status).toBe(410);
        expect(res.headers.get('x-request-id')).toBe('r-3');
        expect(res.headers.get('x-plan')).toBe('free');
      });

      it('answers 500 with MiddlewareOutputError when the output breaks its contract, leaking nothing', async () => {
        const before = handlerRuns;
        for (const t of ['broken', 'shapeless']) {
          const res = await fetch(`${base}/mw/tenant`, { headers: { 'x-tenant': t } });
          expect(res.status).toBe(500);
          const text = await res.text();
          expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
          expect(text).not.toMatch(/hunter2|secret|X-Leak|tenant/);
          expect(res.headers.get('x-leak')).toBeNull();
          expect(res.headers.get('x-plan')).toBeNull();
        }
        expect(handlerRuns).toBe(before);
      });

      it('reads query and cookie fields and writes response cookies with the default attributes unless given', async () => {
        const res = await fetch(`${base}/mw/version?v=3`, { headers: { cookie: 'locale=de' } });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ trail: ['requestId', 'version', 'handler'], version: 3 });
        expect(res.headers.getSetCookie()).toEqual(['locale=de; Path=/; HttpOnly; SameSite=Lax']);
        const bad = await fetch(`${base}/mw/version?v=0`);
        expect(bad.status).toBe(400);
        expect(await errorOf(bad)).toBe('middleware "version": invalid input: query parameter "v": must be at least 1');
      });
    });

    describe('typed client', () => {
      it('writes the input of clientMW into the request', async () => {
        const client = rest.newClient();
        client.attach(clientTransport({ baseURL: base }));
        const out = await client.call(tenantRoute, {});
        expect(out).toMatchObject({ trail: ['requestId', 'audit', 'tenant', 'handler'], tenant: 'acme' });
        expect((await client.call(tenantRoute, { mode: 'other' })).tenant).toBe('globex');
      });

      it('runs a middleware\'s withSend for a route that uses it', async () => {
        const client = rest.newClient();
        client.attach(clientTransport({ baseURL: base }));
        expect(await client.call(versionRoute, {})).toMatchObject({ version: 2, trail: ['requestId', 'version', 'handler'] });
      });

      it('aborts the call with RequestBuildError when the client function throws, sending nothing', async () => {
        const { client, sent } = countingClient(base);
        const err = await client.call(tenantRoute, { mode: 'refuse' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(rest.RequestBuildError);
        expect((err as Error).message).toMatch(/no tenant configured/);
        expect(sent()).toBe(0);
        await client.call(tenantRoute, {});
        expect(sent()).toBe(1);
      });
    });

    describe('attachment errors', () => {
      const plain = rest.newRoute('GET', '/mw/plain', codec.empty<object>(), codec.empty<object>());

      it('refuses two middleware of one name on a route', () => {
        const err = (() => {
          try {
            plain.use(audit).use(audit);
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(err).toBeInstanceOf(rest.DuplicateMiddlewareNameError);
        expect(err).toMatchObject({ name: 'DuplicateMiddlewareNameError', route: 'GET /mw/plain', middlewareName: 'audit' });
        const other = rest.newMiddleware(rest.declaration('audit', codec.empty<object>(), codec.empty<object>())).withReceive(() => ({}));
        expect(() => plain.use(audit).use(other)).toThrow(rest.DuplicateMiddlewareNameError);
        expect(() => plain.handleMW(tenant, () => ({ tenant: 'x', plan: 'y' })).handleMW(tenant, () => ({ tenant: 'x', plan: 'y' }))).toThrow(rest.DuplicateMiddlewareNameError);
      });

      it('refuses a route middleware that the builder already runs, at registration and at api.use', () => {
        const other = rest.newServer({ title: 'x', version: '1' });
        other.use(requestId);
        expect(() => plain.use(requestId).withHandler(() => ({})).register(other)).toThrow(rest.DuplicateMiddlewareNameError);
        const later = rest.newServer({ title: 'y', version: '1' });
        plain.use(requestId).withHandler(() => ({})).register(later);
        expect(() => later.use(requestId)).toThrow(expect.objectContaining({ name: 'DuplicateMiddlewareNameError', route: 'GET /mw/plain', middlewareName: 'requestId' }));
      });

      it('refuses a middleware that is both bundled and bound', () => {
        expect(() => plain.handleMW(requestId, (_ctx, _req, input) => ({ requestId: input.requestId ?? 'x' }))).toThrow(
          expect.objectContaining({ name: 'AmbiguousMiddlewareAttachmentError', middlewareName: 'requestId' }),
        );
        expect(() => plain.clientMW(version, () => ({ version: 1 }))).toThrow(rest.AmbiguousMiddlewareAttachmentError);
        const bundledTenant = tenant.withReceive(() => ({ tenant: 'x', plan: 'y' }));
        expect(() => plain.handleMW(tenant, () => ({ tenant: 'x', plan: 'y' })).use(bundledTenant)).toThrow(rest.AmbiguousMiddlewareAttachmentError);
        expect(() => plain.use(bundledTenant).clientMW(tenant, () => ({ tenant: 'x' }))).toThrow(rest.AmbiguousMiddlewareAttachmentError);
      });
    });

    describe('OpenAPI', () => {
      it('lists the middleware\'s parameters and response headers, and 400', () => {
        const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, any>> };
        const echo = doc.paths['/mw/echo']?.get;
        expect(echo.parameters).toEqual([{ name: 'X-Request-ID', in: 'header', schema: { type: 'string', pattern: '^[\\w-]{1,64}$' } }]);
        expect(echo.responses['200'].headers['X-Request-ID']).toMatchObject({ required: true, schema: { type: 'string' } });
        expect(echo.responses['400']).toBeDefined();
        const t = doc.paths['/mw/tenant']?.get;
        expect(t.parameters.map((p: { name: string }) => p.name)).toEqual(['mode', 'X-Request-ID', 'X-Tenant']);
        expect(Object.keys(t.responses['200'].headers)).toEqual(['X-Request-ID', 'X-Plan']);
        const v = doc.paths['/mw/version']?.get;
        expect(v.parameters).toContainEqual(expect.objectContaining({ name: 'v', in: 'query', required: true }));
        expect(v.parameters).toContainEqual(expect.objectContaining({ name: 'locale', in: 'cookie' }));
        expect(v.responses['200'].headers['Set-Cookie']).toBeDefined();
      });
    });
  });
}
