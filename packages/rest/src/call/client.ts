import { DecodeError, formatPath, type Issue } from '@lib/codec';
import { collectBytes, mediaTypeOf, type Format, type SSEFormat } from '@lib/format';
import { wireStatus, type DeclaredError, type ErrorRule } from '../declare/error-rules.js';
import {
  ClientTransportAlreadyAttachedError,
  ClientTransportNotAttachedError,
  CookieParamError,
  HeaderParamError,
  MissingPathVarError,
  ParamError,
  RequestValidationError,
  TransportTypeMismatchError,
} from '../declare/errors.js';
import { ErrorPatternResponse, RequestBuildError, RequestError, ResponseBodyError, UnexpectedStatusError } from '../declare/http-errors.js';
import type { EventStream, SSERequest } from '../declare/sse.js';
import type { ClientMiddlewareInput } from '../declare/middleware.js';
import { traced, type Observer, type TraceStart, type ValidationLocation } from '../declare/options.js';
import { NotModified } from '../declare/not-modified.js';
import type { DeclaredSuccess } from '../declare/success.js';
import type { AnyErrorRule } from '../declare/route-object.js';
import type { DeclaredErrors } from '../declare/route.js';
import { ResponseMergeParam, type AnyParam, type ParamLocation } from '../declare/params.js';
import { BODY_METHODS, decodeErrorWith, defaultStatus, Route } from '../declare/route.js';
import { checkParamValues, encodeParam, PARAM_ERRORS, type RequestParamSpec } from '../declare/param-values.js';
import type { RouteHandle } from '../declare/route.js';
import { checkCoverage } from '../declare/coverage.js';
import { isFieldValue, isToken } from '../declare/http-grammar.js';
import { cookieHeader, setCookiePair } from './cookie-pairs.js';
import type { ClientReply, ClientStreamReply, ClientTransport } from './client-transport.js';

/** Options of one call (`client.call(route, req, options)`, {@link callWithTransport}). */
export interface ClientCallOptions {
  /**
   * Explicit query entries by name. They win over the request's values for a declared
   * parameter (and are checked by its codec and refused empty when it is required, as those
   * are) and may add undeclared ones. An array sends one `key=value` pair per element, in order
   * (`{ tag: ['a', 'b'] }` → `?tag=a&tag=b`); an empty array sends nothing.
   */
  readonly queryParams?: Readonly<Record<string, string | readonly string[]>>;
  /** Explicit request headers by name, matched case-insensitively (same precedence and checks). */
  readonly headerParams?: Readonly<Record<string, string>>;
  /** Explicit cookies by name (same precedence and checks). */
  readonly cookieParams?: Readonly<Record<string, string>>;
  /** Request formats for this call only; the first is sent. */
  readonly requestFormats?: readonly Format<unknown>[];
  /** Response formats for this call only; all are offered in `Accept`. */
  readonly responseFormats?: readonly Format<unknown>[];
  /**
   * The observer of this call; it wins over the client's ({@link ClientOptions.observer}). It
   * gets `onValidationError` for every pre-flight failure and one `onResponse` per call (status
   * 0 when nothing was received). A route's own `observer` (`route.withOptions`) is the
   * server's and never sees client calls.
   */
  readonly observer?: Observer;
  /** Aborts the call (and, for an event stream, the stream). */
  readonly signal?: AbortSignal;
  /**
   * The entity tag of the representation the caller holds, sent as `If-None-Match` (RFC 9110
   * §13.1.2): the server answers 304 when it is still current, and the call resolves to a
   * `NotModified` instead of the response value.
   */
  readonly ifNoneMatch?: string;
  /** Sent as `If-Modified-Since` (RFC 9110 §13.1.3, an HTTP date): as `ifNoneMatch`, by time. */
  readonly ifModifiedSince?: Date;
  /**
   * The entity tag the caller's change is based on, sent as `If-Match` (RFC 9110 §13.1.1): the
   * server refuses the request with 412 when the resource changed since (optimistic concurrency).
   */
  readonly ifMatch?: string;
  /** Sent as `If-Unmodified-Since` (RFC 9110 §13.1.4): as `ifMatch`, by time. */
  readonly ifUnmodifiedSince?: Date;
  /**
   * For an SSE route: how many times in a row to reopen a stream whose connection broke, sending
   * the last event id seen as `Last-Event-ID` and waiting the server's last `retry` (default
   * 1000 ms) first. Default 0: a broken stream makes the iteration throw.
   */
  readonly reconnect?: number;
}

/** Options of {@link newClient}. */
export interface ClientOptions {
  /**
   * The observer of every call of this client that names none in its
   * {@link ClientCallOptions.observer}. Default: none. Route options are never consulted for
   * it: an observer set on a route with `route.withOptions({ observer })` observes the server.
   */
  readonly observer?: Observer;
  /**
   * Error rules the server applies to every route (`rest.withErrors(...)` on its builder): a
   * non-success answer that no rule of the route decodes is decoded by the first `errorPattern`
   * of its status here, and rejects as an `ErrorPatternResponse` (`safeCall`:
   * `{ ok: false, status, error }`). Give the same rules the server has: one list for both.
   */
  readonly errors?: readonly AnyErrorRule[];
}

