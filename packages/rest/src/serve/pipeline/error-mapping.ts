import { FileStoreError, json, mediaTypeOf, type Format } from '@lib/format';
import { reasonPhrase } from '@lib/openapi';
import { requestKey, type Context } from '../../declare/context.js';
import { BodyTooLargeError, ResponseContractError, UnauthorizedError, messageOf } from '../../declare/errors.js';
import { ErrorPattern, isFinalStatus } from '../../declare/error-rules.js';
import { NotModified } from '../../declare/not-modified.js';
import type { ErrorHandler, Options } from '../../declare/options.js';
import { pipelineError } from '../../declare/pipeline-errors.js';
import { Redirect } from '../../declare/redirect.js';
import { matchErrorRule } from '../../declare/route.js';
import type { PipelineRequest, PipelineResponse, RefusedStatus } from './exchange.js';
import { negotiator } from './negotiation.js';
import { notModifiedAnswer, redirectResponse } from './handler.js';
import { mergeParamsOf } from './encoding.js';
import { observeErrorMapping } from './observe.js';
import type { RequestContext } from './request-context.js';
import { encodeMergeFields } from './response-fields.js';
import type { RoutePlan } from './stage.js';

/** The media type of the default error body. */
export const JSON_TYPE = 'application/json';
const encoder = new TextEncoder();

/** A JSON error response `{ "error": message }` for the adapter's own cases (404, 405). */
export function errorEnvelopeResponse(status: number, message: string, headers: readonly (readonly [string, string])[] = []): PipelineResponse {
  return { status, headers: [['content-type', JSON_TYPE], ...headers], body: encoder.encode(JSON.stringify({ error: message })) };
}

/** A request the adapter refuses before routing: a missing `Host` (400), an unsupported `Expect` (417), HTTP/2 or later on an HTTP/1 connection (505). */
export class RequestRefusedError extends Error {
  readonly status: RefusedStatus;
  constructor(message: string, status: RefusedStatus) {
    super(message);
    this.name = 'RequestRefusedError';
    this.status = status;
  }
}

/** The status the pipeline gives its own errors when no rule maps them. */
export function builtinStatus(err: unknown): number {
  // RFC 4918 §11.5: a full device is 507 Insufficient Storage; any other storage failure is the server's own.
  if (err instanceof FileStoreError) return err.insufficientStorage ? 507 : 500;
  if (err instanceof RequestRefusedError) return err.status;
  return pipelineError(err)?.status ?? 500;
}

/** The default `errorHandler`: `{ error: message }` for 4xx, `{ error: reason phrase }` for 5xx (never the error's own text). */
export const defaultErrorHandler: ErrorHandler = (_ctx, err, status) => ({
  body: { error: status >= 500 ? reasonPhrase(status).toLowerCase() : messageOf(err) },
});

/**
 * The body an `errorHandler` gives for `err` at `status`, as a response. Total: a handler that
 * throws or returns a body `JSON.stringify` refuses gives the default 500 envelope; a status it
 * returns is used only when it is an integer from 400 to 599.
 */
export function errorResponse(errorHandler: ErrorHandler, ctx: Context, err: unknown, status: number, mediaType: string): PipelineResponse {
  let envelope: { readonly status?: number; readonly body: unknown } | undefined;
  let text: string | undefined;
  try {
    envelope = errorHandler(ctx, err, status);
    text = JSON.stringify(envelope.body);
  } catch {
    text = undefined;
  }
  if (envelope === undefined || typeof text !== 'string') return internalError();
  const headers: [string, string][] = [['content-type', mediaType]];
  if (err instanceof BodyTooLargeError) headers.push(['connection', 'close']);
  const final = isErrorStatus(envelope.status) ? envelope.status : status;
  // RFC 9110 §15.5.2: a 401 carries the challenges of the route's schemes.
  if (final === 401 && err instanceof UnauthorizedError && err.challenges.length > 0) headers.push(['www-authenticate', err.challenges.join(', ')]);
  return { status: final, headers, body: text };
}

/** The JSON body of an `ErrorRespond` pattern; the default 500 envelope when its `mapFn` or codec fails. */
export function typedErrorResponse(rule: ErrorPattern<unknown, unknown>, value: unknown, mediaType: string): PipelineResponse {
  try {
    return { status: rule.status, headers: [['content-type', mediaType]], body: json(rule.body).marshal(value) };
  } catch {
    return internalError();
  }
}

/** An integer from 400 to 599: the statuses an `errorHandler` may choose. */
function isErrorStatus(status: unknown): status is number {
  return isFinalStatus(status) && status >= 400;
}

/** The last-resort answer, when even the error response could not be built: fixed bytes, nothing that can throw. */
const INTERNAL_ERROR_BODY = encoder.encode(JSON.stringify({ error: 'internal server error' }));
function internalError(): PipelineResponse {
  return { status: 500, headers: [['content-type', JSON_TYPE]], body: INTERNAL_ERROR_BODY };
}

/**
 * The formats of a route's typed error bodies (`ErrorRespond` patterns): a pattern whose body is
 * the API's error body (`options.errorBody`) goes out as `errorMediaType`
 * (application/problem+json with problem details), any other as JSON; and, by response format,
 * the negotiated one where it can carry another codec (json, yaml, toml, cbor). Built once.
 */
