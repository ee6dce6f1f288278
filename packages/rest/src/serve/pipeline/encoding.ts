import { parseSetCookie } from 'cookie';
import type { Format } from '@lib/format';
import { CookieParamError, HeaderParamError, ResponseContractError } from '../../declare/errors.js';
import { PipelineNoResponseError } from '../../declare/http-errors.js';
import { ResponseMergeParam, type AnyParam } from '../../declare/params.js';
import { mainStatus, takesNothing, type Route, type RouteHandle } from '../../declare/route.js';
import { Answer } from '../../declare/success.js';
import { isConditional, isUnchanged } from '../conditional.js';
import type { PipelineRequest, PipelineResponse, ResponseBody } from './exchange.js';
import { notModifiedResponse, validatorsOf } from './handler.js';
import type { RequestContext } from './request-context.js';
import { encodeMergeFields } from './response-fields.js';
import { isAsyncIterable, type Exchange, type RoutePlan, type Step } from './stage.js';
import { untilAborted } from './until-aborted.js';

/** What the pipeline needs to send one success response of a route: its status, headers and cookies, and formats. */
export interface SuccessPlan {
  readonly status: number;
  /** True for a response without content. */
  readonly empty: boolean;
  /** Its plain (not merge) response headers, checked against those the handler set. */
  readonly plainHeaders: readonly AnyParam[];
  /** Its plain (not merge) response cookies, checked against those the handler set. */
  readonly plainCookies: readonly AnyParam[];
  /** Those of them that are merge fields of the value. */
  readonly mergeParams: readonly ResponseMergeParam<unknown, unknown>[];
  /** Its body formats; `undefined` for the main response (negotiated by `Accept`). */
  readonly formats: readonly Format<unknown>[] | undefined;
  /** True when its codec takes no value (`optional`, `any`): a handler's `undefined` is then 503, else a broken contract. */
  readonly takesNothing: boolean;
}

/** The response merge fields among `params`. */
export function mergeParamsOf(params: readonly AnyParam[]): readonly ResponseMergeParam<unknown, unknown>[] {
  return params.filter((p) => p instanceof ResponseMergeParam) as unknown as readonly ResponseMergeParam<unknown, unknown>[];
}

/** The plain response parameters of one kind: declared, but set by the handler, not merged from the value. */
function plainParamsOf(params: readonly AnyParam[], kind: 'responseHeader' | 'responseCookie'): readonly AnyParam[] {
  return params.filter((p) => p.kind === kind && !(p instanceof ResponseMergeParam));
}

/** The plan of each declared success response of a route, by status: the main one, then each other. */
export function successPlans(handle: RouteHandle<unknown, unknown>): { readonly main: SuccessPlan; readonly byStatus: ReadonlyMap<number, SuccessPlan> } {
  const route: Route<unknown, unknown> = handle.route;
  const status = mainStatus(route.method, route.meta.respStatus);
  const main: SuccessPlan = {
    status,
    empty: route.respCodec.kind === 'empty',
    plainHeaders: plainParamsOf(route.params, 'responseHeader'),
    plainCookies: plainParamsOf(route.params, 'responseCookie'),
    mergeParams: mergeParamsOf(route.params),
    formats: undefined,
    takesNothing: takesNothing(route.respCodec),
  };
  const byStatus = new Map<number, SuccessPlan>([[status, main]]);
  for (const sr of route.successes) {
    const own = sr.params;
    byStatus.set(sr.status, {
      status: sr.status,
      empty: sr.codec.kind === 'empty',
      plainHeaders: own === undefined ? main.plainHeaders : plainParamsOf(own, 'responseHeader'),
      plainCookies: own === undefined ? main.plainCookies : plainParamsOf(own, 'responseCookie'),
      mergeParams: own === undefined ? main.mergeParams : mergeParamsOf(own),
      formats: handle.successFormats(sr),
      takesNothing: takesNothing(sr.codec),
    });
  }
  return { main, byStatus };
}

/**
 * Checks the plain response headers and cookies the handler set (through the context's
 * `Headers`) against the plan: present when required, accepted by their codecs.
 * @throws {ResponseContractError}
 */
export function checkPlainParams(plan: SuccessPlan, ctxHeaders: Headers | undefined): void {
  for (const p of plan.plainHeaders) checkPlainValue(p, ctxHeaders?.get(p.name) ?? undefined, HeaderParamError);
  if (plan.plainCookies.length === 0) return;
  const set = new Map<string, string>();
  for (const line of ctxHeaders?.getSetCookie() ?? []) {
    const c = parseSetCookie(line);
    if (c.value !== undefined) set.set(c.name, c.value);
  }
  for (const p of plan.plainCookies) checkPlainValue(p, set.get(p.name), CookieParamError);
}

/** @throws {ResponseContractError} `v` absent where `p` is required, or refused by its codec. */
function checkPlainValue(p: AnyParam, v: string | undefined, ParamErr: typeof HeaderParamError | typeof CookieParamError): void {
  if (v === undefined) {
    if (p.required) throw new ResponseContractError(new ParamErr(p.name, undefined, new Error('is required')));
    return;
  }
  if (p.codec === undefined) return;
  try {
    p.codec.decode(v);
  } catch (err) {
    throw new ResponseContractError(new ParamErr(p.name, v, err));
  }
}

/**
 * A stream whose first chunk has been produced: the iteration yields it, then the rest.
 * @throws what the stream throws for its first chunk.
 */
async function primed(body: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const it = body[Symbol.asyncIterator]();
  const first = await it.next();
  let sent = false;
  return {
    [Symbol.asyncIterator]: () => ({
      next: (): Promise<IteratorResult<Uint8Array>> => {
        if (!sent) {
          sent = true;
          return Promise.resolve(first);
        }
        return first.done === true ? Promise.resolve(first) : it.next();
      },
      return: async (): Promise<IteratorResult<Uint8Array>> => (first.done === true ? { done: true, value: undefined } : ((await it.return?.()) ?? { done: true, value: undefined })),
    }),
  };
}