function lookup<V>(values: Readonly<Record<string, V>> | undefined, name: string, caseInsensitive = false): V | undefined {
  if (values === undefined) return undefined;
  if (Object.prototype.hasOwnProperty.call(values, name)) return values[name];
  if (caseInsensitive) {
    const lower = name.toLowerCase();
    for (const k of Object.keys(values)) if (k.toLowerCase() === lower) return values[k];
  }
  return undefined;
}

/**
 * The wire values of one request parameter for a call: an explicit per-call entry wins (and is
 * checked by the parameter's codec), then a fixed variable of {@link Client.callEach}, else the
 * merge field's value, encoded. One `key=value` pair (one header line, one cookie) is sent per
 * value; none for an absent optional value.
 * @throws {ParamError} when a value fails its codec, a required one is missing, or one is empty
 * where it must not be.
 */
function paramValues(p: RequestParamSpec, req: unknown, explicit: Readonly<Record<string, string | readonly string[]>> | undefined, vars: Readonly<Record<string, string>> | undefined): string[] {
  const given = lookup(explicit, p.name, p.kind === 'header') ?? lookup(vars, p.name, p.kind === 'header');
  if (given !== undefined) return checkParamValues(p, typeof given === 'string' ? [given] : given);
  const v = p.merge?.get(req);
  if (v === undefined) {
    if (p.required) throw new PARAM_ERRORS[p.kind](p.name, undefined, new Error('is required'));
    return [];
  }
  return encodeParam(p, v);
}

/** Calls an observer method; an observer that throws never breaks a call. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Observers never break a call.
  }
}

/** The issues of a codec error (`DecodeError`, `EncodeError`), if `err` is one. */
function issuesOf(err: unknown): readonly Issue[] | undefined {
  const issues = err instanceof Error ? (err as { issues?: unknown }).issues : undefined;
  return Array.isArray(issues) && issues.length > 0 ? (issues as readonly Issue[]) : undefined;
}

function decodeResponseParams(resp: unknown, params: readonly AnyParam[], status: number, headers: Headers): void {
  let cookies: Map<string, string> | undefined;
  for (const p of params) {
    if (!(p instanceof ResponseMergeParam)) continue;
    const m = p as unknown as ResponseMergeParam<unknown, unknown>;
    let raw: string | undefined;
    if (m.kind === 'responseHeader') raw = headers.get(m.name) ?? undefined;
    else {
      if (cookies === undefined) {
        cookies = new Map();
        for (const line of headers.getSetCookie()) cookies.set(...setCookiePair(line));
      }
      raw = cookies.get(m.name);
    }
    if (raw === undefined) {
      if (m.required) throw new ResponseBodyError(status, `response ${m.kind === 'responseHeader' ? 'header' : 'cookie'} ${JSON.stringify(m.name)} is missing`);
      continue;
    }
    try {
      m.set(resp, m.codec.decode(raw));
    } catch (err) {
      const e = m.kind === 'responseHeader' ? new HeaderParamError(m.name, raw, err) : new CookieParamError(m.name, raw, err);
      throw new ResponseBodyError(status, 'response parameter failed to decode', e);
    }
  }
}

/**
 * Reports the end of a call: `onResponse` with the status (0 when nothing was sent), or, for a
 * call the transport sent and got no response for (`RequestError`), `onRequestError`.
 */
function observe(observer: Observer | undefined, route: string, status: number, started: number, error?: unknown): void {
  if (error instanceof RequestError) {
    if (observer?.onRequestError !== undefined) safely(() => observer.onRequestError?.({ route, durationMs: performance.now() - started, error }));
    return;
  }
  if (observer?.onResponse === undefined) return;
  safely(() => observer?.onResponse?.({ route, status, durationMs: performance.now() - started, ...(error !== undefined && { error }) }));
}

