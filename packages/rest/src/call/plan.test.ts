import * as codec from '@lib/codec';
import { json, type Format } from '@lib/format';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import type { TransportCoverage } from '../declare/coverage.js';
import { checkCovered, paramKey, responsePlan, routePlan } from './plan.js';

class Gone extends Error {}
class Conflict extends Error {}
const item = codec.object({ name: codec.string() });
const problem = codec.object({ detail: codec.string() });

const handleOf = (r: { clientHandle(): unknown }): rest.RouteHandle<unknown, unknown> => r.clientHandle() as rest.RouteHandle<unknown, unknown>;

describe('routePlan', () => {
  it('is worked out once per route handle', () => {
    const handle = handleOf(rest.route({ method: 'GET', path: '/p/once', response: item }));
    expect(routePlan(handle)).toBe(routePlan(handle));
  });

  it('holds the main success status, the other successes and the error rules that decode a body, by status', () => {
    const first = rest.errorPattern(Gone, 410, problem, (e) => ({ detail: e.message }));
    const second = rest.errorPattern(Conflict, 422, problem, (e) => ({ detail: e.message }));
    const plain = rest.errorStatus(Conflict, 409);
    const r = rest.route({ method: 'POST', path: '/p/items', body: item, response: item, successes: { 200: item, 202: null }, errors: [plain, first, second] });
    const plan = routePlan(handleOf(r));
    expect(plan.status).toBe(201);
    expect([...plan.successes.keys()]).toEqual([200, 202]);
    expect(plan.successes.get(202)?.codec.kind).toBe('empty');
    // A rule that only maps a status decodes nothing.
    expect(plan.errors.get(410)).toEqual([first]);
    expect(plan.errors.get(422)).toEqual([second]);
    expect([...plan.errors.keys()]).toEqual([410, 422]);
    expect(plan.body).toBe(true);
  });

  it('takes a declared redirect as the main status, and knows a method without a body', () => {
    const plan = routePlan(handleOf(rest.route({ method: 'GET', path: '/p/moved', response: codec.empty<void>(), meta: { respStatus: 303 } })));
    expect(plan.status).toBe(303);
    expect(plan.body).toBe(false);
    // A POST without a body codec sends none.
    expect(routePlan(handleOf(rest.route({ method: 'POST', path: '/p/ping', response: item }))).body).toBe(false);
  });

  it('lists the request parameters by location and name, a header name in lower case', () => {
    const r = rest.route({ method: 'GET', path: '/p/{id}', pathParams: { id: codec.string() }, query: { q: codec.optional(codec.string()) }, headers: { tenant: rest.named('X-Tenant', codec.string()) }, response: item });
    const plan = routePlan(handleOf(r));
    expect([...plan.declared].sort()).toEqual(['header:x-tenant', 'path:id', 'query:q']);
    expect(plan.declared.has(paramKey('header', 'X-TENANT'))).toBe(true);
    expect(plan.declared.has(paramKey('query', 'Q'))).toBe(false);
  });
});

describe('checkCovered', () => {
  /** A transport coverage that counts how often its parameter kinds are consulted. */
  function counted(kinds: Iterable<rest.ParamKind>): TransportCoverage & { asked: number } {
    const set = new Set(kinds);
    const t = {
      adapter: 'counted',
      asked: 0,
      capabilities: new Map<string, number>(),
      paramKinds: {
        has: (k: rest.ParamKind) => {
          t.asked++;
          return set.has(k);
        },
      } as ReadonlySet<rest.ParamKind>,
    };
    return t;
  }
  const r = rest.route({ method: 'GET', path: '/c/{id}', pathParams: { id: codec.string() }, cookies: { session: codec.string() }, response: item });

  it('checks a transport once per route', () => {
    const plan = routePlan(handleOf(r));
    const t = counted(rest.HTTP_PARAM_KINDS);
    checkCovered(plan, t);
    const asked = t.asked;
    expect(asked).toBeGreaterThan(0);
    checkCovered(plan, t);
    expect(t.asked).toBe(asked);
    // Another transport is checked in its turn.
    const other = counted(rest.HTTP_PARAM_KINDS);
    checkCovered(plan, other);
    expect(other.asked).toBe(asked);
  });

  it('refuses a transport without a parameter kind of the route, every time', () => {
    const plan = routePlan(handleOf(r));
    const t = counted(['path', 'query', 'header']);
    expect(() => checkCovered(plan, t)).toThrow(rest.UnsupportedParamKindError);
    expect(() => checkCovered(plan, t)).toThrow(rest.UnsupportedParamKindError);
  });
});

describe('responsePlan', () => {
  const text = { ...json(item), contentType: 'text/csv; charset=utf-8' } as unknown as Format<unknown>;
  const formats: readonly Format<unknown>[] = [json(item), text];

  it('offers the formats in order in Accept, without parameters, and is worked out once per list', () => {
    const plan = responsePlan(formats);
    expect(plan).toBe(responsePlan(formats));
    expect(plan.accept).toBe('application/json, text/csv;q=0.9');
    expect(plan.types).toEqual(['application/json', 'text/csv']);
    expect(plan.formats).toBe(formats);
    expect(plan.streaming).toBe(false);
  });

  it('leaves response-only formats out of Accept unless there is nothing else', () => {
    const html = { ...json(item), contentType: 'text/html', responseOnly: true } as unknown as Format<unknown>;
    expect(responsePlan([html, json(item)]).accept).toBe('application/json');
    expect(responsePlan([html]).accept).toBe('text/html');
  });
});