function patternFormats(plan: RoutePlan, errorMediaType: string): (rule: ErrorPattern<unknown, unknown>, negotiated: Format<unknown> | undefined, accept: string | undefined) => { readonly json: Format<unknown>; readonly chosen: Format<unknown> } {
  // A pattern with formats of its own (`withFormats`, `withMediaTypes`) is written in the one Accept prefers among them, else the first.
  const own = new Map<ErrorPattern<unknown, unknown>, (accept: string | undefined) => Format<unknown>>();
  for (const r of plan.handle.errorRules) {
    if (!(r instanceof ErrorPattern) || r.formats === undefined) continue;
    own.set(r, negotiator(r.formats as readonly Format<unknown>[], true));
  }
  const inJson = new Map<ErrorPattern<unknown, unknown>, Format<unknown>>();
  for (const r of plan.handle.errorRules) if (r instanceof ErrorPattern) inJson.set(r, r.body === plan.options.errorBody && errorMediaType !== JSON_TYPE ? json(r.body).withContentType(errorMediaType) : json(r.body));
  const negotiatedFormats = new Map<ErrorPattern<unknown, unknown>, Map<Format<unknown>, Format<unknown>>>();
  for (const [r, jsonFormat] of inJson) {
    const byFormat = new Map<Format<unknown>, Format<unknown>>();
    for (const f of plan.handle.responseFormats) byFormat.set(f, f.withCodec === undefined || mediaTypeOf(f.contentType) === JSON_TYPE ? jsonFormat : f.withCodec(r.body));
    negotiatedFormats.set(r, byFormat);
  }
  return (rule, negotiated, accept) => {
    const ownFormat = own.get(rule)?.(accept);
    if (ownFormat !== undefined) return { json: ownFormat, chosen: ownFormat };
    const jsonFormat = inJson.get(rule) as Format<unknown>;
    return { json: jsonFormat, chosen: (negotiated === undefined ? undefined : negotiatedFormats.get(rule)?.get(negotiated)) ?? jsonFormat };
  };
}

/**
 * Answers what a route's stages threw: a redirect or a 304 the handler asked for as such, any
 * other error through the route's error rules (its own, then the builder's).
 */
export type ErrorMapper = (ctx: RequestContext, err: unknown, negotiated: Format<unknown> | undefined) => PipelineResponse | Promise<PipelineResponse>;

/**
 * The error mapping of a route: the first matching `ErrorRespond` pattern writes its typed body
 * (in the negotiated format where it can, else JSON); anything else goes through the
 * `errorHandler` with the rule's status or the pipeline's own ({@link builtinStatus}). Error
 * mapping rule 5: the route's response merge fields read a pattern's payload, a field it lacks
 * left out. The observer hears of every error (`onErrorPattern`, `onErrorLog`, `onSpanTags`).
 * Total: a failing `mapFn`, pattern codec or `errorHandler` falls back to the default 500
 * envelope. Headers and cookies the handler set go with an answer the route declares for its
 * error (a rule matched it); a response the handler did not produce carries none of them.
 */
export function compileErrorMapping(plan: RoutePlan): ErrorMapper {
  const { route, handle, observer, options } = plan;
  const errorHandler = options.errorHandler ?? defaultErrorHandler;
  const errorMediaType = options.errorMediaType ?? JSON_TYPE;
  const mergeResponseParams = mergeParamsOf(route.params);
  const formatsOf = patternFormats(plan, errorMediaType);
  const basePath = plan.settings.basePath;

  function respond(ctx: Context, err: unknown, negotiated: Format<unknown> | undefined, retry = true, out?: { matched: boolean }): PipelineResponse {
    try {
      const m = matchErrorRule(handle.errorRules, err);
      if (out !== undefined) out.matched = m !== undefined;
      const status = m?.rule.status ?? builtinStatus(err);
      if (observer !== undefined) observeErrorMapping(observer, route, m, status, err);
      if (m === undefined || !(m.rule instanceof ErrorPattern)) return errorResponse(errorHandler, ctx, err, status, errorMediaType);
      const headers: [string, string][] = [];
      encodeMergeFields(mergeResponseParams, m.value, headers, true);
      // The pattern's own headers (withHeaders): its contract, as a success's headers are.
      if (m.rule.headers.length > 0) encodeMergeFields(m.rule.headers, m.rule.matchHeaders(err) ?? {}, headers, false);
      if (m.rule.action !== 'respond') {
        const res = errorResponse(errorHandler, ctx, err, status, errorMediaType);
        return { ...res, headers: [...res.headers, ...headers] };
      }
      const formats = formatsOf(m.rule, negotiated, m.rule.formats === undefined ? undefined : (ctx.get(requestKey) as PipelineRequest | undefined)?.header('accept'));
      let f = formats.chosen;
      let body: Uint8Array;
      try {
        body = f.marshal(m.value);
      } catch (err) {
        // A value the negotiated syntax cannot carry (TOML has no null) goes out as JSON.
        if (f === formats.json) throw err;
        f = formats.json;
        body = f.marshal(m.value);
      }
      return { status: m.rule.status, headers: [['content-type', f.contentType], ...headers], body };
    } catch (failed) {
      // A mapFn that threw, or a pattern body its codec refuses: the server's own contract is broken.
      if (out !== undefined) out.matched = false;
      return retry ? respond(ctx, new ResponseContractError(failed), negotiated, false) : internalError();
    }
  }

  return (ctx, err, negotiated) => {
    if (err instanceof Redirect) return redirectResponse(err, basePath, ctx.responseHeaders());
    if (err instanceof NotModified) return notModifiedAnswer(err, ctx.responseHeaders());
    const rule = { matched: false };
    const res = respond(ctx, err, negotiated, true, rule);
    if (rule.matched) ctx.responseHeaders()?.forEach((v, k) => (res.headers as [string, string][]).push([k, v]));
    return res;
  };
}
