import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import * as rest from '../../index.js';
import type { PipelineRequest } from './exchange.js';
import { inCheckOrder, paramDecoder, paramMerger } from './parameters.js';

interface Req {
  id: number;
  limit?: number;
  tags?: string[];
  trace?: string;
}

/** The request parameters of a GET route declaring `params`, in the order the server checks them. */
function paramsOf(...params: unknown[]): ReturnType<typeof inCheckOrder> {
  const api = rest.newServer({ title: 't', version: '1' });
  (rest.newRoute('GET', '/items/{id}', codec.empty<Req>(), codec.empty<object>(), ...(params as never[])) as unknown as rest.Route<unknown, unknown>).register(api);
  return inCheckOrder((api.handles()[0] as rest.RouteHandle<unknown, unknown>).requestParams);
}

const id = rest.newPathParam('id', codec.intString().refine(validate.min(1)), (r: Req) => r.id, (r, v) => void (r.id = v));
const limit = rest.newOptionalQueryParam('limit', codec.intString().refine(validate.max(100)), (r: Req) => r.limit, (r, v) => void (r.limit = v));
const tags = rest.newOptionalQueryParam('tags', codec.array(codec.string()), (r: Req) => r.tags, (r, v) => void (r.tags = v));
const trace = rest.newRequiredHeaderParam('X-Trace', codec.string(), (r: Req) => r.trace as string, (r, v) => void (r.trace = v));

function request(path: Record<string, string>, rawQuery: string, headers: Record<string, string> = {}): PipelineRequest {
  return {
    method: 'GET',
    pathParams: path,
    rawQuery,
    header: (name) => headers[name],
    readBody: () => Promise.resolve(new Uint8Array()),
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

describe('parameters (400)', () => {
  it('checks query, cookie, header, then path parameters', () => {
    expect(paramsOf(id, trace, limit).map((p) => p.kind)).toEqual(['query', 'header', 'path']);
  });

  it('decodes every parameter, and merges them into the request value', () => {
    const params = paramsOf(id, limit, tags, trace);
    const decoded: unknown[] = [];
    expect(paramDecoder(params, false, { observer: undefined, route: 'GET /items/{id}' })(request({ id: '7' }, 'limit=5&tags=a&tags=b', { 'x-trace': 't1' }), decoded)).toBeUndefined();
    expect(paramMerger(params)(undefined, decoded)).toEqual({ id: 7, limit: 5, tags: ['a', 'b'], trace: 't1' });
  });

  it('collects every failure, each reported to the observer, rather than stopping at the first', () => {
    const params = paramsOf(id, limit, trace);
    const reported: string[] = [];
    const observer: rest.Observer = { onValidationError: ({ location, name }) => void reported.push(`${location} ${name}`) };
    const failures = paramDecoder(params, false, { observer, route: 'GET /items/{id}' })(request({ id: '0' }, 'limit=500'), []);
    expect(failures?.map((e) => e.constructor.name)).toEqual(['QueryParamError', 'HeaderParamError', 'PathParamError']);
    expect(reported).toEqual(['query limit', 'header X-Trace', 'path id']);
  });

  it('checks every value of a repeated scalar query key with multiValueQueryParams', () => {
    const params = paramsOf(id, limit);
    const decode = (multi: boolean): Error[] | undefined => paramDecoder(params, multi, { observer: undefined, route: 'r' })(request({ id: '1' }, 'limit=5&limit=500'), []);
    expect(decode(false)).toBeUndefined();
    expect(decode(true)?.map((e) => e.constructor.name)).toEqual(['QueryParamError']);
  });

  it('lets a constraint that throws (a server bug) through', () => {
    const buggy = rest.newOptionalQueryParam('q', codec.string().refine({ name: 'buggy', test: () => { throw new TypeError('bug'); }, message: () => 'never' }), (r: { q?: string }) => r.q, (r, v) => void (r.q = v));
    expect(() => paramDecoder(paramsOf(buggy), false, { observer: undefined, route: 'r' })(request({}, 'q=x'), [])).toThrow(TypeError);
  });
});
