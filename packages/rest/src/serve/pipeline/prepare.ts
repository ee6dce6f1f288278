import { parseCookie, parseSetCookie } from 'cookie';
import { DecodeError, formatPath } from '@lib/codec';
import Negotiator from 'negotiator';
import { BodyLimitError, FileStoreError, json, mediaTypeOf, type FileStore, type Format } from '@lib/format';
import { Context, nativeRequestKey, requestKey, responseHeadersKey, type ContextKey } from '../../declare/context.js';
import { ErrorPattern, type ErrorRule } from '../../declare/error-rules.js';
import { spanTags } from '../../declare/span-tags.js';
import { encodeResponseFields } from './response-fields.js';
import { untilAborted } from './until-aborted.js';
import { prepareSecurity, type PreparedSecurity } from './security.js';
import { prepareMiddleware, type PreparedMiddleware } from './middleware.js';
import type { CorsPolicy } from '../../declare/cors.js';
import {
  BodyTooLargeError,
  HeaderParamError,
  CookieParamError,
  MethodNotAllowedError,
  NoRouteError,
  NotAcceptableError,
  ParamError,
  RequestBodyError,
  RequestValidationError,
  ResponseContractError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  messageOf,
} from '../../declare/errors.js';
import { PipelineNoResponseError } from '../../declare/http-errors.js';
import { pipelineError } from '../../declare/pipeline-errors.js';
import { traced, type ErrorHandler, type Observer, type Options, type TraceStart } from '../../declare/options.js';
import { ResponseMergeParam, type AnyParam } from '../../declare/params.js';
import { isFinalStatus, wireStatus } from '../../declare/error-rules.js';
import { BODY_METHODS, defaultStatus, matchErrorRule, takesNothing, type Route } from '../../declare/route.js';
import { decodeParam, isMultiValue, type RequestParamSpec } from '../../declare/param-values.js';
import type { RouteHandle } from '../../declare/route.js';
import { Redirect } from '../../declare/redirect.js';
import { isConditional, isUnchanged } from '../conditional.js';
import { NotModified, type Validators } from '../../declare/not-modified.js';
import type { FallbackRequest, FallbackResponses, PipelineRequest, PipelineResponse, PreparedRoute, RefusedStatus, ResponseBody } from './exchange.js';
import { Answer, type DeclaredSuccess, type Responder } from '../../declare/success.js';
import { reasonPhrase } from '@lib/openapi';

const NEVER_ABORTED = new AbortController().signal;

/**
 * The context of one request the pipeline runs: the adapter's native request and the response
 * headers a handler may add are fields, not map entries, and the `Headers` is created only when
 * something asks for it (`responseHeadersFromContext`); the signal is the request's, read on
 * first use.
 */