/**
 * Calls a route through a transport. Path, query, header and cookie values come from the
 * route's merge fields (explicit `options` entries win); the body is validated and marshalled
 * with the first request format. Nothing is sent unless every check passes:
 *
 * - every parameter is checked, not only up to the first failure: a value must pass its codec,
 *   a required one must be present, a path value must not be empty, and a required query,
 *   header or cookie value must not be empty either (an empty array, for a multi-valued one);
 * - the body is checked against the request format's codec.
 *
 * Each failure is reported to `options.observer` with `onValidationError` (location `path`,
 * `query`, `header`, `cookie` with the parameter's name; `body` with each issue's path, `body`
 * for the value as a whole), then `onResponse` reports status 0. One failure is thrown as
 * itself; several as a `RequestValidationError` whose `errors` hold them in order: parameters
 * in declaration order, then the body's `RequestBuildError`.
 *
 * A multi-valued query parameter (`rest.isMultiValue` of its codec: an array, or an optional
 * array) sends one `key=value` pair per element of its encoded array, and nothing for an empty
 * array.
 *
 * The route's own middleware with a client function (`route.clientMW`, `route.use` of a
 * middleware with `withSend`) run first, in order: each input must pass its declaration's
 * `inCodec.validate`, and its merge fields are then checked and sent like the route's parameters
 * (explicit entries win). A function that throws, or an invalid input, is a `RequestBuildError`;
 * nothing is sent. The builder's middleware (`api.use`) are the server's and never run here.
 *
 * Success is a 2xx, or a 3xx equal to the route's declared success status (`respStatus`, default
 * 201 for POST and 200 otherwise): a declared redirect (RFC 9110 §15.4) is the call's result,
 * never followed. The body is decoded unless the response codec is `codec.empty()`, and the
 * response headers and cookies (such as `Location`, RFC 9110 §10.2.2) are merged into it. Any
 * other status is an error: an `ErrorPatternResponse` when an `ErrorRespond` pattern of that
 * status decodes the body, else an `UnexpectedStatusError` (every undeclared 3xx included).
 * The transport must not follow redirects itself (`@lib/node-http`'s sends `redirect: 'manual'`).
 *
 * Only `options.observer` observes the call; the route's own options are not consulted for it
 * (`client.call` passes the client's default).
 * @throws {ParamError} (`PathParamError`, `QueryParamError`, `HeaderParamError`, `CookieParamError`), `MissingPathVarError`, `InvalidPathError` — pre-flight, the only failure; nothing sent.
 * @throws {RequestValidationError} pre-flight, several failures (parameters and the body); nothing sent.
 * @throws {RequestBuildError} the body is invalid (the only pre-flight failure), a middleware's client function threw or gave an invalid input, the signal was already aborted, or the transport could not build or send the request.
 * @throws {RequestError} the transport failed after sending.
 * @throws {ErrorPatternResponse} a declared error response.
 * @throws {UnexpectedStatusError} any other non-success response (an undeclared 3xx included), or an error body that does not decode.
 * @throws {ResponseBodyError} the success body or a response parameter could not be read or decoded; from `@lib/node-http` in a browser, a redirect hidden by the browser (status 0).
 */
export function callWithTransport<Req, Resp>(transport: ClientTransport, handle: RouteHandle<Req, Resp>, req: Req, options: ClientCallOptions = NO_OPTIONS): Promise<Resp> {
  return exchangeRoute(transport, handle, req, options, undefined, NO_RULES);
}

/** No shared error rules. */
const NO_RULES: readonly ErrorRule[] = Object.freeze([]);

/** Where a call that needs it (`safeCall`, a tracer) receives the success status. */
interface StatusOut {
  status: number;
}

/** No options, shared by the calls that give none. */
const NO_OPTIONS: ClientCallOptions = Object.freeze({});
/** No extra header lines, shared by the calls without a tracer. */
const NO_HEADERS: readonly (readonly [string, string])[] = Object.freeze([]);

/** The conditional request headers (RFC 9110 §13.1) of a call's validators; explicit `headerParams` win. */
function withValidators(options: ClientCallOptions): ClientCallOptions {
  const { ifNoneMatch, ifModifiedSince, ifMatch, ifUnmodifiedSince } = options;
  if (ifNoneMatch === undefined && ifModifiedSince === undefined && ifMatch === undefined && ifUnmodifiedSince === undefined) return options;
  const validators: Record<string, string> = {};
  if (ifNoneMatch !== undefined) validators['If-None-Match'] = ifNoneMatch;
  if (ifModifiedSince !== undefined) validators['If-Modified-Since'] = ifModifiedSince.toUTCString();
  if (ifMatch !== undefined) validators['If-Match'] = ifMatch;
  if (ifUnmodifiedSince !== undefined) validators['If-Unmodified-Since'] = ifUnmodifiedSince.toUTCString();
  return { ...options, headerParams: { ...validators, ...options.headerParams } };
}

/** {@link callWithTransport}, the success status written to `out`; traced by the observer's `trace`. */
function exchangeRoute<Req, Resp>(transport: ClientTransport, handle: RouteHandle<Req, Resp>, req: Req, given: ClientCallOptions, out: StatusOut | undefined, shared: readonly ErrorRule[]): Promise<Resp> {
  const options = withValidators(given);
  const observer = options?.observer;
  if (observer?.trace === undefined) return exchangeOnce(transport, handle, req, options, NO_HEADERS, out, shared);
  const route = handle.route;
  // Header lines the tracer adds (trace context), sent with the request.
  const extra: [string, string][] = [];
  const status: StatusOut = out ?? { status: 0 };
  const start: TraceStart = { kind: 'client', route: route.id, method: route.method, path: route.path, header: () => undefined, setHeader: (name, value) => void extra.push([name.toLowerCase(), value]) };
  return traced(
    observer,
    start,
    () => exchangeOnce(transport, handle, req, options, extra, status, shared),
    () => ({ status: status.status }),
    (err) => ({ status: statusOf(err), error: err }),
  );
}

/**
 * The wire values of one call as they are gathered — path variables, query pairs, header lines,
 * cookies — and its pre-flight failures, each reported to the observer as it is found.
 */
