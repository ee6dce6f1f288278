import * as codec from '@lib/codec';
import { FileStoreError } from '@lib/format';
import { describe, expect, it } from 'vitest';
import * as rest from '../../index.js';
import { PIPELINE_ERRORS } from '../../declare/pipeline-errors.js';
import { builtinStatus, compileErrorMapping, RequestRefusedError } from './error-mapping.js';
import type { PipelineRequest, PipelineResponse } from './exchange.js';
import { routePlan } from './prepare.js';
import { RequestContext } from './request-context.js';

class Gone extends Error {}
class Locked extends Error {}
const goneBody = codec.object({ gone: codec.boolean() });

/** The error mapping of a GET route with `rules`, served by a builder with `options`. */
function mappingOf(options: rest.Options, ...rules: rest.AnyErrorRule[]): (err: unknown) => PipelineResponse {
  const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions(options), rest.withBasePath('/api'));
  rest.newRoute('GET', '/things', codec.empty<object>(), codec.object({ ok: codec.boolean() }), ...(rules as never[])).withHandler(() => ({ ok: true })).register(api);
  const map = compileErrorMapping(routePlan(api.handles()[0] as rest.RouteHandle<unknown, unknown>, api.servingSettings(), undefined, undefined));
  const ctx = new RequestContext({ header: () => undefined, native: undefined } as unknown as PipelineRequest);
  return (err) => map(ctx, err, undefined) as PipelineResponse;
}
const json = (res: PipelineResponse): unknown => JSON.parse(typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body as Uint8Array));

describe('error mapping', () => {
  it("gives the pipeline's own errors the status of their table entry, storage failures 507 or 500, anything else 500", () => {
    for (const entry of PIPELINE_ERRORS) expect(builtinStatus(Object.create(entry.error.prototype))).toBe(entry.status);
    expect(builtinStatus(new RequestRefusedError('no Host', 400))).toBe(400);
    expect(builtinStatus(new FileStoreError({ code: 'ENOSPC' }))).toBe(507);
    expect(builtinStatus(new FileStoreError({ code: 'EACCES' }))).toBe(500);
    expect(builtinStatus(new Error('bug'))).toBe(500);
  });

  it('answers an error a rule matches with the rule: a status through the errorHandler, or a typed body', () => {
    const map = mappingOf({}, rest.errorStatus(Locked, 423), rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })));
    const locked = map(new Locked('locked'));
    expect(locked.status).toBe(423);
    expect(json(locked)).toEqual({ error: 'locked' });
    const gone = map(new Gone());
    expect(gone.status).toBe(410);
    expect(json(gone)).toEqual({ gone: true });
  });

  it('answers an error no rule matches with its built-in status, and never shows a 5xx its message', () => {
    const map = mappingOf({});
    expect(map(new rest.NotAcceptableError('text/html', ['application/json'])).status).toBe(406);
    const bug = map(new Error('secret detail'));
    expect(bug.status).toBe(500);
    expect(json(bug)).toEqual({ error: 'internal server error' });
  });

  it('answers with the default 500 envelope when the errorHandler throws, and is not broken by an observer that throws', () => {
    const observer: rest.Observer = {
      onErrorPattern: () => {
        throw new Error('observer bug');
      },
    };
    const map = mappingOf({ observer, errorHandler: () => { throw new Error('handler bug'); } });
    const res = map(new Locked());
    expect(res.status).toBe(500);
    expect(json(res)).toEqual({ error: 'internal server error' });
  });

  it('answers a redirect with its Location under the base path', () => {
    expect(mappingOf({})(new rest.Redirect(303, '/things/1')).headers).toEqual([['location', '/api/things/1']]);
  });
});
