import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import type { ClientCallOptions } from './options.js';
import { responsePlan, routePlan } from './plan.js';
import { buildRequest, lookup, withValidators } from './request.js';

const item = codec.object({ name: codec.string() });
const r = rest.route({
  method: 'PUT',
  path: '/r/items/{id}',
  pathParams: { id: codec.string() },
  query: { tag: codec.optional(codec.array(codec.string())), limit: codec.optional(codec.intString()) },
  headers: { tenant: rest.named('X-Tenant', codec.string()) },
  cookies: { session: codec.optional(codec.string()) },
  body: item,
  response: item,
});
const handle = r.clientHandle() as rest.RouteHandle<unknown, unknown>;
const transport = { adapter: 'fake', paramKinds: rest.HTTP_PARAM_KINDS, capabilities: new Map<string, number>() };

/** Step one alone: the request of `req` with `options`. */
function build(req: object, options: ClientCallOptions = {}, extra: readonly (readonly [string, string])[] = []): Promise<rest.ClientExchange> {
  return buildRequest(routePlan(handle), responsePlan(handle.responseFormats as never), transport, req, options, extra);
}
const valid = { id: 'a b', tag: ['x', 'y'], tenant: 't1', session: 's=1', name: 'n' };

describe('buildRequest', () => {
  it('fills the path, the query, the headers, the cookies and the body from the request', async () => {
    const x = await build(valid, {}, [['traceparent', '00-1']]);
    expect(x.method).toBe('PUT');
    expect(x.path).toBe('/r/items/a%20b');
    expect(x.query).toEqual([['tag', 'x'], ['tag', 'y']]);
    expect(x.headers).toEqual([
      ['X-Tenant', 't1'],
      ['content-type', 'application/json'],
      ['accept', 'application/json'],
      ['cookie', 'session=s%3D1'],
      ['traceparent', '00-1'],
    ]);
    expect(JSON.parse(new TextDecoder().decode(x.body))).toEqual({ name: 'n' });
  });

  it('lets explicit entries win over the request, a header name in any case, and sends undeclared ones as they are', async () => {
    const x = await build(valid, { queryParams: { limit: '5', extra: ['1', '2'] }, headerParams: { 'x-tenant': 't2', 'X-Other': 'o' }, cookieParams: { session: 'e' } });
    expect(x.query).toEqual([['tag', 'x'], ['tag', 'y'], ['limit', '5'], ['extra', '1'], ['extra', '2']]);
    expect(x.headers.filter(([k]) => k.toLowerCase().startsWith('x-'))).toEqual([['X-Tenant', 't2'], ['X-Other', 'o']]);
    expect(x.headers).toContainEqual(['cookie', 'session=e']);
  });

  it('sends the validators as conditional request headers', async () => {
    const since = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    const x = await build(valid, { ifNoneMatch: '"v1"', ifUnmodifiedSince: since });
    expect(x.headers).toContainEqual(['If-None-Match', '"v1"']);
    expect(x.headers).toContainEqual(['If-Unmodified-Since', 'Tue, 02 Jan 2024 03:04:05 GMT']);
  });

  it('checks everything before refusing: each failure reported, all thrown together in order', async () => {
    const reported: string[] = [];
    const observer: rest.Observer = { onValidationError: (e) => void reported.push(`${e.location} ${e.name}`) };
    const err = await build({ id: '', tenant: 'bad\nline', name: 1 }, { observer, queryParams: { limit: 'many' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(rest.RequestValidationError);
    const errors = (err as rest.RequestValidationError).errors;
    expect(errors.map((e) => e.constructor)).toEqual([rest.PathParamError, rest.QueryParamError, rest.RequestBuildError, rest.RequestBuildError]);
    expect(errors[2]?.message).toBe('the request body is invalid: name: expected string, got number');
    expect(errors[3]?.message).toMatch(/^the header "X-Tenant": "bad\\nline" cannot be sent/);
    expect(reported).toEqual(['path id', 'query limit', 'body name', 'header X-Tenant']);
  });

  it('throws a single failure as itself', async () => {
    await expect(build({ ...valid, tenant: undefined })).rejects.toBeInstanceOf(rest.HeaderParamError);
  });

  it('builds nothing for a transport that cannot carry the route', async () => {
    let asked = 0;
    const noCookies = { adapter: 'no-cookies', paramKinds: new Set<rest.ParamKind>(['path', 'query', 'header']), capabilities: new Map<string, number>() };
    const clientMW = r.clientMW(rest.newMiddleware(rest.declaration('m', codec.object({}), codec.empty<object>())), () => (asked++, {}));
    const err = await buildRequest(routePlan(clientMW.clientHandle() as rest.RouteHandle<unknown, unknown>), responsePlan(handle.responseFormats as never), noCookies, valid, {}, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(rest.UnsupportedParamKindError);
    expect(asked).toBe(0);
  });

  it('refuses a cookie name that cannot be sent', async () => {
    await expect(build(valid, { cookieParams: { 'a b': '1' } })).rejects.toThrow('a cookie name of ["session","a b"] is not a cookie-name (RFC 6265 §4.1.1)');
  });
});

describe('withValidators', () => {
  it('leaves options without a validator as they are, and lets explicit headers win', () => {
    const plain: ClientCallOptions = { headerParams: { a: '1' } };
    expect(withValidators(plain)).toBe(plain);
    expect(withValidators({ ifMatch: '"1"', headerParams: { 'If-Match': '"2"' } }).headerParams).toEqual({ 'If-Match': '"2"' });
  });
});

describe('lookup', () => {
  it('matches a header name in any case, any other name exactly', () => {
    expect(lookup({ 'X-A': '1' }, 'x-a', 'header')).toBe('1');
    expect(lookup({ A: '1' }, 'a', 'query')).toBeUndefined();
    expect(lookup({ A: '1' }, 'a', 'cookie')).toBeUndefined();
    expect(lookup({ a: '1' }, 'a', 'cookie')).toBe('1');
  });
});
