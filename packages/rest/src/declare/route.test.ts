import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';

class NotFound extends Error {
  constructor(readonly id: string) {
    super(`no ${id}`);
  }
}
class Gone extends Error {}
const notFoundBody = codec.object({ id: codec.string() });

interface Req {
  id: string;
  q?: number;
}
const idParam = rest.newPathParam('id', codec.string().refine(validate.minLength(2)), (r: Req) => r.id, (r, v) => {
  r.id = v;
});

describe('newRoute', () => {
  it('refuses a success status declared twice or outside 200–299', () => {
    const item = codec.object({ id: codec.string() });
    // POST answers 201 by default: a 201 among `successes` is the main response again.
    expect(() => rest.route({ method: 'POST', path: '/items', body: item, response: item, successes: { 201: item } })).toThrow(/success response 201 is declared twice \(the main response has status 201\)/);
    expect(() => rest.route({ method: 'GET', path: '/items', response: item, meta: { respStatus: 202 }, successes: { 202: null } })).toThrow(/success response 202 is declared twice/);
    expect(() => rest.route({ method: 'GET', path: '/items', response: item, successes: { 304: null } })).toThrow(/a success status is an integer from 200 to 299/);
    expect(rest.route({ method: 'POST', path: '/items', body: item, response: item, successes: { 200: item, 202: null } }).successes.map((s) => s.status)).toEqual([200, 202]);
  });

  it('rejects malformed declarations', () => {
    const empty = codec.empty<Req>();
    expect(() => rest.newRoute('GET', 'users', empty, empty)).toThrow(rest.RouteDeclarationError);
    expect(() => rest.newRoute('GET', '/users/{id}/{id}', empty, empty)).toThrow(/appears twice/);
    expect(() => rest.newRoute('GET', '/users/x{id}', empty, empty)).toThrow(/whole segment/);
    expect(() => rest.newRoute('GET', '/users/{1x}', empty, empty)).toThrow(/invalid path variable/);
    expect(() => rest.newRoute('GET /x', '/x', empty, empty)).toThrow(/invalid method/);
    expect(() => rest.newRoute('GET', '/users', empty, empty, idParam)).toThrow(/not in the template/);
    expect(() => rest.newRoute('GET', '/users/{id}', empty, empty, idParam, idParam)).toThrow(/declared twice/);
    for (const h of ['Accept', 'content-type', 'Authorization']) {
      expect(() => rest.newRoute('GET', '/x', empty, empty, rest.headerParam({ name: h }))).toThrow(/may not be declared/);
    }
    expect(() =>
      rest.newRoute('GET', '/x', empty, empty, rest.errorPattern(NotFound, 404, notFoundBody), rest.errorPattern(Gone, '404', codec.object({}))),
    ).toThrow(rest.DuplicateErrorStatusError);
    // One status, bodies told apart by media types of their own: allowed when no type is named twice.
    const json404 = rest.errorPattern(NotFound, 404, notFoundBody).withMediaTypes('application/json');
    expect(() => rest.newRoute('GET', '/x', empty, empty, json404, rest.errorPattern(Gone, 404, codec.object({})).withMediaTypes('application/problem+json'))).not.toThrow();
    expect(() => rest.newRoute('GET', '/x', empty, empty, json404, rest.errorPattern(Gone, 404, codec.object({})).withMediaTypes('application/problem+json', 'application/json'))).toThrow(rest.DuplicateErrorStatusError);
    expect(() => rest.newRoute('GET', '/x', empty, empty, json404, rest.errorPattern(Gone, 404, codec.object({})))).toThrow(rest.DuplicateErrorStatusError);
  });

  it('refuses a request body codec on a method without a body', () => {
    const body = codec.object({ a: codec.string() });
    for (const m of ['GET', 'DELETE', 'HEAD', 'OPTIONS']) expect(() => rest.newRoute(m, '/x', body, codec.empty<object>())).toThrow(/carry no body/);
    for (const m of ['POST', 'PUT', 'PATCH']) expect(() => rest.newRoute(m, '/x', body, codec.empty<object>())).not.toThrow();
  });

  it('refuses statuses a transport could not write, and names that are not HTTP tokens', () => {
    const empty = codec.empty<object>();
    for (const bad of [99, 100, 1000, 600, 450.5, NaN, '2xx', 'abc'] as const) {
      expect(() => rest.newRoute('GET', '/x', empty, empty, rest.routeMeta({ respStatus: bad as rest.Status }))).toThrow(/respStatus: invalid HTTP status/);
      expect(() => rest.errorStatus(Gone, bad as rest.Status)).toThrow(RangeError);
      expect(() => rest.errorPattern(Gone, bad as rest.Status, notFoundBody, () => ({ id: 'gone' }))).toThrow(RangeError);
    }
    expect(rest.wireStatus('4XX')).toBe(400);
    expect(rest.wireStatus('default')).toBe(500);
    expect(rest.wireStatus('204')).toBe(204);
    const header = (name: string) => rest.headerParam({ name });
    expect(() => rest.newRoute('GET', '/x', empty, empty, header('X Bad'))).toThrow(/not an HTTP token/);
    expect(() => rest.newRoute('GET', '/x', empty, empty, header('X-Ok\r\n'))).toThrow(/not an HTTP token/);
    expect(() => rest.newRoute('GET', '/x', empty, empty, rest.cookieParam({ name: 'a=b' }))).toThrow(/not an HTTP token/);
    expect(() => rest.newRoute('GET', '/x', empty, empty, rest.responseHeaderParam({ name: 'Über' }))).toThrow(/not an HTTP token/);
    expect(() => rest.newRoute('GET', '/x', empty, empty, header('X-Request-ID'), rest.queryParam({ name: 'a b' }))).not.toThrow();
  });

  it('knows the RFC 9110 field-value grammar', () => {
    for (const ok of ['', 'a', 'a b', 'a\tb', 'caf\u00e9', '!~']) expect(rest.isFieldValue(ok)).toBe(true);
    for (const bad of [' a', 'a ', '\ta', 'a\r\nb', 'a\nb', 'a\u0000', '\u0001', '\u007f', '\u2603']) expect(rest.isFieldValue(bad)).toBe(false);
  });

  it('is immutable: with* return new routes', () => {
    const r = rest.newRoute('get', '/users/{id}', codec.empty<Req>(), codec.empty<object>(), idParam);
    const h = r.withHandler(() => ({}));
    expect(r.handler).toBeUndefined();
    expect(h.handler).toBeTypeOf('function');
    expect(h.method).toBe('GET');
    expect(r.withOptions({ maxBodyBytes: 5 }).options).toEqual({ maxBodyBytes: 5 });
    expect(r.options).toEqual({});
  });
});

