import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import { prepareRoute, type PipelineRequest, type PipelineResponse } from '../pipeline.js';

class Conflict extends Error {}
class Denied extends Error {}

interface TraceIn {
  traceId?: string;
  tags?: string[];
  session?: string;
}
interface TraceOut {
  traceId: string;
  session?: string;
}

const traceDecl = rest.declaration('trace', codec.empty<TraceIn>(), codec.object({ traceId: codec.string(), session: codec.optional(codec.string()) }) as codec.Codec<TraceOut>);
const trace = rest
  .newMiddleware(traceDecl)
  .withRequestHeader(
    rest.newOptionalHeaderParam('X-Trace', codec.string().refine(validate.minLength(3)), (i) => i.traceId, (i, v) => {
      i.traceId = v;
    }),
  )
  .withRequestQuery(
    rest.newOptionalQueryParam('tag', codec.array(codec.string()), (i) => i.tags, (i, v) => {
      i.tags = v;
    }),
  )
  .withRequestCookie(
    rest.newOptionalCookieParam('sid', codec.string().refine(validate.minLength(2)), (i) => i.session, (i, v) => {
      i.session = v;
    }),
  )
  .withResponseHeader(
    rest.newRequiredResponseHeaderParam('X-Trace', codec.string(), (o) => o.traceId, (o, v) => {
      o.traceId = v;
    }),
  )
  .withResponseCookie(
    rest.newOptionalResponseCookieParam('sid', codec.string(), (o: TraceOut) => o.session, (o, v) => {
      o.session = v;
    }),
  );

const empty = <T extends object>(name: string): rest.Declaration<T, T> => rest.declaration(name, codec.empty<T>(), codec.empty<T>());
const noop = rest.newMiddleware(empty<object>('noop'));
const body = codec.object({ trail: codec.array(codec.string()) });
const trailKey = rest.contextKey<string[]>('trail');
function mark(ctx: rest.Context, name: string): void {
  ctx.set(trailKey, [...(ctx.get(trailKey) ?? []), name]);
}