class RequestContext extends Context {
  readonly #req: PipelineRequest;
  #native: unknown;
  #headers: Headers | undefined;
  constructor(req: PipelineRequest) {
    super(NEVER_ABORTED);
    this.#req = req;
    this.#native = req.native;
  }
  override get signal(): AbortSignal {
    return this.#req.signal;
  }
  override get<V>(key: ContextKey<V>): V | undefined {
    if (key === (responseHeadersKey as ContextKey<unknown>)) return (this.#headers ??= new Headers()) as V;
    if (key === (nativeRequestKey as ContextKey<unknown>)) return this.#native as V;
    if (key === (requestKey as ContextKey<unknown>)) return this.#req as V;
    return super.get(key);
  }
  override set<V>(key: ContextKey<V>, value: V): void {
    if (key === (responseHeadersKey as ContextKey<unknown>)) this.#headers = value as Headers;
    else if (key === (nativeRequestKey as ContextKey<unknown>)) this.#native = value;
    else super.set(key, value);
  }
  /** The response headers a handler added, `undefined` when none asked for them. */
  responseHeaders(): Headers | undefined {
    return this.#headers;
  }
}


const JSON_TYPE = 'application/json';
const encoder = new TextEncoder();

/** A JSON error response `{ "error": message }` for the adapter's own cases (404, 405). */
export function errorEnvelopeResponse(status: number, message: string, headers: readonly (readonly [string, string])[] = []): PipelineResponse {
  return { status, headers: [['content-type', JSON_TYPE], ...headers], body: encoder.encode(JSON.stringify({ error: message })) };
}

/** The status the pipeline gives its own errors when no rule maps them. */
export function builtinStatus(err: unknown): number {
  // RFC 4918 §11.5: a full device is 507 Insufficient Storage; any other storage failure is the server's own.
  if (err instanceof FileStoreError) return err.insufficientStorage ? 507 : 500;
  if (err instanceof RequestRefusedError) return err.status;
  return pipelineError(err)?.status ?? 500;
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


/** Builds the adapter's 404 and 405 answers from the builder's default options (`withDefaultOptions`). Never throws. */
export function prepareFallback(options: Options, cors?: CorsPolicy, rules: readonly ErrorRule[] = []): FallbackResponses {
  const errorHandler = options.errorHandler ?? defaultErrorHandler;
  const observer = options.observer;
  const mediaType = options.errorMediaType ?? JSON_TYPE;
  const answer = (req: FallbackRequest, err: Error, builtin: number, extra: readonly (readonly [string, string])[]): PipelineResponse => {
    const started = observer?.onResponse === undefined ? 0 : performance.now();
    const ctx = new Context(NEVER_ABORTED);
    ctx.set(nativeRequestKey, req.native);
    // The builder's error rules (rest.withErrors) answer the adapter's own refusals too.
    const m = matchErrorRule(rules, err);
    const status = m?.rule.status ?? builtin;
    const res = m !== undefined && m.rule instanceof ErrorPattern && m.rule.action === 'respond' ? typedErrorResponse(m.rule, m.value, m.rule.body === options.errorBody ? mediaType : JSON_TYPE) : errorResponse(errorHandler, ctx, err, status, mediaType);
    const out = { ...res, headers: [...res.headers, ...extra, ...(cors?.responseHeaders(req.header?.('origin'), []) ?? [])] };
    safeObserve(() => observer?.onResponse?.({ route: `${req.method} ${req.path}`, status: out.status, durationMs: performance.now() - started, error: err }));
    return out;
  };
  const fallback: FallbackResponses = {
    notFound: (req) => answer(req, new NoRouteError(req.path), 404, []),
    methodNotAllowed: (req, allow) => answer(req, new MethodNotAllowedError(req.method, allow), 405, [['allow', allow.join(', ')]]),
    refused: (req, message, status) => answer(req, new RequestRefusedError(message, status), status, []),
    preflight: (req, allow) => {
      const headers = cors?.preflight((name) => req.header?.(name), allow);
      return headers === undefined ? undefined : { status: 204, headers, body: undefined };
    },
    unrouted: (req, methods) => {
      const allow = [...new Set(methods)];
      if (allow.length === 0) return fallback.notFound(req);
      if (allow.includes('GET') && !allow.includes('HEAD')) allow.push('HEAD');
      allow.sort();
      return (req.method === 'OPTIONS' ? fallback.preflight(req, allow) : undefined) ?? fallback.methodNotAllowed(req, allow);
    },
  };
  return fallback;
}

/**
 * The body an `errorHandler` gives for `err` at `status`, as a response. Total: a handler that
 * throws or returns a body `JSON.stringify` refuses gives the default 500 envelope; a status it
 * returns is used only when it is an integer from 400 to 599.
 */
function errorResponse(errorHandler: ErrorHandler, ctx: Context, err: unknown, status: number, mediaType: string): PipelineResponse {
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
  // An errorHandler may choose another error status (400–599); anything else keeps the computed one.
  const final = isErrorStatus(envelope.status) ? envelope.status : status;
  // RFC 9110 §15.5.2: a 401 carries the challenges of the route's schemes.
  if (final === 401 && err instanceof UnauthorizedError && err.challenges.length > 0) headers.push(['www-authenticate', err.challenges.join(', ')]);
  return { status: final, headers, body: text };
}

/** The JSON body of an `ErrorRespond` pattern; the default 500 envelope when its `mapFn` or codec fails. */
function typedErrorResponse(rule: ErrorPattern<unknown, unknown>, value: unknown, mediaType: string): PipelineResponse {
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

/** The default `errorHandler`: `{ error: message }` for 4xx, `{ error: reason phrase }` for 5xx (never the error's own text). */
export const defaultErrorHandler: ErrorHandler = (_ctx, err, status) => ({
  body: { error: status >= 500 ? reasonPhrase(status).toLowerCase() : messageOf(err) },
});

function safeObserve(fn: () => void): void {
  try {
    fn();
  } catch {
    // An observer never breaks a request.
  }
}

/**
 * Reports one validation record per issue of a body that failed to decode: `name` is the
 * issue's path (`email`, `items[0].name`), or `body` for the body as a whole (malformed JSON).
 */
function observeBodyIssues(observer: Observer, route: string, err: unknown): void {
  const issues = err instanceof DecodeError ? err.issues : [];
  if (issues.length === 0) safeObserve(() => observer.onValidationError?.({ route, location: 'body', name: 'body', error: err }));
  for (const issue of issues) {
    const name = formatPath(issue.path);
    safeObserve(() => observer.onValidationError?.({ route, location: 'body', name: name === '' ? 'body' : name, error: err }));
  }
}

/** Whether `Error.stackTraceLimit` can be set here (it cannot where intrinsics are frozen). */
const STACK_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/**
 * `f.unmarshal(bytes)` with stack traces off (`Error.stackTraceLimit = 0`). The errors a bad
 * request body causes (the codec's `DecodeError`, the `RequestBodyError` wrapping it) describe
 * the client's input, not a place in the server's code, and capturing their frames was the
 * largest cost of answering such a request with 400. A failure that is not a `DecodeError` (a
 * bug in a custom codec) must keep its frames: the body is then decoded again with stack traces
 * on and that error is thrown. Decoding is deterministic for the same bytes (the codec itself
 * decodes invalid input twice: compiled, then interpreted for the issues).
 */
function unmarshalWithoutStacks(f: Format<unknown>, bytes: Uint8Array): unknown {
  if (!STACK_LIMIT_WRITABLE) return f.unmarshal(bytes);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f.unmarshal(bytes);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return f.unmarshal(bytes);
}

/** An error made without stack frames: one that describes the client's input, not a place in the server's code. */
function withoutStacks<E>(make: () => E): E {
  if (!STACK_LIMIT_WRITABLE) return make();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The 400 error of a body that did not decode; a `DecodeError`'s wrapper without stack frames, as the `DecodeError` itself. */
function bodyError(err: unknown): RequestBodyError {
  return err instanceof DecodeError ? withoutStacks(() => new RequestBodyError(err)) : new RequestBodyError(err);
}

/** The one error of a request's validation failures, without stack frames, like its members. */
function validationError(failures: readonly Error[]): RequestValidationError {
  return withoutStacks(() => new RequestValidationError(failures));
}

/** A body the format or codec refused: the error, kept for the 400 that names every failure. */
class BodyRefused {
  constructor(readonly error: RequestBodyError) {}
}

/** A body a streamed format read: its value, or the refusal kept for the 400 that names every failure. */
type StreamedBody = { readonly value: unknown } | { readonly error: unknown };

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/**
 * A request body the handler reads as it arrives (a `codec.stream` body): an item that fails to
 * decode is the client's fault, so the iteration throws a `RequestBodyError` (400) rather than
 * the bare `DecodeError` a handler could rethrow as a 500; a body past the limit stays a
 * `BodyTooLargeError` (413).
 */
async function* requestItems(items: AsyncIterable<unknown>): AsyncGenerator<unknown, void, undefined> {
  try {
    yield* items;
  } catch (err) {
    if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
    throw err instanceof DecodeError ? new RequestBodyError(err) : err;
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

/** What the pipeline needs to send one success response of a route: its status, headers and cookies, and formats. */
interface SuccessPlan {
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

function mergeParamsOf(params: readonly AnyParam[]): readonly ResponseMergeParam<unknown, unknown>[] {
  return params.filter((p) => p instanceof ResponseMergeParam) as unknown as readonly ResponseMergeParam<unknown, unknown>[];
}

/** The plain response parameters of one kind: declared, but set by the handler, not merged from the value. */
function plainParamsOf(params: readonly AnyParam[], kind: 'responseHeader' | 'responseCookie'): readonly AnyParam[] {
  return params.filter((p) => p.kind === kind && !(p instanceof ResponseMergeParam));
}

/**
 * Checks the plain response headers and cookies the handler set (through the context's
 * `Headers`) against the plan: present when required, accepted by their codecs.
 * @throws {ResponseContractError}
 */
function checkPlainParams(plan: SuccessPlan, ctxHeaders: Headers | undefined): void {
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

/** The headers a 304 keeps of the response it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS: ReadonlySet<string> = new Set(['etag', 'last-modified', 'cache-control', 'expires', 'content-location', 'vary', 'date']);

/** The `ETag` and `Last-Modified` of a response's header lines. */
function validatorsOf(headers: readonly (readonly [string, string])[]): Validators {
  let etag: string | undefined;
  let lastModified: Date | undefined;
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    if (name === 'etag') etag = v;
    else if (name === 'last-modified') {
      const t = Date.parse(v);
      if (!Number.isNaN(t)) lastModified = new Date(t);
    }
  }
  return { etag, lastModified };
}

/**
 * A 304 Not Modified for a response with `headers` (RFC 9110 §15.4.5): no body, and only the
 * headers a cache needs. A streamed body already started is ended.
 */
async function notModifiedResponse(headers: readonly (readonly [string, string])[], body: ResponseBody): Promise<PipelineResponse> {
  if (typeof body === 'object' && !(body instanceof Uint8Array)) {
    try {
      await body[Symbol.asyncIterator]().return?.();
    } catch {
      // The producer's cleanup failed: nothing is left to tell.
    }
  }
  return { status: 304, headers: headers.filter(([k]) => NOT_MODIFIED_HEADERS.has(k.toLowerCase())), body: undefined };
}

/** The `respond` every handler receives: the compiler checks its status against the route's. */
const respondWith = ((status: number, value?: unknown) => new Answer(status, value)) as Responder<DeclaredSuccess>;

/**
 * True unless `NODE_ENV` is `production`: the default of `validateResponses`, so that a response
 * body that breaks a documented constraint is a 500 during development and tests, and costs
 * nothing in production. Runtimes without `process.env` count as development.
 */
function developmentMode(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV !== 'production';
}

/** Request parameters in the order the server checks them: query, cookie, header, path. */
const PARAM_ORDER = { query: 0, cookie: 1, header: 2, path: 3 } as const;

/**
 * Prepares a registered route for serving. What its declaration must get right — a handler,
 * registered security schemes and a `securityFunc` for them, a server function for every
 * middleware — is resolved now, so that a wrong declaration fails `api.serve()`; the pipeline
 * itself is compiled at the route's first request ({@link compilePipeline}), so that a server
 * of many routes is ready without compiling those nobody calls yet.
 * @throws {RouteDeclarationError} as {@link prepareSecurity} and {@link prepareMiddleware}.
 */
export function prepareRoute(handle: RouteHandle<unknown, unknown>, settings: ServingSettings = NO_SETTINGS): PreparedRoute {
  const route: Route<unknown, unknown> = handle.route;
  if (route.handler === undefined) throw new Error(`${route.id} has no handler`);
  const options = handle.options;
  const middleware = prepareMiddleware(handle, options.observer);
  // Credentials (401) are checked before the body is read; routes without requirements skip it.
  const security = prepareSecurity(route.id, route.meta.security ?? handle.server?.globalSecurity() ?? [], handle.server?.securitySchemes() ?? new Map(), options.securityFunc);
  let run: ((req: PipelineRequest) => Promise<PipelineResponse>) | undefined;
  return { method: route.method, path: settings.basePath + route.path, handle, run: (req) => (run ??= compilePipeline(handle, middleware, security, settings))(req) };
}

/** What the builder serving a route says about where it is served. */
export interface ServingSettings {
  /** The prefix every route is served under (`rest.withBasePath`): `/api`, or `''`. */
  readonly basePath: string;
}
const NO_SETTINGS: ServingSettings = { basePath: '' };

/**
 * Compiles a prepared route into its serving pipeline: 406 (Accept) →
 * 415 (Content-Type) → 401 (credentials) → 413 (body limit) → 400 for query, cookie, header and path parameters →
 * 400 for the body → merge → middleware (the builder's, then the route's: 400 for their input,
 * 500 for their output) → handler → response headers, cookies and body (500 on a contract
 * violation); the header lines of every middleware that ran go out with whatever answer is sent.
 * Errors at any step go through the route's error rules first.
 */
function compilePipeline(handle: RouteHandle<unknown, unknown>, middleware: PreparedMiddleware | undefined, security: PreparedSecurity | undefined, settings: ServingSettings): (req: PipelineRequest) => Promise<PipelineResponse> {
  const { basePath } = settings;
  const route: Route<unknown, unknown> = handle.route;
  const handler = route.handler;
  const options = handle.options;
  const errorHandler = options.errorHandler ?? defaultErrorHandler;
  const errorMediaType = options.errorMediaType ?? JSON_TYPE;
  const disregardAccept = options.disregardAccept === true;
  const observer: Observer | undefined = options.observer;
  const validateResponses = options.validateResponses ?? developmentMode();
  const cors = handle.server?.cors;
  // Scripts of allowed origins may read the headers the route declares (CORS Expose-Headers).
  const exposed = [...route.params.filter((p) => p.kind === 'responseHeader').map((p) => p.name), ...(middleware?.exposed ?? [])];
  const hasBody = BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty';
  const respEmpty = route.respCodec.kind === 'empty';
  const successStatus = wireStatus(route.meta.respStatus ?? defaultStatus(route.method));

  const reqFormats = new Map<string, Format<unknown>>();
  for (const f of handle.requestFormats) reqFormats.set(mediaTypeOf(f.contentType), f);
  const supportedReq = [...reqFormats.keys()];
  // The body limit of each request format, by the one rule the document's 413 states too
  // (handle.bodyLimit): the route's own, else what its format states, else the builder's, else 1 MiB.
  const bodyLimits = new Map<Format<unknown>, number>();
  for (const f of reqFormats.values()) bodyLimits.set(f, handle.bodyLimit(f));
  // Where a derived limit comes from, in the words it was written in (for the 413), once per format.
  const bodyLimitsFrom = new Map<Format<unknown>, string>();
  for (const f of reqFormats.values()) {
    const from = handle.bodyLimitFrom(f);
    if (from !== undefined) bodyLimitsFrom.set(f, from);
  }
  const respFormats = handle.responseFormats;
  const respTypes = respFormats.map((f) => mediaTypeOf(f.contentType));
  const defaultRespFormat = respFormats[0] as Format<unknown>;
  // An Accept that names one media type exactly (what clients usually send) needs no q-value parsing.
  const exactAccept = new Map<string, Format<unknown>>(respFormats.map((f, i) => [respTypes[i] as string, f]));

  const params: readonly RequestParamSpec[] = [...handle.requestParams].sort((a, b) => PARAM_ORDER[a.kind] - PARAM_ORDER[b.kind]);
  const needsQuery = params.some((p) => p.kind === 'query');
  const multiValueQuery = options.multiValueQueryParams === true;
  const needsCookies = params.some((p) => p.kind === 'cookie');
  const hasMergeFields = params.some((p) => p.merge !== undefined);
  // Header names are looked up lower-case; computed once here, not per request.
  const lookupNames = params.map((p) => (p.kind === 'header' ? p.name.toLowerCase() : p.name));
  // Array-valued query parameters receive every value of their key (OpenAPI style: form, explode: true).
  const multi = params.map((p) => p.kind === 'query' && isMultiValue(p.codec));
  const mergeResponseParams = mergeParamsOf(route.params);
  // The main success response, then each other declared success, by status.
  const main: SuccessPlan = {
    status: successStatus,
    empty: respEmpty,
    plainHeaders: plainParamsOf(route.params, 'responseHeader'),
    plainCookies: plainParamsOf(route.params, 'responseCookie'),
    mergeParams: mergeResponseParams,
    formats: undefined,
    takesNothing: takesNothing(route.respCodec),
  };
  const plans = new Map<number, SuccessPlan>([[successStatus, main]]);
  for (const sr of route.successes) {
    const own = sr.params;
    const formats = handle.successFormats(sr);
    plans.set(sr.status, {
      status: sr.status,
      empty: sr.codec.kind === 'empty',
      plainHeaders: own === undefined ? main.plainHeaders : plainParamsOf(own, 'responseHeader'),
      plainCookies: own === undefined ? main.plainCookies : plainParamsOf(own, 'responseCookie'),
      mergeParams: own === undefined ? mergeResponseParams : mergeParamsOf(own),
      formats,
      takesNothing: takesNothing(sr.codec),
    });
  }
  // A GET or HEAD route that declares an ETag or Last-Modified answers a matching conditional request with 304.
  const conditional = isConditional(route);
  const patternFormats = new Map<ErrorPattern<unknown, unknown>, Format<unknown>>();
  // A pattern whose body is the API's error body (options.errorBody) goes out as its media type
  // (application/problem+json with problem details); any other typed body as JSON.
  for (const r of handle.errorRules) if (r instanceof ErrorPattern) patternFormats.set(r, r.body === options.errorBody && errorMediaType !== JSON_TYPE ? json(r.body).withContentType(errorMediaType) : json(r.body));
  // Typed error bodies are written in the negotiated format when it can carry another codec
  // (json, yaml, toml, cbor), else in JSON: one format per (pattern, response format), built once.
  const negotiatedPatternFormats = new Map<ErrorPattern<unknown, unknown>, Map<Format<unknown>, Format<unknown>>>();
  for (const [r, jsonFormat] of patternFormats) {
    const byFormat = new Map<Format<unknown>, Format<unknown>>();
    for (const f of respFormats) byFormat.set(f, f.withCodec === undefined || mediaTypeOf(f.contentType) === JSON_TYPE ? jsonFormat : f.withCodec(r.body));
    negotiatedPatternFormats.set(r, byFormat);
  }
  // RFC 9110 §12.5.5: a response chosen by Accept says so, for caches. A route without a
  // response body negotiates nothing: its typed error bodies are JSON.
  const varyAccept = !respEmpty && respFormats.length > 1;

  function negotiate(accept: string | undefined): Format<unknown> {
    if (respEmpty || accept === undefined || accept === '' || accept === '*/*' || respFormats.length === 0) return defaultRespFormat;
    const exact = exactAccept.get(accept.toLowerCase());
    if (exact !== undefined) return exact;
    const type = new Negotiator({ headers: { accept } }).mediaType(respTypes);
    if (type === undefined) {
      // RFC 9110 §12.5.1: the server may disregard an Accept it cannot satisfy.
      if (disregardAccept) return defaultRespFormat;
      throw new NotAcceptableError(accept, respTypes);
    }
    return respFormats[respTypes.indexOf(type)] as Format<unknown>;
  }

  /**
   * Encodes the response merge fields of `value` into header lines. For a success response a
   * required field that is absent is a contract violation; for an error payload (error mapping
   * rule 5, `lenient`) a field the payload lacks, or whose getter throws on it, is left out.
   * @throws {ResponseContractError} a value that fails its codec or is not a valid field value.
   */
  function encodeMergeParams(params: readonly ResponseMergeParam<unknown, unknown>[], value: unknown, headers: [string, string][], lenient: boolean): void {
    if (params.length === 0) return;
    try {
      headers.push(...encodeResponseFields(params, value, lenient));
    } catch (err) {
      throw new ResponseContractError(err);
    }
  }

  /**
   * The response for an error: the first matching `ErrorRespond` pattern writes its typed body;
   * anything else goes through the `errorHandler` with the rule's (or the built-in) status. Total:
   * a failing `mapFn`, pattern codec or `errorHandler` falls back to the default 500 envelope.
   */
  function respond(ctx: Context, err: unknown, negotiated: Format<unknown> | undefined, retry = true, out?: { matched: boolean }): PipelineResponse {
    try {
      const m = handle.matchRule(err);
      if (out !== undefined) out.matched = m !== undefined;
      const status = m?.rule.status ?? builtinStatus(err);
      if (observer !== undefined) {
        safeObserve(() => observer.onErrorPattern?.({ route: route.id, matched: m !== undefined, status, error: err }));
        if (m !== undefined && m.rule instanceof ErrorPattern && m.rule.action === 'log') {
          safeObserve(() => observer.onErrorLog?.({ route: route.id, status, error: err, value: m.value }));
        }
        safeObserve(() => observer.onSpanTags?.({ route: route.id, tags: spanTags(route.path, status, err, m?.rule) }));
      }
      if (m === undefined || !(m.rule instanceof ErrorPattern)) return errorResponse(errorHandler, ctx, err, status, errorMediaType);
      // Error mapping rule 5: the route's response merge fields read the mapped payload, as they
      // read a success response; a field the payload lacks is left out.
      const headers: [string, string][] = [];
      encodeMergeParams(mergeResponseParams, m.value, headers, true);
      if (m.rule.action !== 'respond') {
        const res = errorResponse(errorHandler, ctx, err, status, errorMediaType);
        return { ...res, headers: [...res.headers, ...headers] };
      }
      const jsonFormat = patternFormats.get(m.rule) as Format<unknown>;
      let f = (negotiated === undefined ? undefined : negotiatedPatternFormats.get(m.rule)?.get(negotiated)) ?? jsonFormat;
      let body: Uint8Array;
      try {
        body = f.marshal(m.value);
      } catch (err) {
        // A value the negotiated syntax cannot carry (TOML has no null) goes out as JSON.
        if (f === jsonFormat) throw err;
        f = jsonFormat;
        body = f.marshal(m.value);
      }
      return { status: m.rule.status, headers: [['content-type', f.contentType], ...headers], body };
    } catch (failed) {
      // A mapFn that threw, or a pattern body its codec refuses: the server's own contract is broken.
      if (out !== undefined) out.matched = false;
      return retry ? respond(ctx, new ResponseContractError(failed), negotiated, false) : internalError();
    }
  }

  // The stages of a request, in the order the server documents them. Each is a named step; a
  // request runs them top to bottom in `runRoute`, and every error on the way goes to `respond`.

  /** 415: the request format its `Content-Type` names, for a route with a request body. */
  function requestFormat(ct: string): Format<unknown> | undefined {
    if (!hasBody) return undefined;
    const f = reqFormats.get(mediaTypeOf(ct));
    if (f === undefined) throw new UnsupportedMediaTypeError(ct, supportedReq);
    return f;
  }

  /**
   * 413: the body, read up to its limit. A streamed format (multipart) reads it as it arrives and
   * gives its value, or the refusal of a body it could not decode, kept for the 400 that names
   * every failure; the other formats get the bytes, decoded by {@link decodeBody}.
   */
  function readBody(req: PipelineRequest, f: Format<unknown>, ct: string): Promise<Uint8Array | StreamedBody> {
    const limit = bodyLimits.get(f) as number;
    const from = bodyLimitsFrom.get(f);
    if (from === undefined) return f.unmarshalStream === undefined ? req.readBody(limit) : readStreamed(req, f, ct, limit);
    // A total derived from the parts' limits: the 413 names them as they were written.
    return (async () => {
      try {
        return await (f.unmarshalStream === undefined ? req.readBody(limit) : readStreamed(req, f, ct, limit));
      } catch (err) {
        if (err instanceof BodyTooLargeError && err.limit === limit) throw new BodyTooLargeError(limit, `${err.message}: ${from}`);
        throw err;
      }
    })();
  }

  async function readStreamed(req: PipelineRequest, f: Format<unknown>, ct: string, limit: number): Promise<StreamedBody> {
    try {
      const v = await (f.unmarshalStream as NonNullable<Format<unknown>['unmarshalStream']>)(req.bodyStream(limit), { contentType: ct, signal: req.signal, ...(req.files !== undefined && { files: req.files }) });
      return { value: isAsyncIterable(v) ? requestItems(v) : v };
    } catch (err) {
      if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
      // Only a body the format or codec refuses is the client's fault (400, reported with the
      // parameters' issues); a body limit is 413, and anything else — storage that failed, a
      // constraint that throws, the connection lost mid-body — is not a 400.
      if (!(err instanceof DecodeError)) throw err;
      return { error: err };
    }
  }

  /**
   * 400, parameters: every query, header, cookie and path parameter decoded by its codec into
   * `decoded`; the failures, each reported, or `undefined` when none. A constraint that throws is
   * a server bug (500).
   */
  function decodeParams(req: PipelineRequest, decoded: unknown[]): Error[] | undefined {
    if (params.length === 0) return undefined;
    let invalid: Error[] | undefined;
    const query = needsQuery ? new URLSearchParams(req.rawQuery) : undefined;
    const cookieHeader = needsCookies ? req.header('cookie') : undefined;
    const cookies = cookieHeader === undefined ? undefined : parseCookie(cookieHeader);
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as RequestParamSpec;
      const name = lookupNames[i] as string;
      const raw =
        p.kind === 'query' ? (multi[i] === true ? query?.getAll(name) : (query?.get(name) ?? undefined))
        : p.kind === 'header' ? req.header(name)
        : p.kind === 'cookie' ? cookies?.[name]
        : req.pathParams[name];
      try {
        decoded[i] = decodeParam(p, raw);
        // With multiValueQueryParams every value of a repeated scalar key is validated; the first is merged.
        if (multiValueQuery && p.kind === 'query' && multi[i] !== true && query !== undefined) for (const extra of query.getAll(p.name).slice(1)) decodeParam(p, extra);
      } catch (err) {
        if (!(err instanceof ParamError)) throw err;
        if (observer !== undefined) safeObserve(() => observer.onValidationError?.({ route: route.id, location: p.kind, name: p.name, error: err }));
        (invalid ??= []).push(err);
      }
    }
    return invalid;
  }

  /** 400, body: the request value its format decodes (a fresh empty request without a body), or the {@link BodyRefused} of a body the format or codec refuses. */
  function decodeBody(f: Format<unknown> | undefined, body: Uint8Array | StreamedBody | undefined): unknown {
    if (f === undefined || body === undefined) return route.reqCodec.decode(undefined);
    try {
      if (body instanceof Uint8Array) return unmarshalWithoutStacks(f, body);
      if ('error' in body) throw body.error;
      return body.value;
    } catch (err) {
      if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
      // A constraint that throws is a server bug (500), not the client's input.
      if (!(err instanceof DecodeError)) throw err;
      if (observer !== undefined) observeBodyIssues(observer, route.id, err);
      return new BodyRefused(bodyError(err));
    }
  }

  /** The merge fields: each decoded parameter written into the request value. */
  function mergeParams(value: unknown, decoded: readonly unknown[]): unknown {
    // An absent optional body still receives the merge fields.
    const req = value === undefined && hasMergeFields ? {} : value;
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as RequestParamSpec;
      const v = decoded[i];
      if (p.merge !== undefined && v !== undefined) p.merge.set(req, v);
    }
    return req;
  }

  /**
   * The handler's answer as a response: the declared success it names (the main one, or another
   * by `respond(status, value)`), its merge fields and the plain headers checked, the body encoded
   * in the negotiated format (checked against the codec when `validateResponses`), and a 304 when
   * a conditional GET or HEAD still matches. A broken contract throws `ResponseContractError`.
   */
  function encodeAnswer(ctx: RequestContext, req: PipelineRequest, answer: unknown, respFormat: Format<unknown>): PipelineResponse | Promise<PipelineResponse> {
    let out = answer;
    // Another declared success (`respond(201, value)`), or the main one.
    let plan = main;
    if (out instanceof Answer) {
      const declared = plans.get(out.status);
      if (declared === undefined) throw new ResponseContractError(new Error(`status ${String(out.status)} is not a success response of ${route.id}`));
      plan = declared;
      out = out.value;
    }
    // No value: 503 where the response's type admits none, else the handler broke its contract (500).
    if (out === undefined && !plan.empty) throw plan.takesNothing ? new PipelineNoResponseError() : new ResponseContractError(new Error('the handler returned no value, and the response codec requires one'));

    const headers: [string, string][] = [];
    encodeMergeParams(plan.mergeParams, out, headers, false);
    checkPlainParams(plan, ctx.responseHeaders());
    if (plan.empty) return finish(ctx, req, plan.status, headers, undefined, undefined);
    // The main response's format, or the same media type for another success's codec.
    const f = plan.formats === undefined ? respFormat : (plan.formats.find((x) => x.contentType === respFormat.contentType) ?? (plan.formats[0] as Format<unknown>));
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
    if (typeof body === 'object' && !(body instanceof Uint8Array)) return primed(body).then((b) => finish(ctx, req, plan.status, headers, b, f));
    return finish(ctx, req, plan.status, headers, body, f);
  }

  /**
   * The success response: the body's `Content-Type` and the format's headers, then those the
   * handler set. RFC 9110 §13.2: a conditional GET or HEAD whose validator still matches gets
   * 304, no body.
   */
  function finish(ctx: RequestContext, req: PipelineRequest, status: number, headers: [string, string][], body: ResponseBody, f: Format<unknown> | undefined): PipelineResponse | Promise<PipelineResponse> {
    if (f !== undefined) {
      headers.push(['content-type', f.contentType]);
      if (f.responseHeaders !== undefined) headers.push(...(f.responseHeaders as [string, string][]));
    }
    ctx.responseHeaders()?.forEach((v, k) => headers.push([k, v]));
    if (conditional && isUnchanged(route.method, (name) => req.header(name), validatorsOf(headers), true)) return notModifiedResponse(headers, body);
    return { status, headers, body };
  }

  /**
   * What the handler threw, or a step refused: a redirect or a 304 it asked for, else the error
   * through the route's rules ({@link respond}).
   */
  function answerThrown(ctx: RequestContext, err: unknown, negotiated: Format<unknown> | undefined): PipelineResponse | Promise<PipelineResponse> {
    if (err instanceof Redirect) {
      // A handler's rest.redirect(...), returned or thrown: not an error.
      // A route's path is relative to the API's root: the builder's base path goes in front.
      const sameOrigin = err.location.startsWith('/') && !err.location.startsWith('//');
      const headers: [string, string][] = [['location', sameOrigin ? basePath + err.location : err.location]];
      ctx.responseHeaders()?.forEach((v, k) => headers.push([k, v]));
      return { status: err.status, headers, body: undefined };
    }
    if (err instanceof NotModified) {
      // A handler's or checkPreconditions' 304: the validators it names, and the cache headers the handler set.
      const headers: [string, string][] = [];
      if (err.etag !== undefined) headers.push(['etag', err.etag]);
      if (err.lastModified !== undefined) headers.push(['last-modified', err.lastModified.toUTCString()]);
      ctx.responseHeaders()?.forEach((v, k) => headers.push([k, v]));
      return notModifiedResponse(headers, undefined);
    }
    const rule = { matched: false };
    const res = respond(ctx, err, negotiated, true, rule);
    // Headers and cookies the handler set go with an answer the route declares for its error
    // (a rule matched it); a response the handler did not produce — an unexpected error's 500,
    // a broken contract — carries none of them.
    if (rule.matched) ctx.responseHeaders()?.forEach((v, k) => (res.headers as [string, string][]).push([k, v]));
    return res;
  }

  /** The headers every answer of the route carries: the middleware's, `Vary: Accept`, CORS. */
  function addRouteHeaders(req: PipelineRequest, res: PipelineResponse, mwHeaders: readonly [string, string][] | undefined): void {
    const headers = res.headers as [string, string][];
    if (mwHeaders !== undefined && mwHeaders.length > 0) headers.push(...mwHeaders);
    if (varyAccept) headers.push(['vary', 'Accept']);
    if (cors !== undefined) headers.push(...cors.responseHeaders(req.header('origin'), exposed));
  }

  async function runRoute(req: PipelineRequest, outcome?: { failure?: unknown }): Promise<PipelineResponse> {
    const started = observer?.onResponse === undefined ? 0 : performance.now();
    const ctx = new RequestContext(req);
    // The response header lines of the middleware that ran, sent with any answer.
    const mwHeaders: [string, string][] | undefined = middleware === undefined ? undefined : [];
    let res: PipelineResponse;
    let failure: unknown;
    let negotiated: Format<unknown> | undefined;
    try {
      const respFormat = negotiate(req.header('accept')); // 406
      if (!respEmpty) negotiated = respFormat;
      const ct = hasBody ? (req.header('content-type') ?? '') : '';
      const reqFormat = requestFormat(ct); // 415
      if (security !== undefined) await security.check(ctx, req); // 401
      const body = reqFormat === undefined ? undefined : await readBody(req, reqFormat, ct); // 413
      // Every parameter and the body are checked, each failure reported; one 400 names them all.
      const decoded: unknown[] = new Array<unknown>(params.length);
      let invalid = decodeParams(req, decoded);
      const value = decodeBody(reqFormat, body);
      if (value instanceof BodyRefused) (invalid ??= []).push(value.error);
      // One class for every validation failure, one or several: a rule on RequestValidationError
      // answers them all; a rule on a member's class (QueryParamError…) still matches through it.
      if (invalid !== undefined) throw validationError(invalid);
      const request = mergeParams(value, decoded);
      if (middleware !== undefined) await middleware.run(ctx, req, request, mwHeaders as [string, string][]);
      let out = (handler as (ctx: Context, req: unknown, respond: typeof respondWith) => unknown)(ctx, request, respondWith);
      // A synchronous handler's value is used as it is: no extra turn of the event loop.
      if (isThenable(out)) out = await out;
      if (out instanceof Redirect || out instanceof NotModified) throw out;
      const encoded = encodeAnswer(ctx, req, out, respFormat);
      res = isThenable(encoded) ? await encoded : encoded;
    } catch (err) {
      if (!(err instanceof Redirect) && !(err instanceof NotModified)) failure = err;
      const answered = answerThrown(ctx, err, negotiated);
      res = isThenable(answered) ? await answered : answered;
    }
    addRouteHeaders(req, res, mwHeaders);
    if (observer?.onResponse !== undefined) {
      const status = res.status;
      safeObserve(() => observer.onResponse?.({ route: route.id, status, durationMs: performance.now() - started, ...(failure !== undefined && { error: failure }) }));
    }
    if (outcome !== undefined) outcome.failure = failure;
    return res;
  }

  const trace = observer?.trace;
  return trace === undefined
    ? runRoute
    : (req: PipelineRequest): Promise<PipelineResponse> => {
        const outcome: { failure?: unknown } = {};
        const start: TraceStart = { kind: 'server', route: route.id, method: route.method, path: route.path, header: (name) => req.header(name.toLowerCase()), setHeader: () => undefined };
        return traced(
          observer,
          start,
          () => runRoute(req, outcome),
          (res) => ({ status: res.status, ...(outcome.failure !== undefined && { error: outcome.failure }) }),
          (err) => ({ status: 500, error: err }),
        );
      };
}