/**
 * True unless `NODE_ENV` is `production`: the default of `validateResponses`, so that a response
 * body that breaks a documented constraint is a 500 during development and tests, and costs
 * nothing in production. Runtimes without `process.env` count as development.
 */
function developmentMode(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV !== 'production';
}

/** Writes a handler's answer as the route's success response. */
export type AnswerEncoder = (ctx: RequestContext, req: PipelineRequest, answer: unknown, respFormat: Format<unknown>) => PipelineResponse | Promise<PipelineResponse>;

/**
 * The encoder of a route's answers: the declared success the answer names (the main one, or
 * another by `respond(status, value)`), its merge fields and the plain headers checked, the body
 * encoded in the negotiated format (checked against the codec when `validateResponses`), and a
 * 304 when a conditional GET or HEAD still matches (RFC 9110 §13.2). A broken contract throws
 * `ResponseContractError` (500); no value where the response's type admits none is 503.
 */
export function answerEncoder(plan: RoutePlan): AnswerEncoder {
  const route = plan.route;
  const { main, byStatus } = successPlans(plan.handle);
  const validateResponses = plan.options.validateResponses ?? developmentMode();
  // A GET or HEAD route that declares an ETag or Last-Modified answers a matching conditional request with 304.
  const conditional = isConditional(route);

  /** The success response: the body's `Content-Type` and the format's headers, then those the handler set. */
  function finish(ctx: RequestContext, req: PipelineRequest, status: number, headers: [string, string][], body: ResponseBody, f: Format<unknown> | undefined): PipelineResponse | Promise<PipelineResponse> {
    if (f !== undefined) {
      headers.push(['content-type', f.contentType]);
      if (f.responseHeaders !== undefined) headers.push(...(f.responseHeaders as [string, string][]));
    }
    ctx.responseHeaders()?.forEach((v, k) => headers.push([k, v]));
    if (conditional && isUnchanged(route.method, (name) => req.header(name), validatorsOf(headers), true)) return notModifiedResponse(headers, body);
    return { status, headers, body };
  }

  return (ctx, req, answer, respFormat) => {
    let out = answer;
    let success = main;
    if (out instanceof Answer) {
      const declared = byStatus.get(out.status);
      if (declared === undefined) throw new ResponseContractError(new Error(`status ${String(out.status)} is not a success response of ${route.id}`));
      success = declared;
      out = out.value;
    }
    if (out === undefined && !success.empty) throw success.takesNothing ? new PipelineNoResponseError() : new ResponseContractError(new Error('the handler returned no value, and the response codec requires one'));

    const headers: [string, string][] = [];
    encodeMergeFields(success.mergeParams, out, headers, false);
    checkPlainParams(success, ctx.responseHeaders());
    if (success.empty) return finish(ctx, req, success.status, headers, undefined, undefined);
    // The main response's format, or the same media type for another success's codec.
    const f = success.formats === undefined ? respFormat : (success.formats.find((x) => x.contentType === respFormat.contentType) ?? (success.formats[0] as Format<unknown>));
    let body: ResponseBody;
    try {
      if (validateResponses) f.codec.validate(out);
      // A streamed format checks the value's structure here, before the head is sent.
      body =
        // A streamed value ends with its client, whether or not the source watches ctx.signal.
        f.marshalStream !== undefined ? f.marshalStream(isAsyncIterable(out) ? untilAborted(out, req.signal) : out, req.signal)
        : f.marshalText !== undefined ? f.marshalText(out)
        : f.marshal(out);
    } catch (err) {
      throw new ResponseContractError(err);
    }
    // The first chunk of a stream is produced before the head is sent: a producer that fails
    // before writing anything is an ordinary handler error (the route's rules, a status).
    if (typeof body === 'object' && !(body instanceof Uint8Array)) return primed(body).then((b) => finish(ctx, req, success.status, headers, b, f));
    return finish(ctx, req, success.status, headers, body, f);
  };
}

/** The encoding stage (503, and 500 for a broken contract): writes the handler's answer as the success response. */
export function compileEncoding(plan: RoutePlan): Step<PipelineResponse> {
  const encode = answerEncoder(plan);
  return {
    run: (ex: Exchange) => encode(ex.ctx, ex.req, ex.answer, ex.respFormat),
    keep(ex: Exchange, res: PipelineResponse): void {
      ex.response = res;
    },
  };
}

/**
 * The headers every answer of a route carries, success or not: those of the middleware that ran,
 * `Vary: Accept` where the response was chosen by `Accept` (RFC 9110 §12.5.5, for caches), and
 * CORS (scripts of allowed origins may read the headers the route and its middleware declare).
 */
export function routeHeaders(plan: RoutePlan): (req: PipelineRequest, res: PipelineResponse, mwHeaders: readonly [string, string][] | undefined) => void {
  const cors = plan.settings.cors;
  const exposed = [...plan.route.params.filter((p) => p.kind === 'responseHeader').map((p) => p.name), ...(plan.middleware?.exposed ?? [])];
  // A route without a response body negotiates nothing.
  const varyAccept = !plan.respEmpty && plan.handle.responseFormats.length > 1;
  return (req, res, mwHeaders) => {
    const headers = res.headers as [string, string][];
    if (mwHeaders !== undefined && mwHeaders.length > 0) headers.push(...mwHeaders);
    if (varyAccept) headers.push(['vary', 'Accept']);
    if (cors !== undefined) headers.push(...cors.responseHeaders(req.header('origin'), exposed));
  };
}