function request(headers: Record<string, string> = {}, rawQuery = ''): PipelineRequest {
  return {
    method: 'GET',
    pathParams: {},
    rawQuery,
    header: (name) => headers[name],
    readBody: () => Promise.resolve(new Uint8Array()),
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

/** Registers `route` with `api` and returns the prepared pipeline of that route. */
function served(api: rest.Server, route: rest.Route<object, { trail: string[] }>): (req?: PipelineRequest) => Promise<PipelineResponse & { json: unknown }> {
  route.register(api);
  return async (req = request()) => {
    const handle = api.handles().find((h) => h.route.path === route.path) as rest.RouteHandle<unknown, unknown>;
    const res = await prepareRoute(handle).run(req);
    return { ...res, json: typeof res.body === 'string' ? (JSON.parse(res.body) as unknown) : res.body instanceof Uint8Array ? (JSON.parse(new TextDecoder().decode(res.body)) as unknown) : undefined };
  };
}
const header = (res: PipelineResponse, name: string): string[] => res.headers.filter(([k]) => k === name).map(([, v]) => v);

describe('declaration and newMiddleware', () => {
  it('are immutable values: with* return copies with the same declaration', () => {
    const base = rest.newMiddleware(traceDecl);
    const withHeader = base.withRequestHeader(rest.newOptionalHeaderParam('X-A', codec.string(), (i: TraceIn) => i.traceId, () => {}));
    expect(base.requestParams).toHaveLength(0);
    expect(withHeader.requestParams.map((p) => p.name)).toEqual(['X-A']);
    const bundled = withHeader.withReceive(() => ({ traceId: 'x' }));
    expect(withHeader.bundled).toBe(false);
    expect(bundled.bundled).toBe(true);
    expect(bundled.withSend(() => ({})).send).toBeTypeOf('function');
    expect(bundled.declaration).toBe(traceDecl);
    expect(bundled.name).toBe('trace');
    expect(bundled.contextKey).toBe(traceDecl.contextKey);
    const ctx = new rest.Context(new AbortController().signal);
    expect(base.output(ctx)).toBeUndefined();
    ctx.set(traceDecl.contextKey, { traceId: 't' });
    expect(bundled.output(ctx)).toEqual({ traceId: 't' });
  });

  it('refuse an empty name, wrong parameter kinds, bad names and parameters declared twice', () => {
    expect(() => rest.declaration('', codec.empty<object>(), codec.empty<object>())).toThrow(TypeError);
    const mw = rest.newMiddleware(empty<{ a?: string }>('m'));
    const q = rest.newOptionalQueryParam('a', codec.string(), (i: { a?: string }) => i.a, () => {});
    const h = (name: string) => rest.newOptionalHeaderParam(name, codec.string(), (i: { a?: string }) => i.a, () => {});
    expect(() => mw.withRequestHeader(q)).toThrow(/withRequestHeader takes a header parameter, got a query parameter/);
    expect(() => mw.withRequestCookie(h('a'))).toThrow(TypeError);
    expect(() => mw.withRequestQuery(rest.newPathParam('a', codec.string(), (i: { a?: string }) => i.a ?? '', () => {}))).toThrow(TypeError);
    for (const bad of ['Authorization', 'accept', 'Content-Type']) expect(() => mw.withRequestHeader(h(bad))).toThrow(/may not be declared/);
    expect(() => mw.withRequestHeader(h('X Bad'))).toThrow(/not an HTTP token/);
    expect(() => mw.withRequestHeader(h('X-A')).withRequestHeader(h('x-a'))).toThrow(/declared twice/);
    const r = rest.newOptionalResponseHeaderParam('X-R', codec.string(), (o: { a?: string }) => o.a, () => {});
    expect(() => mw.withResponseCookie(r)).toThrow(/withResponseCookie takes a response cookie parameter/);
    expect(() => mw.withResponseHeader(r).withResponseHeader(r)).toThrow(/declared twice/);
    expect(() => mw.withRequestHeader(h('X-R')).withResponseHeader(r)).not.toThrow();
  });
});

describe('attaching', () => {
  const route = rest.newRoute('GET', '/a', codec.empty<object>(), body,
    rest.newOptionalHeaderParam('X-Route', codec.string(), (r: { x?: string }) => r.x, () => {}),
  );

  it('merges handleMW and clientMW of one middleware value into one attachment', () => {
    const r = route.handleMW(trace, () => ({ traceId: 't' })).clientMW(trace, () => ({}));
    expect(r.middleware).toHaveLength(1);
    expect(r.middleware[0]).toMatchObject({ bound: true });
    expect(r.middleware[0]?.receive).toBeTypeOf('function');
    expect(r.middleware[0]?.send).toBeTypeOf('function');
    expect(route.middleware).toHaveLength(0);
    // Another value of the same declaration is another middleware of the same name.
    const copy = trace.withResponseHeader(rest.newOptionalResponseHeaderParam('X-More', codec.string(), () => undefined, () => {}));
    expect(() => route.handleMW(trace, () => ({ traceId: 't' })).clientMW(copy, () => ({}))).toThrow(rest.DuplicateMiddlewareNameError);
  });

  it('refuses duplicates, ambiguous attachments and parameters declared twice', () => {
    const a = noop.withReceive(() => ({}));
    expect(() => route.use(a).use(a)).toThrow(expect.objectContaining({ name: 'DuplicateMiddlewareNameError', route: 'GET /a', middlewareName: 'noop' }));
    expect(() => route.clientMW(noop, () => ({})).clientMW(noop, () => ({}))).toThrow(rest.DuplicateMiddlewareNameError);
    expect(() => route.handleMW(a, () => ({}))).toThrow(expect.objectContaining({ name: 'AmbiguousMiddlewareAttachmentError', middlewareName: 'noop' }));
    expect(() => route.clientMW(noop.withSend(() => ({})), () => ({}))).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    expect(() => route.handleMW(noop, () => ({})).use(a)).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    expect(() => route.use(a).handleMW(noop, () => ({}))).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    expect(() => route.use(noop)).toThrow(/has no function to run/);
    const clash = rest.newMiddleware(empty<{ x?: string }>('clash')).withRequestHeader(rest.newOptionalHeaderParam('x-route', codec.string(), (i: { x?: string }) => i.x, () => {}));
    expect(() => route.handleMW(clash, () => ({}))).toThrow(/header "x-route" is declared by the route and by middleware "clash"/);
    expect(() => route.handleMW(trace, () => ({ traceId: 't' })).use(trace.withReceive(() => ({ traceId: 't' })))).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    const otherTrace = rest.newMiddleware(empty<object>('other')).withRequestHeader(rest.newOptionalHeaderParam('X-Trace', codec.string(), () => undefined, () => {}));
    expect(() => route.handleMW(trace, () => ({ traceId: 't' })).handleMW(otherTrace, () => ({}))).toThrow(/header "X-Trace" is declared by middleware "trace" and by middleware "other"/);
  });

  it('checks the builder\'s middleware against routes registered before and after api.use', () => {
    const a = noop.withReceive(() => ({}));
    const api = rest.newServer({ title: 't', version: '1' });
    expect(() => api.use(noop)).toThrow(TypeError);
    api.use(a);
    expect(() => api.use(a)).toThrow(expect.objectContaining({ route: '*', middlewareName: 'noop' }));
    expect(() => route.use(a).register(api)).toThrow(rest.DuplicateMiddlewareNameError);
    expect(() => route.handleMW(noop, () => ({})).register(api)).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    expect(api.handles()).toHaveLength(0);
    const later = rest.newServer({ title: 't', version: '1' });
    route.handleMW(noop, () => ({})).register(later);
    expect(() => later.use(a)).toThrow(rest.AmbiguousMiddlewareAttachmentError);
    expect(later.middleware()).toHaveLength(0);
  });
});

describe('the server pipeline', () => {
  it('runs the builder\'s middleware first, then the route\'s in order, before the handler; Out reaches the handler', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    const step = (name: string) => rest.newMiddleware(empty<object>(name)).withReceive((ctx) => {
      mark(ctx, name);
      return {};
    });
    const run = served(
      api,
      rest
        .newRoute('GET', '/order', codec.empty<object>(), body)
        .use(step('route-1'))
        .handleMW(trace, (ctx, _req, input) => {
          mark(ctx, `trace:${input.traceId ?? '-'}:${(input.tags ?? []).join('+')}:${input.session ?? '-'}`);
          return { traceId: input.traceId ?? 'generated', ...(input.session !== undefined && { session: input.session }) };
        })
        .use(step('route-2'))
        .withHandler((ctx) => ({ trail: [...(ctx.get(trailKey) ?? []), `handler:${trace.output(ctx)?.traceId ?? ''}`] })),
    );
    api.use(step('api-1')).use(step('api-2'));
    const res = await run(request({ 'x-trace': 'abc', cookie: 'sid=s1; other=x' }, 'tag=a&tag=b'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ trail: ['api-1', 'api-2', 'route-1', 'trace:abc:a+b:s1', 'route-2', 'handler:abc'] });
    expect(header(res, 'x-trace')).toEqual(['abc']);
    expect(header(res, 'set-cookie')).toEqual(['sid=s1; Path=/; HttpOnly; Secure; SameSite=Strict']);
    const bare = await run();
    expect(bare.json).toEqual({ trail: ['api-1', 'api-2', 'route-1', 'trace:-::-', 'route-2', 'handler:generated'] });
    expect(header(bare, 'set-cookie')).toEqual([]);
  });

  it('answers 400 MiddlewareInputError naming every failing field, or the inCodec failure, and reports each field', async () => {
    const records: string[] = [];
    const errors: unknown[] = [];
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({
      observer: { onValidationError: (i) => records.push(`${i.location}:${i.name}`) },
      errorHandler: (_ctx, err, status) => {
        errors.push(err);
        return { body: { error: (err as Error).message, status } };
      },
    }));
    let ran = false;
    const run = served(api, rest.newRoute('GET', '/in', codec.empty<object>(), body).handleMW(trace, () => {
      ran = true;
      return { traceId: 't' };
    }).withHandler(() => ({ trail: [] })));
    const one = await run(request({ 'x-trace': 'ab' }));
    expect(one.status).toBe(400);
    expect(one.json).toEqual({ error: 'middleware "trace": invalid input: header "X-Trace": must have at least 3 characters', status: 400 });
    expect(errors[0]).toBeInstanceOf(rest.MiddlewareInputError);
    expect((errors[0] as rest.MiddlewareInputError).cause).toBeInstanceOf(rest.HeaderParamError);
    const two = await run(request({ 'x-trace': 'ab', cookie: 'sid=1' }));
    expect(two.status).toBe(400);
    expect((errors[1] as Error).cause).toBeInstanceOf(rest.RequestValidationError);
    expect(records).toEqual(['header:X-Trace', 'header:X-Trace', 'cookie:sid']);
    expect(ran).toBe(false);

    const strict = rest.newMiddleware(rest.declaration('strict', codec.object({ n: codec.int().refine(validate.max(5)) }), codec.empty<object>()))
      .withRequestQuery(rest.newRequiredQueryParam('n', codec.intString(), (i) => i.n, (i, v) => void (i.n = v)))
      .withReceive(() => ({}));
    const runStrict = served(api, rest.newRoute('GET', '/strict', codec.empty<object>(), body).use(strict).withHandler(() => ({ trail: [] })));
    const bad = await runStrict(request({}, 'n=9'));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'middleware "strict": invalid input: n: must be at most 5' });
    expect((errors.at(-1) as Error).cause).toBeInstanceOf(codec.DecodeError);
    expect((await runStrict(request({}, 'n=4'))).status).toBe(200);
    expect((await runStrict(request({}))).json).toMatchObject({ error: 'middleware "strict": invalid input: query parameter "n": is required' });
  });

  it('wraps a middleware failure in MiddlewareError (400) unless a route rule matches the original error', async () => {
    const seen: unknown[] = [];
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ observer: { onErrorPattern: (i) => seen.push(i.error) } }));
    const failing = rest.newMiddleware(empty<object>('auth')).withReceive((ctx) => {
      mark(ctx, 'auth');
      throw new Error('token expired');
    });
    const thrower = (err: unknown) => rest.newMiddleware(empty<object>('thrower')).withReceive(() => {
      throw err;
    });
    const plain = served(api, rest.newRoute('GET', '/m1', codec.empty<object>(), body).use(failing).withHandler(() => ({ trail: [] })));
    const res = await plain();
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'middleware "auth": token expired' });
    expect(seen[0]).toBeInstanceOf(rest.MiddlewareError);
    expect((seen[0] as rest.MiddlewareError).cause).toEqual(new Error('token expired'));

    const ruled = served(api, rest.newRoute('GET', '/m2', codec.empty<object>(), body,
      rest.errorPattern(Conflict, 409, codec.object({ error: codec.string() }), (e) => ({ error: `conflict: ${e.message}` })),
    ).use(thrower(new Conflict('taken'))).withHandler(() => ({ trail: [] })));
    const r2 = await ruled();
    expect(r2.status).toBe(409);
    expect(r2.json).toEqual({ error: 'conflict: taken' });
    expect(seen[1]).toBeInstanceOf(Conflict);

    const byClass = served(api, rest.newRoute('GET', '/m3', codec.empty<object>(), body, rest.errorStatus(rest.MiddlewareError, 401)).use(thrower(new Denied('no'))).withHandler(() => ({ trail: [] })));
    const r3 = await byClass();
    expect(r3.status).toBe(401);
    expect(r3.json).toEqual({ error: 'middleware "thrower": no' });

    const target = rest.newRoute('GET', '/login', codec.empty<object>(), codec.empty<object>());
    const redirecting = served(api, rest.newRoute('GET', '/m4', codec.empty<object>(), body).use(thrower(rest.redirect(303, target, {}))).withHandler(() => ({ trail: [] })));
    const r4 = await redirecting();
    expect(r4.status).toBe(303);
    expect(header(r4, 'location')).toEqual(['/login']);
  });

  it('answers 500 MiddlewareOutputError for an output that breaks its declaration, keeping earlier middleware headers', async () => {
    const errors: unknown[] = [];
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ observer: { onResponse: (i) => errors.push(i.error) } }));
    const outputs: Record<string, unknown> = {
      shape: { traceId: 42 },
      missing: { session: 'x' },
      split: { traceId: 'a\r\nSet-Cookie: evil=1' },
      none: undefined,
    };
    let handled = 0;
    const first = rest.newMiddleware(rest.declaration('first', codec.empty<object>(), codec.empty<{ id: string }>()))
      .withResponseHeader(rest.newRequiredResponseHeaderParam('X-First', codec.string(), (o) => o.id, () => {}))
      .withReceive(() => ({ id: 'one' }));
    const run = served(api, rest.newRoute('GET', '/out', codec.empty<{ mode?: string }>(), body,
      rest.newOptionalQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => void (r.mode = v)),
    ).use(first).handleMW(trace, (_ctx, req) => outputs[req.mode ?? ''] as TraceOut).withHandler(() => {
      handled++;
      return { trail: [] };
    }) as unknown as rest.Route<object, { trail: string[] }>);
    for (const mode of Object.keys(outputs)) {
      const res = await run(request({}, `mode=${mode}`));
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ error: 'internal server error' });
      expect(header(res, 'x-first')).toEqual(['one']);
      expect(header(res, 'x-trace')).toEqual([]);
      expect(header(res, 'set-cookie')).toEqual([]);
      expect(errors.at(-1)).toBeInstanceOf(rest.MiddlewareOutputError);
      expect(errors.at(-1)).toMatchObject({ middlewareName: 'trace' });
    }
    expect(handled).toBe(0);
    const badCookie = rest.newMiddleware(rest.declaration('cookie', codec.empty<object>(), codec.empty<{ v: string }>()))
      .withResponseCookie(rest.newRequiredResponseCookieParam('c', codec.string(), (o: { v: string }) => o.v, () => {}).withAttributes(() => ({ domain: 'bad domain;' })))
      .withReceive(() => ({ v: 'x' }));
    const runCookie = served(api, rest.newRoute('GET', '/cookie', codec.empty<object>(), body).use(badCookie).withHandler(() => ({ trail: [] })));
    expect((await runCookie()).status).toBe(500);
    expect((errors.at(-1) as Error).cause).toBeInstanceOf(rest.CookieParamError);
  });

  it('sends the headers of middleware that ran with error answers and with a response that broke its contract', async () => {
    const api = rest.newServer({ title: 't', version: '1' }, rest.cors({ origin: '*' }));
    const run = served(api, rest.newRoute('GET', '/errs', codec.empty<{ mode?: string }>(), body,
      rest.newOptionalQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => void (r.mode = v)),
      rest.errorStatus(Conflict, 409),
    ).handleMW(trace, () => ({ traceId: 'kept' })).withHandler((_ctx, req) => {
      if (req.mode === 'conflict') throw new Conflict('c');
      return (req.mode === 'broken' ? { trail: 'no' } : { trail: [] }) as { trail: string[] };
    }) as unknown as rest.Route<object, { trail: string[] }>);
    for (const [mode, status] of [['conflict', 409], ['broken', 500], ['ok', 200]] as const) {
      const res = await run(request({ origin: 'https://app.example' }, `mode=${mode}`));
      expect(res.status).toBe(status);
      expect(header(res, 'x-trace')).toEqual(['kept']);
      expect(header(res, 'access-control-expose-headers')).toEqual(['x-trace']);
    }
  });

  it('refuses at serve a route whose middleware has no server function', () => {
    const api = rest.newServer({ title: 't', version: '1' });
    rest.newRoute('GET', '/client-only', codec.empty<object>(), body).clientMW(trace, () => ({})).withHandler(() => ({ trail: [] })).register(api);
    expect(() => prepareRoute(api.handles()[0] as rest.RouteHandle<unknown, unknown>)).toThrow(/middleware "trace" has no server function/);
  });
});

