import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as rest from '../../index.js';
import { PIPELINE_ERRORS } from '../../declare/pipeline-errors.js';
import { observeSafely } from './observe.js';
import { routePlan } from './prepare.js';
import { PIPELINE_STAGES, pipelineStage } from './stages.js';

/** The names of the stages a route's pipeline is composed of. */
function composed(route: rest.Route<never, never>, api = rest.newServer({ title: 't', version: '1' })): string[] {
  (route as unknown as rest.Route<unknown, unknown>).register(api);
  const plan = routePlan(api.handles()[0] as rest.RouteHandle<unknown, unknown>, api.servingSettings(), undefined, undefined);
  return PIPELINE_STAGES.filter((s) => s.compile?.(plan) !== undefined).map((s) => s.name);
}
const as = (r: unknown): rest.Route<never, never> => r as rest.Route<never, never>;

describe('the pipeline stages', () => {
  it("list every one of the pipeline's own errors once, with its table entry (status and words)", () => {
    const refused = PIPELINE_STAGES.flatMap((s) => s.refuses);
    expect(refused.length).toBe(PIPELINE_ERRORS.length);
    for (const entry of PIPELINE_ERRORS) expect(refused.filter((r) => r === entry)).toHaveLength(1);
  });

  it('run in the order a request meets them', () => {
    expect(PIPELINE_STAGES.map((s) => s.name)).toEqual(['routing', 'negotiation', 'media-type', 'credentials', 'body-limit', 'parameters', 'body', 'middleware', 'handler', 'encoding']);
    expect(pipelineStage('credentials').refuses.map((r) => r.status)).toEqual([401]);
  });

  it('compose a route of only the stages it needs', () => {
    const item = codec.object({ id: codec.int() });
    expect(composed(as(rest.newRoute('DELETE', '/items', codec.empty<object>(), codec.empty<object>()).withHandler(() => ({}))))).toEqual(['body', 'handler', 'encoding']);
    expect(composed(as(rest.newRoute('GET', '/items', codec.empty<{ q?: string }>(), item, rest.newOptionalQueryParam('q', codec.string(), (r: { q?: string }) => r.q, (r, v) => void (r.q = v))).withHandler(() => ({ id: 1 }))))).toEqual([
      'negotiation',
      'parameters',
      'body',
      'handler',
      'encoding',
    ]);
    expect(composed(as(rest.newRoute('POST', '/items', item, item).withHandler((_ctx, req) => req)))).toEqual(['negotiation', 'media-type', 'body-limit', 'body', 'handler', 'encoding']);
  });

  it('call an observer so that what it throws is dropped', () => {
    const seen: string[] = [];
    observeSafely(() => {
      seen.push('called');
      throw new Error('observer bug');
    });
    expect(seen).toEqual(['called']);
  });
});
