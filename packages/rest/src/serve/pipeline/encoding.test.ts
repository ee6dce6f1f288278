import * as codec from '@lib/codec';
import { json, type Format } from '@lib/format';
import { describe, expect, it } from 'vitest';
import * as rest from '../../index.js';
import { PipelineNoResponseError } from '../../declare/http-errors.js';
import { Answer } from '../../declare/success.js';
import { answerEncoder, routeHeaders } from './encoding.js';
import type { PipelineRequest, PipelineResponse } from './exchange.js';
import { routePlan } from './prepare.js';
import { RequestContext } from './request-context.js';

const item = codec.object({ id: codec.int() });
const request = { method: 'GET', header: () => undefined, signal: new AbortController().signal, native: undefined } as unknown as PipelineRequest;

/** The plan of `route`, registered with a new builder made with `options`. */
function planOf(route: rest.Route<never, never>, ...options: rest.ServerOption[]): ReturnType<typeof routePlan> {
  const api = rest.newServer({ title: 't', version: '1' }, ...options);
  (route as unknown as rest.Route<unknown, unknown>).register(api);
  return routePlan(api.handles()[0] as rest.RouteHandle<unknown, unknown>, api.servingSettings(), undefined, undefined);
}
const as = (r: unknown): rest.Route<never, never> => r as rest.Route<never, never>;

describe('encoding', () => {
  it('writes the answer in the negotiated format with its Content-Type and the headers the handler set', async () => {
    const plan = planOf(as(rest.newRoute('GET', '/item', codec.empty<object>(), item).withHandler(() => ({ id: 1 }))));
    const ctx = new RequestContext(request);
    rest.responseHeadersFromContext(ctx)?.set('cache-control', 'no-store');
    const res = await answerEncoder(plan)(ctx, request, { id: 1 }, json(item) as Format<unknown>);
    expect(res.status).toBe(200);
    expect(res.headers).toEqual([['content-type', 'application/json'], ['cache-control', 'no-store']]);
    expect(typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body as Uint8Array)).toBe('{"id":1}');
  });

  it('sends a main response documented as default with the method\'s status, and documents it as default', async () => {
    const route = rest.newRoute('POST', '/logout', codec.empty<object>(), item, rest.routeMeta({ respStatus: 'default' })).withHandler(() => ({ id: 1 }));
    const plan = planOf(as(route));
    const res = await answerEncoder(plan)(new RequestContext(request), request, { id: 1 }, json(item) as Format<unknown>);
    expect(res.status).toBe(201);
    expect(rest.describeRoute(plan.handle).responses[0]?.status).toBe('default');
    expect(rest.mainStatus('GET', 'default')).toBe(200);
    expect(rest.mainStatus('GET', '2XX')).toBe(200);
    expect(rest.mainStatus('PUT', 204)).toBe(204);
  });

  it('refuses an answer that breaks the contract: an undeclared status, or a value the codec refuses', () => {
    const plan = planOf(as(rest.newRoute('GET', '/item', codec.empty<object>(), item).withHandler(() => ({ id: 1 }))));
    const encode = (answer: unknown): unknown => answerEncoder(plan)(new RequestContext(request), request, answer, json(item) as Format<unknown>);
    expect(() => encode(new Answer(201, { id: 1 }))).toThrow(rest.ResponseContractError);
    expect(() => encode({ id: 'one' })).toThrow(rest.ResponseContractError);
    expect(() => encode(undefined)).toThrow(rest.ResponseContractError);
  });

  it('answers 503 where the response admits no value and the handler gave none', () => {
    const plan = planOf(as(rest.newRoute('GET', '/maybe', codec.empty<object>(), codec.optional(item)).withHandler(() => undefined)));
    expect(() => answerEncoder(plan)(new RequestContext(request), request, undefined, json(item) as Format<unknown>)).toThrow(PipelineNoResponseError);
  });

  it('adds Vary: Accept where Accept chose among several formats, and the CORS headers of the builder', () => {
    const route = rest.newRoute('GET', '/item', codec.empty<object>(), item, rest.formats(json(item), json(item).withContentType('application/problem+json'))).withHandler(() => ({ id: 1 }));
    const plan = planOf(as(route), rest.cors({ origin: '*' }));
    const res: PipelineResponse = { status: 200, headers: [], body: undefined };
    routeHeaders(plan)({ ...request, header: (name: string) => (name === 'origin' ? 'https://app.example' : undefined) } as PipelineRequest, res, [['x-mw', '1']]);
    expect(res.headers.map(([k]) => k)).toEqual(['x-mw', 'vary', 'access-control-allow-origin']);
  });
});