class CallValues {
  readonly vars: Record<string, string> = {};
  readonly query: [string, string][] = [];
  readonly headers: [string, string][] = [];
  cookies: Record<string, string> | undefined;
  readonly failures: unknown[] = [];
  /** True once a path value failed: building the path would only report it missing. */
  pathFailed = false;
  readonly #options: ClientCallOptions;
  readonly #route: string;

  constructor(options: ClientCallOptions, route: string) {
    this.#options = options;
    this.#route = route;
  }

  put(kind: ParamLocation, name: string, value: string): void {
    if (kind === 'path') this.vars[name] = value;
    else if (kind === 'query') this.query.push([name, value]);
    else if (kind === 'header') this.headers.push([name, value]);
    else (this.cookies ??= {})[name] = value;
  }

  /** The call's explicit entries of a location. */
  explicit(kind: ParamLocation): Readonly<Record<string, string | readonly string[]>> | undefined {
    const o = this.#options;
    return kind === 'query' ? o.queryParams : kind === 'header' ? o.headerParams : kind === 'cookie' ? o.cookieParams : undefined;
  }

  /** Gathers one declared parameter's values from `source`, or records why it cannot be sent. */
  param(p: RequestParamSpec, source: unknown): void {
    try {
      for (const v of paramValues(p, source, this.explicit(p.kind), (this.#options as CallEachOptions).vars)) this.put(p.kind, p.name, v);
    } catch (err) {
      if (p.kind === 'path') this.pathFailed = true;
      this.fail(err, p.kind, p.name);
    }
  }

  /** Records a failure and reports it. */
  fail(err: unknown, location: ValidationLocation, name: string): void {
    this.failures.push(err);
    this.report(location, name, err);
  }

  /** Reports a failure to the observer's `onValidationError`. */
  report(location: ValidationLocation, name: string, error: unknown): void {
    const observer = this.#options.observer;
    if (observer?.onValidationError !== undefined) safely(() => observer.onValidationError?.({ route: this.#route, location, name, error }));
  }
}

/** True when a declared parameter of the call (the route's or a middleware's) has this location and name. */
function isDeclared(handle: RouteHandle<unknown, unknown>, inputs: readonly ClientMiddlewareInput[] | undefined, kind: ParamLocation, name: string): boolean {
  const same = (p: RequestParamSpec): boolean => p.kind === kind && (kind === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name);
  return handle.requestParams.some(same) || (inputs?.some((m) => m.params.some(same)) ?? false);
}

async function exchangeOnce<Req, Resp>(
  transport: ClientTransport,
  handle: RouteHandle<Req, Resp>,
  req: Req,
  options: ClientCallOptions,
  traceHeaders: readonly (readonly [string, string])[],
  out: StatusOut | undefined,
  shared: readonly ErrorRule[],
): Promise<Resp> {
  const route = handle.route;
  const started = performance.now();
  const observer = options.observer;
  try {
    checkCoverage(route as Route<unknown, unknown>, transport, route.credentials.map((c) => c.scheme));
    // The route's middleware (route.use, clientMW) give their inputs first; a throw sends nothing.
    // Attachments without a client function send none of their fields.
    let inputs: ClientMiddlewareInput[] | undefined;
    for (const a of route.middleware) if (a.send !== undefined) (inputs ??= []).push(await a.middleware.clientInput(a.send, req));
    const values = new CallValues(options, route.id);
    for (const p of handle.requestParams) values.param(p, req);
    if (inputs !== undefined) for (const m of inputs) for (const p of m.params) values.param(p, m.input);
    // Credentials of the route's security schemes (route.clientMW(scheme, fn)); a per-call entry of the same name wins.
    for (const { scheme, send } of route.credentials) {
      const placement = await scheme.placeFor(send, req);
      if (placement !== undefined && lookup(values.explicit(placement.in), placement.name, placement.in === 'header') === undefined) values.put(placement.in, placement.name, placement.value);
    }
    // Explicit entries of names no parameter declares are sent as they are.
    for (const kind of EXPLICIT_KINDS) {
      const given = values.explicit(kind);
      if (given !== undefined) for (const k of Object.keys(given)) if (!isDeclared(handle as RouteHandle<unknown, unknown>, inputs, kind, k)) for (const x of typeof given[k] === 'string' ? [given[k] as string] : (given[k] as readonly string[])) values.put(kind, k, x);
    }
    const { vars, query, headers, failures } = values;
    let path = route.path as string;
    if (!values.pathFailed) {
      try {
        path = handle.buildPath(vars);
      } catch (err) {
        if (err instanceof ParamError || err instanceof MissingPathVarError) values.fail(err, 'path', err.paramName);
        else failures.push(err);
      }
    }

    let body: Uint8Array | undefined;
    if (BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty') {
      const f = (options.requestFormats?.[0] ?? handle.requestFormats[0]) as Format<unknown>;
      try {
        f.codec.validate(req);
        const message = await marshalRequest(f, req);
        body = message.body;
        headers.push(['content-type', message.contentType]);
      } catch (err) {
        const issues = issuesOf(err);
        if (issues === undefined) values.report('body', 'body', err);
        else for (const issue of issues) values.report('body', formatPath(issue.path) || 'body', new DecodeError([issue], { cause: err }));
        failures.push(new RequestBuildError('the request body is invalid', err));
      }
    }
    // Every header line must be sendable (RFC 9110 §5.5, §5.6.2): a newline from a merge field,
    // an explicit entry or a validator is refused here, named, and nothing leaves the client.
    for (const [name, value] of headers) {
      if (isToken(name) && isFieldValue(value)) continue;
      values.fail(new RequestBuildError(`the header ${JSON.stringify(name)}: ${JSON.stringify(value)} cannot be sent: not an HTTP field name and value (RFC 9110 §5.5: a token, then no CR, LF or other control character)`), 'header', name);
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new RequestValidationError(failures as Error[]);

    const respFormats = (options.responseFormats ?? handle.responseFormats) as readonly Format<unknown>[];
    const plan = responsePlan(respFormats);
    if (route.respCodec.kind !== 'empty' && respFormats.length > 0) headers.push(['accept', plan.accept]);
    const cookies = values.cookies;
    if (cookies !== undefined) {
      const cookie = cookieHeader(cookies);
      if (cookie === undefined) throw new RequestBuildError(`a cookie name of ${JSON.stringify(Object.keys(cookies))} is not a cookie-name (RFC 6265 §4.1.1)`);
      headers.push(['cookie', cookie]);
    }
    for (const [name, value] of traceHeaders) headers.push([name, value]);
    if (options.signal?.aborted) throw new RequestBuildError('the call was aborted before sending', options.signal.reason);

    const exchange = { method: route.method, path, query, headers, body, signal: options.signal };
    // A streamed response format is read as it arrives, where the transport can.
    const reply: StreamingReply =
      plan.streaming && transport.exchangeStream !== undefined ? streamingReply(await transport.exchangeStream(exchange)) : new WholeReply(await transport.exchange(exchange));
    const successStatus = wireStatus(route.meta.respStatus ?? defaultStatus(route.method));
    // 304 answers a conditional request (`ifNoneMatch`, `ifModifiedSince`): what the caller holds
    // is current. To a call that sent no validator it is an unexpected status (below).
    if (reply.status === 304 && sentValidator(headers)) {
      await reply.discard();
      const lastModified = Date.parse(reply.headers.get('last-modified') ?? '');
      const etag = reply.headers.get('etag') ?? undefined;
      observe(observer, route.id, 304, started);
      if (out !== undefined) out.status = 304;
      return new NotModified({ etag, lastModified: Number.isNaN(lastModified) ? undefined : new Date(lastModified) }) as Resp;
    }
    const success = (reply.status >= 200 && reply.status <= 299) || (reply.status >= 300 && reply.status <= 399 && reply.status === successStatus);
    const contentType = reply.headers.get('content-type') ?? '';
    if (!success) {
      const bytes = await reply.bytes();
      let patterned: ErrorPatternResponse | undefined;
      try {
        // The route's rules, then the server-wide ones the client was given.
        patterned = handle.decodeErrorFor(reply.status, bytes, contentType, respFormats) ?? (shared.length === 0 ? undefined : decodeErrorWith(shared, reply.status, bytes, contentType, respFormats));
      } catch (err) {
        throw new UnexpectedStatusError(route.method, path, reply.status, new TextDecoder().decode(bytes), { cause: err });
      }
      if (patterned !== undefined) throw patterned;
      throw new UnexpectedStatusError(route.method, path, reply.status, new TextDecoder().decode(bytes));
    }
    let resp: unknown;
    // The event-stream format resumes a broken stream (`reconnect`); no other format can.
    let resume: SSEFormat<unknown>['resume'] | undefined;
    // Another declared success status is read with its own codec, formats, headers and cookies.
    const other = reply.status === successStatus ? undefined : route.successes.find((sr) => sr.status === reply.status);
    const respCodec = other?.codec ?? route.respCodec;
    if (respCodec.kind === 'empty') {
      await reply.discard();
      resp = respCodec.decode(undefined);
    } else {
      const ct = mediaTypeOf(contentType);
      let f: Format<unknown> | undefined;
      if (other !== undefined) {
        const formats = handle.successFormats(other);
        f = formats.find((x) => mediaTypeOf(x.contentType) === ct) ?? (ct === '' ? formats[0] : undefined);
      } else {
        f = ct === '' ? respFormats[0] : undefined;
        for (let i = 0; i < plan.types.length; i++) {
          if (plan.types[i] === ct) {
            f = respFormats[i];
            break;
          }
        }
      }
      if (f === undefined) {
        await reply.discard();
        throw new ResponseBodyError(reply.status, `unexpected response Content-Type ${JSON.stringify(ct)}`);
      }
      resume = (f as Partial<SSEFormat<unknown>>).resume?.bind(f);
      try {
        resp = f.unmarshalStream !== undefined ? await f.unmarshalStream(reply.stream(), { contentType, signal: options.signal ?? NEVER_ABORTED }) : f.unmarshal(await reply.bytes());
      } catch (err) {
        if (err instanceof ResponseBodyError) throw err;
        throw new ResponseBodyError(reply.status, 'the response body did not decode', err);
      }
    }
    decodeResponseParams(resp, other?.params ?? route.params, reply.status, reply.headers);
    observe(observer, route.id, reply.status, started);
    const attempts = options.reconnect ?? 0;
    if (attempts > 0 && resume !== undefined) {
      const reopen = (lastEventId: string | undefined): Promise<EventStream<unknown>> =>
        callWithTransport(transport, handle as unknown as RouteHandle<SSERequest, EventStream<unknown>>, { ...(req as object), lastEventId }, { ...options, reconnect: 0 });
      const isBreak = (err: unknown): boolean => err instanceof ResponseBodyError || err instanceof RequestError;
      resp = resume(resp as EventStream<unknown>, reopen, attempts, isBreak, options.signal);
    }
    if (out !== undefined) out.status = reply.status;
    return resp as Resp;
  } catch (err) {
    observe(observer, route.id, statusOf(err), started, err);
    throw err;
  }
}

/** True when the request carries a validator a 304 answers (RFC 9110 §13.1.2, §13.1.3). */
function sentValidator(headers: readonly (readonly [string, string])[]): boolean {
  return headers.some(([name]) => VALIDATOR.test(name));
}
const VALIDATOR = /^if-(?:none-match|modified-since)$/i;

/** The response status a call's error carries (`statusCode`), or 0 when it got no response. */
function statusOf(err: unknown): number {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : 0;
}

const NEVER_ABORTED = new AbortController().signal;
/** The locations of explicit per-call entries. */
const EXPLICIT_KINDS = ['query', 'header', 'cookie'] as const;

/** What a call needs to know of its response formats, worked out once per list of formats. */
interface ResponsePlan {
  /** The `Accept` request header ({@link acceptHeader}). */
  readonly accept: string;
  /** True when a format reads its body as it arrives (`unmarshalStream`). */
  readonly streaming: boolean;
  /** Each format's media type, without parameters, in order. */
  readonly types: readonly string[];
}
const PLANS = new WeakMap<readonly Format<unknown>[], ResponsePlan>();
function responsePlan(formats: readonly Format<unknown>[]): ResponsePlan {
  let plan = PLANS.get(formats);
  if (plan === undefined) {
    plan = { accept: acceptHeader(formats), streaming: formats.some((f) => f.unmarshalStream !== undefined), types: formats.map((f) => mediaTypeOf(f.contentType)) };
    PLANS.set(formats, plan);
  }
  return plan;
}

/**
 * The `Accept` of a call (RFC 9110 §12.5.1): the formats the client can read, in declaration
 * order, the first preferred (`application/json, application/yaml;q=0.9, …`). Response-only
 * formats (`html`) are left out unless nothing else is declared.
 */
function acceptHeader(formats: readonly Format<unknown>[]): string {
  const readable = formats.filter((f) => f.responseOnly !== true);
  const offered = readable.length > 0 ? readable : formats;
  // Media types without their parameters: `text/csv; charset=utf-8` is offered as `text/csv`
  // (a parameter in Accept would have to match the server's exactly, RFC 9110 §12.5.1).
  return offered.map((f, i) => (i === 0 ? mediaTypeOf(f.contentType) : `${mediaTypeOf(f.contentType)};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(', ');
}

/** The bytes and `Content-Type` of a request body in format `f` (a multipart boundary, a streamed body collected). */
async function marshalRequest(f: Format<unknown>, value: unknown): Promise<{ readonly contentType: string; readonly body: Uint8Array }> {
  if (f.marshalMessageAsync !== undefined) return f.marshalMessageAsync(value);
  if (f.marshalMessage !== undefined) return f.marshalMessage(value);
  if (f.marshalStream !== undefined) return { contentType: f.contentType, body: await collectBytes(f.marshalStream(value, NEVER_ABORTED)) };
  return { contentType: f.contentType, body: f.marshal(value) };
}

/** A reply read whole or as a stream, whichever the transport gave. */
interface StreamingReply {
  readonly status: number;
  readonly headers: Headers;
  /** The whole body. @throws {ResponseBodyError} */
  bytes(): Promise<Uint8Array>;
  /** The body as chunks (a failure to read is a `ResponseBodyError`). */
  stream(): AsyncIterable<Uint8Array>;
  /** Cancels an unread streamed body. */
  discard(): Promise<void>;
}

/** A reply the transport read whole. */
class WholeReply implements StreamingReply {
  readonly status: number;
  readonly headers: Headers;
  readonly #body: Uint8Array;
  constructor(reply: ClientReply) {
    this.status = reply.status;
    this.headers = reply.headers;
    this.#body = reply.body;
  }
  bytes(): Promise<Uint8Array> {
    return Promise.resolve(this.#body);
  }
  async *stream(): AsyncGenerator<Uint8Array, void, undefined> {
    yield this.#body;
  }
  discard(): Promise<void> {
    return Promise.resolve();
  }
}

function streamingReply(reply: ClientStreamReply): StreamingReply {
  const read = async function* (): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      yield* reply.body;
    } catch (err) {
      throw err instanceof ResponseBodyError ? err : new ResponseBodyError(reply.status, 'the response body could not be read', err);
    }
  };
  return {
    status: reply.status,
    headers: reply.headers,
    bytes: () => collectBytes(read()),
    stream: read,
    discard: async () => {
      try {
        await reply.body[Symbol.asyncIterator]().return?.();
      } catch {
        // Nothing more to read.
      }
    },
  };
}

/**
 * A typed client: attach one transport, then call routes. Calls are observed by the per-call
 * observer, else by the client's default ({@link ClientOptions.observer}).
 */
export class Client<Shared extends DeclaredError = never> {
  /** Phantom field carrying the typed errors of the client's shared rules (`newClient({ errors })`); never set at runtime. */
  declare readonly '~shared'?: Shared;
  #transport: ClientTransport | undefined;
  readonly #observer: Observer | undefined;
  readonly #errors: readonly ErrorRule[];

  /** Use {@link newClient}. */
  constructor(options: ClientOptions = {}) {
    this.#observer = options.observer;
    this.#errors = (options.errors as readonly ErrorRule[] | undefined) ?? NO_RULES;
  }

  /**
   * Binds the transport. Exclusive.
   * @throws {ClientTransportAlreadyAttachedError} on a second attach (the first stays).
   */
  attach(transport: ClientTransport): void {
    if (this.#transport !== undefined) throw new ClientTransportAlreadyAttachedError();
    this.#transport = transport;
  }

  /**
   * Calls `route` with `req`; typed by the route: `req` is what a caller may send (fields with
   * a default may be left out), the result is the decoded response. Observed by
   * `options.observer`, else by the client's default observer. With a validator
   * (`ifNoneMatch`, `ifModifiedSince`) the result may also be a {@link NotModified}: the server
   * answered 304 and the representation the caller holds is current. Rejects as
   * {@link callWithTransport}, and:
   * @throws {ClientTransportNotAttachedError} before `attach`.
   * @throws {TransportTypeMismatchError} when `route` is not a route, or `req` not an object.
   */
  call<Req, Resp, In, Ok extends DeclaredSuccess>(route: Route<Req, Resp, string, In, DeclaredError, Ok>, req: NoInfer<In>, options: ClientCallOptions & ConditionalGet): Promise<Ok['value'] | NotModified>;
  /**
   * The same call without a validator: the result is the value of the success the server
   * answers — the main response's, or another declared success's (`successes`).
   */
  call<Req, Resp, In, Ok extends DeclaredSuccess>(route: Route<Req, Resp, string, In, DeclaredError, Ok>, req: NoInfer<In>, options?: ClientCallOptions): Promise<Ok['value']>;
  call(route: Route<unknown, unknown, string, unknown, DeclaredError, DeclaredSuccess>, req: unknown, options?: ClientCallOptions): Promise<unknown> {
    return this.#exchange(route, req, options, undefined);
  }

  /**
   * Calls `route` like {@link Client.call}, but never rejects: the result says what happened.
   * - `{ ok: true, status, value }` — a success (2xx, or the route's declared redirect): for a
   *   route declared with `rest.route`, one case per declared success status, so that checking
   *   `status` narrows `value` (`201` → the created value, `204` → no value); with a validator
   *   (`ifNoneMatch`, `ifModifiedSince`), also `{ ok: true, status: 304, value: NotModified }`.
   * - `{ ok: false, status, error }` — a declared error response: `status` is one of the
   *   statuses of the route's `errorPattern`s and `error` is the body decoded by that pattern's
   *   codec, so that checking `status` narrows `error` to its type.
   * - `{ ok: false, status: undefined, error }` — anything else, `error` being the `Error` that
   *   `call` would have thrown (`UnexpectedStatusError`, `RequestError`, `RequestBuildError`,
   *   `ResponseBodyError`, a `ParamError` or `RequestValidationError` from the pre-flight checks,
   *   `ClientTransportNotAttachedError`…).
   */
  safeCall<Req, Resp, In, Err extends DeclaredError, Ok extends DeclaredSuccess>(
    route: Route<Req, Resp, string, In, Err, Ok>,
    req: NoInfer<In>,
    options: ClientCallOptions & ConditionalGet,
  ): Promise<SafeResult<Resp, Err | Shared, Ok | DeclaredSuccess<304, NotModified>>>;
  /** The same call without a validator: no 304 among the results. */
  safeCall<Req, Resp, In, Err extends DeclaredError, Ok extends DeclaredSuccess>(route: Route<Req, Resp, string, In, Err, Ok>, req: NoInfer<In>, options?: ClientCallOptions): Promise<SafeResult<Resp, Err | Shared, Ok>>;
  safeCall(route: Route<unknown, unknown, string, unknown, DeclaredError, DeclaredSuccess>, req: unknown, options?: ClientCallOptions): Promise<SafeResult<unknown>> {
    const out: StatusOut = { status: 0 };
    return this.#exchange(route, req, options, out).then(
      (value) => ({ ok: true, status: out.status, value }) as SafeResult<unknown>,
      (err: unknown) =>
        (err instanceof ErrorPatternResponse ? { ok: false, status: err.statusCode, error: err.value } : { ok: false, status: undefined, error: err instanceof Error ? err : new Error(String(err)) }) as SafeResult<unknown>,
    );
  }

  /**
   * Calls `route` once for every item of `items` — an array, an iterable or an async iterable
   * (records read from a stream, ids produced as they come) — one call at a time, in order, and
   * yields each call's result as `call` gives it. Each call's path, query, header and cookie
   * values come from its own item's merge fields, except those `options.vars` names: exactly the
   * parameters it names are fixed for every item, the others still come from each item (so
   * `vars: {}` fixes nothing), and a body always comes from the item. The iteration throws what
   * a call throws and calls no further; leaving it early (`break`) stops the calls, and the
   * source iterator is returned.
   * @throws {RequestBuildError} from the iteration, before any call, when a key of `vars` names
   * no path, query, header or cookie parameter of the route (a header name in any case).
   * @throws as {@link Client.call}, from the iteration.
   */
  async *callEach<Req, Resp, In, Ok extends DeclaredSuccess>(
    route: Route<Req, Resp, string, In, DeclaredError, Ok>,
    items: Iterable<NoInfer<In>> | AsyncIterable<NoInfer<In>>,
    options?: CallEachOptions,
  ): AsyncGenerator<Ok['value'], void, undefined> {
    const vars = options?.vars;
    if (vars !== undefined && route instanceof Route) {
      const handle = route.clientHandle() as RouteHandle<unknown, unknown>;
      for (const name of Object.keys(vars)) {
        if (!isDeclared(handle, undefined, 'path', name) && !EXPLICIT_KINDS.some((kind) => isDeclared(handle, undefined, kind, name))) {
          throw new RequestBuildError(`callEach: vars names ${JSON.stringify(name)}, which is no path, query, header or cookie parameter of ${route.id}`);
        }
      }
    }
    for await (const item of items) yield (await this.#exchange(route as Route<unknown, unknown, string, never, never, never>, item, options, undefined)) as Ok['value'];
  }

  #exchange<Req, Resp>(route: Route<Req, Resp, string, never, never, never>, req: unknown, options: ClientCallOptions | undefined, out: StatusOut | undefined): Promise<Resp> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new ClientTransportNotAttachedError());
    if (!(route instanceof Route)) return Promise.reject(new TransportTypeMismatchError('client.call expects a route declared with rest.route or rest.newRoute'));
    if (typeof req !== 'object' || req === null) return Promise.reject(new TransportTypeMismatchError(`client.call: the request of ${route.id} must be an object`));
    const observer = options?.observer ?? this.#observer;
    return exchangeRoute(transport, route.clientHandle(), req as Req, observer === undefined ? (options ?? NO_OPTIONS) : { ...options, observer }, out, this.#errors);
  }
}

/** Options of {@link Client.callEach}: those of a call, and fixed variables. */
export interface CallEachOptions extends ClientCallOptions {
  /**
   * Fixed wire values of some of the route's declared parameters by name — path variables,
   * query, header and cookie parameters — for every call, in place of each item's merge fields
   * for those parameters only (checked by the parameters' codecs); every parameter it does not
   * name comes from each item. A key that names no declared parameter is refused
   * (`RequestBuildError`). Explicit `queryParams`/`headerParams`/`cookieParams` entries win.
   */
  readonly vars?: Readonly<Record<string, string>>;
}

/**
 * Call options that carry a validator (`ifNoneMatch` or `ifModifiedSince`): the server may
 * answer 304 Not Modified, and the call's result type includes {@link NotModified}.
 */
export type ConditionalGet = { readonly ifNoneMatch: string } | { readonly ifModifiedSince: Date };

/**
 * The result of `client.safeCall`: a success (one case per declared success status, each with
 * its value), a declared error response (discriminated by its status, with the body its error
 * pattern decodes), or any other failure (`status: undefined`).
 */
export type SafeResult<Resp, Err extends DeclaredError = DeclaredError, Ok extends DeclaredSuccess = DeclaredSuccess<number, Resp>> =
  | (Ok extends DeclaredSuccess<infer S, infer V> ? { readonly ok: true; readonly status: S; readonly value: V } : never)
  | (Err extends DeclaredError<infer S, infer B> ? { readonly ok: false; readonly status: S; readonly error: B } : never)
  | { readonly ok: false; readonly status: undefined; readonly error: Error };

/**
 * Creates a client without a transport: `rest.newClient()`, or with a default observer for its
 * calls, `rest.newClient({ observer })`. Attach a transport with `client.attach` before calling.
 * With the server's shared error rules, `rest.newClient({ errors: [unprocessable] })`, the
 * client's type carries them: `safeCall` narrows their statuses and bodies on every route, as
 * it does a route's own (`Client<DeclaredErrors<typeof errors>>`).
 */
export function newClient<const E extends readonly AnyErrorRule[] = []>(options?: ClientOptions & { readonly errors?: E }): Client<DeclaredErrors<E>> {
  return new Client<DeclaredErrors<E>>(options);
}