describe('buildPath and registration', () => {
  const route = rest.newRoute('GET', '/users/{id}/files/{name}', codec.empty<Req & { name: string }>(), codec.empty<object>(), idParam);

  it('substitutes percent-encoded values after checking their codecs', () => {
    expect(route.buildPath({ id: 'ab', name: 'a b/c' })).toBe('/users/ab/files/a%20b%2Fc');
    expect(() => route.buildPath({ id: 'ab' })).toThrow(rest.MissingPathVarError);
    const err = (() => {
      try {
        route.buildPath({ id: 'a', name: 'n' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(rest.PathParamError);
    expect(err).toMatchObject({ paramName: 'id', value: 'a' });
    expect(() => route.buildPath({ id: 'ab', name: '' })).toThrow(rest.PathParamError);
  });

  it('validates templates transparently and built paths concretely against the builder', () => {
    const api = rest.newServer({ title: 't', version: '1' }, rest.withPathConstraints(validate.httpPath, validate.maxLength(24)));
    route.register(api);
    expect(() => rest.newRoute('GET', '/a//b', codec.empty<object>(), codec.empty<object>()).register(api)).toThrow(rest.InvalidPathError);
    expect(() => route.register(api)).toThrow(rest.DuplicateRouteError);
    expect(route.buildPath({ id: 'ab', name: 'x' })).toBe('/users/ab/files/x');
    const err = (() => {
      try {
        route.buildPath({ id: 'abcdefghijkl', name: 'x' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(rest.InvalidPathError);
    expect((err as rest.InvalidPathError).path).toBe('/users/abcdefghijkl/files/x');
    const withCodec = rest.newServer({ title: 't', version: '1' }, rest.withPathCodec(codec.string().refine(validate.pattern(/^\/v1\//))));
    expect(() => route.register(withCodec)).toThrow(/must match/);
  });
});

describe('route handles', () => {
  const route = rest.newRoute(
    'GET',
    '/items/{id}',
    codec.empty<Req>(),
    codec.empty<object>(),
    idParam,
    rest.newOptionalQueryParam('q', codec.intString(), (r: Req) => r.q, (r, v) => {
      r.q = v;
    }),
    rest.queryParam({ name: 'plain', required: true }).withCodec(codec.string().refine(validate.oneOf('a', 'b'))),
    rest.headerParam({ name: 'X-Trace' }).withCodec(codec.string().refine(validate.minLength(3))),
    rest.cookieParam({ name: 'session', required: true }),
    rest.errorStatus(Gone, 410),
    rest.errorPattern(NotFound, 404, notFoundBody, (e) => ({ id: e.id })),
  );
  // The server-side handle (error mapping, merge fields, parameter checks).
  const handle = route.registerHandle(rest.newServer({ title: 'handles', version: '1' }));

  it('gives the client a handle without the server\'s error mapping, merge fields and parameter checks', () => {
    const client = rest.newRoute('GET', '/c/{id}', codec.empty<object>(), codec.empty<object>()).clientHandle();
    for (const member of ['observeErrorResponseFor', 'errorResponseFor', 'errorStatusFor', 'matchRule', 'mergeFields', 'validateQuery', 'validateHeaders', 'validateCookies']) expect(member in client, member).toBe(false);
    expect(typeof handle.errorResponseFor).toBe('function');
    expect(client.buildPath({ id: 'x' })).toBe('/c/x');
  });

  it('prepares one client handle per route and builder, not one per call', () => {
    const r = rest.newRoute('GET', '/h/{id}', codec.empty<object>(), codec.empty<object>());
    const first = r.clientHandle();
    expect(r.clientHandle()).toBe(first);
    expect(first.server).toBeUndefined();
    const api = rest.newServer({ title: 't', version: '1' });
    r.register(api);
    const registered = r.clientHandle();
    expect(registered).not.toBe(first);
    expect(registered.server).toBe(api);
    expect(r.clientHandle()).toBe(registered);
  });

  it('reports matches, ErrorLog matches and span attributes through observeErrorResponseFor', () => {
    const seen: unknown[] = [];
    const observer: rest.Observer = {
      onErrorPattern: (i) => seen.push(['pattern', i.matched, i.status]),
      onErrorLog: (i) => seen.push(['log', i.status, i.value]),
      onSpanTags: (i) => seen.push(['tags', i.tags]),
    };
    const logged = rest.newRoute('GET', '/logged', codec.empty<object>(), codec.empty<object>(), rest.errorPattern(Gone, 410, notFoundBody, () => ({ id: 'g' })).withAction(rest.ErrorLog)).registerHandle(rest.newServer({ title: 'logged', version: '1' }));
    const ctx = new rest.Context(new AbortController().signal);
    expect(logged.observeErrorResponseFor(ctx, observer, new Gone())).toBeUndefined();
    expect(handle.observeErrorResponseFor(ctx, observer, new NotFound('z'))).toMatchObject({ statusCode: 404, value: { id: 'z' } });
    expect(handle.observeErrorResponseFor(ctx, observer, new TypeError('boom'))).toBeUndefined();
    expect(seen).toEqual([
      ['pattern', true, 410],
      ['log', 410, { id: 'g' }],
      ['tags', { 'http.route': '/logged', 'http.response.status_code': 410, 'error.type': 'Gone', 'error.pattern': 'Gone' }],
      ['pattern', true, 404],
      ['tags', { 'http.route': '/items/{id}', 'http.response.status_code': 404, 'error.type': 'NotFound', 'error.pattern': 'NotFound' }],
      ['pattern', false, 500],
      ['tags', { 'http.route': '/items/{id}', 'http.response.status_code': 500, 'error.type': 'TypeError', 'error.pattern': 'none' }],
    ]);
    const throwing: rest.Observer = {
      onErrorPattern: () => {
        throw new Error('observer bug');
      },
    };
    expect(() => handle.observeErrorResponseFor(ctx, throwing, new Gone())).not.toThrow();
  });

  it('tells observers the status the pipeline answers for its own refusals that no rule maps', () => {
    const statuses: number[] = [];
    const observer: rest.Observer = { onErrorPattern: (i) => statuses.push(i.status) };
    const api = rest.newServer({ title: 't', version: '1' });
    const upload = rest.newRoute('POST', '/uploads', codec.object({ a: codec.string() }), codec.empty<object>());
    const served = upload.withHandler(() => ({})).registerHandle(api);
    const ctx = new rest.Context(new AbortController().signal);
    served.observeErrorResponseFor(ctx, observer, new rest.UnsupportedMediaTypeError('text/plain', ['application/json']));
    served.observeErrorResponseFor(ctx, observer, new rest.BodyTooLargeError(10));
    served.observeErrorResponseFor(ctx, observer, new TypeError('boom'));
    expect(statuses).toEqual([415, 413, 500]);
  });

  it('merges the builder’s default options under the route’s own', () => {
    const observer: rest.Observer = {};
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ maxBodyBytes: 10, observer }), rest.withDefaultOptions({ maxBodyBytes: 20 }));
    const h = rest.newRoute('GET', '/opts', codec.empty<object>(), codec.empty<object>()).withOptions({ maxBodyBytes: 5, contentType: 'application/vnd.x+json' }).registerHandle(api);
    expect(h.options).toEqual({ maxBodyBytes: 5, observer, contentType: 'application/vnd.x+json' });
    expect(h.responseFormats.map((f) => f.contentType)).toEqual(['application/json']);
    expect(rest.newRoute('GET', '/opts2', codec.empty<object>(), codec.empty<object>()).registerHandle(api).options).toEqual({ maxBodyBytes: 20, observer });
  });

  it('exposes merge fields for decodeVars', () => {
    expect(handle.mergeFields().map((f) => f.name)).toEqual(['id', 'q']);
    expect(handle.queryMergeFields().map((f) => f.name)).toEqual(['q']);
    expect(handle.headerMergeFields()).toEqual([]);
    const req = codec.decodeVars({} as Req, { id: 'xy', q: '7', other: 'x' }, ...handle.mergeFields());
    expect(req).toEqual({ id: 'xy', q: 7 });
    expect(() => codec.decodeVars({} as Req, { q: 'x' }, ...handle.mergeFields())).toThrow(/q: expected an integer/);
  });

  it('maps errors by rule, walking cause chains and AggregateError', () => {
    expect(handle.errorStatusFor(new Gone())).toBe(410);
    expect(handle.errorStatusFor(new Error('wrapped', { cause: new NotFound('z') }))).toBe(404);
    expect(handle.errorStatusFor(new AggregateError([new Error('x'), new Gone()]))).toBe(410);
    expect(handle.errorStatusFor(new Error('other'))).toBeUndefined();
    const resp = handle.errorResponseFor(new NotFound('z'));
    expect(resp).toBeInstanceOf(rest.ErrorPatternResponse);
    expect(resp).toMatchObject({ statusCode: 404, value: { id: 'z' } });
    expect(new TextDecoder().decode(resp?.body)).toBe('{"id":"z"}');
    expect(handle.errorResponseFor(new Gone())).toBeUndefined();
  });

  it('decodes error bodies by status only', () => {
    const body = new TextEncoder().encode('{"id":"q"}');
    expect(handle.decodeErrorFor(404, body)).toMatchObject({ statusCode: 404, value: { id: 'q' } });
    expect(handle.decodeErrorFor(410, body)).toBeUndefined();
    expect(() => handle.decodeErrorFor(404, new TextEncoder().encode('{}'))).toThrow(codec.DecodeError);
  });

  it('validates query, headers and cookies', () => {
    expect(() => handle.validateQuery(new URLSearchParams('plain=a&q=1'))).not.toThrow();
    expect(() => handle.validateQuery(new URLSearchParams('q=1'))).toThrow(rest.QueryParamError);
    expect(() => handle.validateQuery(new URLSearchParams('plain=c'))).toThrow(/query parameter "plain": must be one of "a", "b"/);
    expect(() => handle.validateHeaders(new Headers({ 'x-trace': 'ab' }))).toThrow(rest.HeaderParamError);
    expect(() => handle.validateHeaders(new Headers())).not.toThrow();
    expect(() => handle.validateCookies({})).toThrow(rest.CookieParamError);
    expect(() => handle.validateCookies({ session: 's' })).not.toThrow();
  });
});

describe('error-pattern helpers', () => {
  const pattern = rest.errorPattern(NotFound, 404, notFoundBody, (e) => ({ id: e.id }));
  const isTeapot = (e: unknown): e is { teapot: true } => typeof e === 'object' && e !== null && 'teapot' in e;

  it('match on the server side and on decoded responses, never throwing for a miss', () => {
    expect(pattern.match(new NotFound('a'))).toEqual({ id: 'a' });
    expect(pattern.match(new rest.ErrorPatternResponse(404, { id: 'b' }, new Uint8Array()))).toEqual({ id: 'b' });
    expect(pattern.match(new rest.ErrorPatternResponse(409, { id: 'b' }, new Uint8Array()))).toBeUndefined();
    expect(pattern.match(undefined)).toBeUndefined();
    expect(pattern.match('string error')).toBeUndefined();
  });

  it('errorPatternAs and handleErrorPattern take patterns, classes and guards', () => {
    const resp = new rest.ErrorPatternResponse(418, { teapot: true }, new Uint8Array());
    expect(rest.errorPatternAs(resp, isTeapot)).toEqual({ teapot: true });
    expect(rest.errorPatternAs(new Error('x'), isTeapot)).toBeUndefined();
    expect(rest.errorPatternAs(new Error('wrapped', { cause: resp }), isTeapot)).toEqual({ teapot: true });
    expect(rest.isErrorPatternValuer(resp)).toBe(true);
    expect(rest.isErrorPatternValuer(new Error())).toBe(false);
    const seen: string[] = [];
    expect(
      rest.handleErrorPattern(
        new rest.ErrorPatternResponse(404, { id: 'c' }, new Uint8Array()),
        rest.errorCase(isTeapot, () => seen.push('teapot')),
        rest.errorCase(pattern, (v) => seen.push(v.id)),
      ),
    ).toBe(true);
    expect(seen).toEqual(['c']);
    expect(rest.handleErrorPattern(new Error('x'), rest.errorCase(pattern, () => seen.push('no')))).toBe(false);
  });
});

describe('buildPath', () => {
  const lowercase = { name: 'lowercase', test: (p: string) => p === p.toLowerCase(), message: () => 'must be lower case' };
  const byId = rest.route({ method: 'GET', path: '/u/{id}', pathParams: { id: codec.string() }, response: codec.object({ id: codec.string() }) });

  it("checks the path against the builder a copy of the route was registered with, and redirect's too", () => {
    const api = rest.newServer({ title: 't', version: '1' }, rest.withPathConstraints(lowercase));
    byId.withHandler((_ctx, r) => r).register(api);
    expect(() => byId.buildPath({ id: 'ABC' })).toThrow(rest.InvalidPathError);
    expect(() => rest.redirect(303, byId, { id: 'ABC' })).toThrow(rest.InvalidPathError);
    expect(byId.buildPath({ id: 'abc' })).toBe('/u/abc');
  });

  it('checks against every builder the declaration was registered with, not the last one', () => {
    const other = rest.route({ method: 'GET', path: '/v/{id}', pathParams: { id: codec.string() }, response: codec.object({ id: codec.string() }) });
    const strict = rest.newServer({ title: 'strict', version: '1' }, rest.withPathConstraints(lowercase));
    const lax = rest.newServer({ title: 'lax', version: '1' });
    other.withHandler((_ctx, r) => r).register(strict);
    other.withHandler((_ctx, r) => r).register(lax);
    expect(() => other.buildPath({ id: 'ABC' })).toThrow(rest.InvalidPathError);
  });
});

describe('attach coverage', () => {
  const minimal = (kinds: rest.ParamKind[]): rest.ServerTransport => ({
    adapter: 'minimal',
    paramKinds: new Set(kinds),
    capabilities: new Map(),
    mount: () => undefined,
    serve: () => Promise.resolve(),
  });

  it('rejects parameter kinds and capabilities the transport lacks', () => {
    const api = rest.newServer({ title: 't', version: '1' });
    rest.newRoute('GET', '/c', codec.empty<object>(), codec.empty<object>(), rest.cookieParam({ name: 's' })).register(api);
    expect(() => api.attach(minimal(['path', 'query']))).toThrow(rest.UnsupportedParamKindError);
    const qos = rest.newServer({ title: 't', version: '1' });
    rest.newRoute('GET', '/q', codec.empty<object>(), codec.empty<object>(), rest.requireQoS(1)).register(qos);
    const err = (() => {
      try {
        qos.attach(minimal(['path']));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(rest.CapabilityCoverageError);
    expect(err).toMatchObject({ missing: ['qos'], insufficient: [] });
  });

  it('lifts every writer of a declared format to a non-object body that travels with response headers', () => {
    const tags = codec.array(codec.string());
    const r = rest.route({ method: 'GET', path: '/tags', response: tags, responseHeaders: { etag: rest.named('ETag', codec.string()) }, formats: [format.json(tags)] });
    const f = r.responseFormats?.[0] as format.Format<unknown>;
    const value = { body: ['a', 'é'], etag: '"1"' };
    expect(f.marshalText?.(value)).toBe('["a","é"]');
    expect(new TextDecoder().decode(f.marshal(value))).toBe('["a","é"]');
    expect(f.unmarshal(new TextEncoder().encode('["b"]'))).toEqual({ body: ['b'] });
  });

  it('refuses a security scheme whose location the transport lacks, at attach and in a client call', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    const cookieKey = rest.apiKeyScheme('session', 'cookie');
    api.addSecurityScheme('cookieKey', cookieKey);
    rest.newRoute('GET', '/s', codec.empty<object>(), codec.empty<object>(), rest.routeMeta({ security: [{ cookieKey: [] }] })).register(api);
    expect(() => api.attach(minimal(['path', 'query', 'header']))).toThrow(rest.UnsupportedParamKindError);
    const client = rest.newClient();
    client.attach({ adapter: 'minimal', paramKinds: new Set<rest.ParamKind>(['path', 'query', 'header']), capabilities: new Map(), exchange: () => Promise.reject(new Error('sent')) });
    const r = rest.newRoute('GET', '/s', codec.empty<object>(), codec.empty<object>()).clientMW(cookieKey, () => 'token');
    await expect(client.call(r, {})).rejects.toBeInstanceOf(rest.UnsupportedParamKindError);
  });

  it('names missing and insufficient capabilities, and a client call fails before sending', async () => {
    const r = rest.newRoute('GET', '/q', codec.empty<object>(), codec.empty<object>(), rest.requireQoS(1), rest.requireHWM(100));
    const api = rest.newServer({ title: 't', version: '1' });
    r.register(api);
    const transport = { ...minimal(['path']), capabilities: new Map([['hwm', 10]]) };
    expect(() => api.attach(transport)).toThrow(expect.objectContaining({ missing: ['qos'], insufficient: ['hwm'] }));
    let sent = 0;
    const client = rest.newClient();
    client.attach({
      adapter: 'x',
      paramKinds: rest.HTTP_PARAM_KINDS,
      capabilities: new Map([['qos', 1], ['hwm', 50]]),
      exchange: () => {
        sent++;
        return Promise.resolve({ status: 200, headers: new Headers(), body: new Uint8Array() });
      },
    });
    await expect(client.call(r, {})).rejects.toMatchObject({ name: 'CapabilityCoverageError', missing: [], insufficient: ['hwm'] });
    expect(sent).toBe(0);
  });

  it('documents info (license, contact, terms, summary), tags with descriptions and external docs', () => {
    const api = rest.newServer({
      title: 'T',
      version: '1',
      summary: 'A test API',
      termsOfService: 'https://example.com/terms',
      contact: { name: 'Team', email: 'team@example.com' },
      license: { name: 'MIT', identifier: 'MIT' },
    });
    api.addTag('users', { description: 'People', externalDocs: { url: 'https://example.com/users' } }).addTag('zeta').addTag('users', { description: 'Registered people' });
    api.setExternalDocs({ url: 'https://example.com/docs', description: 'The guide' });
    rest.newRoute('GET', '/u', codec.empty<object>(), codec.empty<object>(), rest.routeMeta({ tags: ['users', 'other'], externalDocs: { url: 'https://example.com/u' } })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Record<string, any>;
    expect(doc.info).toEqual({
      title: 'T',
      summary: 'A test API',
      termsOfService: 'https://example.com/terms',
      contact: { name: 'Team', email: 'team@example.com' },
      license: { name: 'MIT', identifier: 'MIT' },
      version: '1',
    });
    expect(doc.tags).toEqual([{ name: 'users', description: 'Registered people' }, { name: 'zeta' }, { name: 'other' }]);
    expect(doc.externalDocs).toEqual({ url: 'https://example.com/docs', description: 'The guide' });
    expect(doc.paths['/u'].get.externalDocs).toEqual({ url: 'https://example.com/u' });
  });

  it('records capability requirements in the document as x-capabilities', () => {
    const api = rest.newServer({ title: 't', version: '1' });
    rest.newRoute('GET', '/q', codec.empty<object>(), codec.empty<object>(), rest.requireQoS(1), rest.requireHWM(100)).register(api);
    rest.newRoute('GET', '/plain', codec.empty<object>(), codec.empty<object>()).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: Record<string, unknown> }> };
    expect(doc.paths['/q']?.get['x-capabilities']).toEqual({ qos: 1, hwm: 100 });
    expect(doc.paths['/plain']?.get).not.toHaveProperty('x-capabilities');
  });

  it('refuses a shutdownTimeout that is not a non-negative number', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    api.attach({ adapter: 'x', paramKinds: rest.HTTP_PARAM_KINDS, capabilities: new Map(), mount: () => undefined, serve: () => Promise.resolve() });
    for (const bad of [-1, NaN, Infinity]) await expect(api.serve({ shutdownTimeout: bad })).rejects.toThrow(RangeError);
    await expect(api.serve({ shutdownTimeout: 0 })).resolves.toBeUndefined();
  });

  it('requires attach before serve', async () => {
    await expect(rest.newServer({ title: 't', version: '1' }).serve()).rejects.toThrow(/no server transport attached/);
  });
});

describe('OpenAPI description', () => {
  it('documents parameters, bodies, success and error responses', () => {
    const api = rest.newServer({ title: 'T', version: '2.0' });
    api.addServer('prod', { url: 'https://api.example.com/v1' });
    const create = rest.newRoute(
      'POST',
      '/things',
      codec.object({ name: codec.string() }),
      codec.object({ id: codec.string() }).withName('Thing'),
      rest.routeMeta({ operationId: 'createThing', reqSchemaName: 'NewThing' }),
      rest.errorStatus(Gone, 410),
      rest.responseMeta({ status: 202, description: 'Accepted for later' }),
    );
    create.register(api);
    route2().register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Record<string, any>;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/v1', description: 'prod' }]);
    const post = doc.paths['/things'].post;
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NewThing' });
    expect(Object.keys(post.responses).sort()).toEqual(['201', '202', '400', '406', '410', '413', '415', '500']);
    expect(post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Thing' });
    expect(post.responses['410'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    const get = doc.paths['/things/{id}'].get;
    expect(get.requestBody).toBeUndefined();
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 2 } }]);
    expect(Object.keys(get.responses).sort()).toEqual(['204', '400', '500']);
    expect(get.responses['204'].content).toBeUndefined();
  });
});

function route2(): rest.Route<Req, object> {
  return rest.newRoute('GET', '/things/{id}', codec.empty<Req>(), codec.empty<object>(), rest.routeMeta({ respStatus: '204' }), idParam);
}

describe('rest.route (object form)', () => {
  it('refuses router-style :name segments, in both forms', () => {
    expect(() => rest.newRoute('GET', '/g/:id', codec.empty<object>(), codec.empty<object>())).toThrow(/path variables are written \{name\}, not :name: ":id"/);
    expect(() => rest.route({ method: 'GET', path: '/g/:id' as string })).toThrow(rest.RouteDeclarationError);
  });

  it('builds the same parameters a newRoute declaration would: wire names, required flags, optional codecs unwrapped', () => {
    const r = rest.route({
      method: 'get',
      path: '/t/{id}',
      pathParams: { id: codec.string() },
      query: { q: codec.optional(codec.string()), page: codec.defaulted(codec.intString(), 1) },
      headers: { tenant: rest.named('X-Tenant', codec.string()) },
      responseHeaders: { etag: rest.named('ETag', codec.optional(codec.string())) },
    });
    expect(r.method).toBe('GET');
    expect(r.params.map((p) => [p.kind, p.name, p.required, p.codec?.kind])).toEqual([
      ['path', 'id', true, 'string'],
      ['query', 'q', false, 'string'],
      ['query', 'page', false, 'defaulted'],
      ['header', 'X-Tenant', true, 'string'],
      ['responseHeader', 'ETag', false, 'string'],
    ]);
    expect(r.reqCodec.kind).toBe('empty');
  });

  it('refuses a body on a method without one, and an entry that is not a codec', () => {
    expect(() => rest.route({ method: 'DELETE' as string, path: '/t', body: codec.object({}) })).toThrow(/DELETE requests carry no body/);
    expect(() => rest.route({ method: 'GET', path: '/t', query: { q: 'x' as unknown as codec.Codec<string> } })).toThrow(/parameter "q": expected a codec/);
  });
});