describe('the client', () => {
  interface Sent {
    query: readonly (readonly [string, string])[];
    headers: readonly (readonly [string, string])[];
  }
  function transport(sent: Sent[]): rest.ClientTransport {
    return {
      adapter: 'fake',
      paramKinds: rest.HTTP_PARAM_KINDS,
      capabilities: new Map(),
      exchange: (x) => {
        sent.push({ query: x.query, headers: x.headers });
        return Promise.resolve({ status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: new TextEncoder().encode('{"trail":[]}') });
      },
    };
  }
  const route = rest.newRoute('GET', '/c', codec.empty<{ who?: string }>(), body);

  it('writes the input of clientMW and withSend into headers, query and cookies; explicit entries win', async () => {
    const sent: Sent[] = [];
    const t = transport(sent);
    const version = rest.newMiddleware(rest.declaration('version', codec.object({ v: codec.int() }), codec.empty<object>()))
      .withRequestQuery(rest.newRequiredQueryParam('v', codec.intString(), (i) => i.v, (i, v) => void (i.v = v)))
      .withSend(async () => ({ v: 2 }));
    const r = route.clientMW(trace, (req) => ({ traceId: `t-${req.who ?? 'x'}`, tags: ['a', 'b'], session: 'sid-1' })).use(version);
    await rest.callWithTransport(t, r.clientHandle(), { who: 'ada' });
    expect(sent[0]?.query).toEqual([['tag', 'a'], ['tag', 'b'], ['v', '2']]);
    expect(sent[0]?.headers).toEqual(expect.arrayContaining([['X-Trace', 't-ada'], ['cookie', 'sid=sid-1']]));
    await rest.callWithTransport(t, r.clientHandle(), {}, { headerParams: { 'x-trace': 'explicit' } });
    expect(sent[1]?.headers.filter(([k]) => k.toLowerCase() === 'x-trace')).toEqual([['X-Trace', 'explicit']]);
  });

  it('sends nothing when a client function throws, or its input is invalid', async () => {
    const sent: Sent[] = [];
    const t = transport(sent);
    const thrown = await rest.callWithTransport(t, route.clientMW(trace, () => {
      throw new Error('no credentials');
    }).clientHandle(), {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(rest.RequestBuildError);
    expect((thrown as Error).message).toBe('middleware "trace": no credentials');
    expect((thrown as Error).cause).toEqual(new Error('no credentials'));
    const short = await rest.callWithTransport(t, route.clientMW(trace, () => ({ traceId: 'ab' })).clientHandle(), {}).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(rest.HeaderParamError);
    const strict = rest.newMiddleware(rest.declaration('strict', codec.object({ n: codec.int() }), codec.empty<object>()));
    const invalid = await rest.callWithTransport(t, route.clientMW(strict, () => ({ n: 1.5 })).clientHandle(), {}).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(rest.RequestBuildError);
    expect((invalid as Error).cause).toBeInstanceOf(rest.MiddlewareInputError);
    expect(sent).toHaveLength(0);
  });

  it('skips middleware without a client function, and never runs the builder\'s', async () => {
    const sent: Sent[] = [];
    const api = rest.newServer({ title: 't', version: '1' });
    let ran = 0;
    api.use(rest.newMiddleware(empty<object>('server')).withReceive(() => ({})).withSend(() => {
      ran++;
      return {};
    }));
    const r = route.handleMW(trace, () => ({ traceId: 'x' })).withHandler(() => ({ trail: [] }));
    r.register(api);
    await rest.callWithTransport(transport(sent), r.clientHandle(), {});
    expect(sent[0]?.headers.some(([k]) => k === 'X-Trace')).toBe(false);
    expect(ran).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents the parameters and response fields of every middleware the server runs, and 400', () => {
    const api = rest.newServer({ title: 't', version: '1' });
    api.use(noop.withReceive(() => ({})));
    rest.newRoute('GET', '/doc', codec.empty<{ q?: string }>(), body,
      rest.newOptionalQueryParam('q', codec.string(), (r) => r.q, (r, v) => void (r.q = v)),
    ).handleMW(trace.withRequestHeader(rest.newOptionalHeaderParam('X-Doc', codec.string(), () => undefined, () => {}).withDescription('documented')), () => ({ traceId: 'x' }))
      .withHandler(() => ({ trail: [] })).register(api);
    rest.newRoute('GET', '/bare', codec.empty<object>(), body).withHandler(() => ({ trail: [] })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { parameters?: { name: string; in: string; description?: string }[]; responses: Record<string, { headers?: Record<string, unknown>; description: string }> } }> };
    const op = doc.paths['/doc']?.get;
    expect(op?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['query:q', 'header:X-Trace', 'query:tag', 'cookie:sid', 'header:X-Doc']);
    expect(op?.parameters?.find((p) => p.name === 'X-Doc')?.description).toBe('documented');
    expect(Object.keys(op?.responses['200']?.headers ?? {})).toEqual(['X-Trace', 'Set-Cookie']);
    expect(op?.responses['400']?.description).toMatch(/or a middleware refused it/);
    // The builder's middleware alone can refuse a request: 400 is documented on every route.
    expect(doc.paths['/bare']?.get.responses['400']?.description).toMatch(/or a middleware refused it/);
  });
});
