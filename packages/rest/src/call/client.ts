import type { DeclaredError, ErrorRule } from '../declare/error-rules.js';
import { ClientTransportAlreadyAttachedError, ClientTransportNotAttachedError, TransportTypeMismatchError } from '../declare/errors.js';
import { ErrorPatternResponse, RequestBuildError, RequestError } from '../declare/http-errors.js';
import type { EventStream, SSERequest } from '../declare/sse.js';
import { traced, type Observer, type TraceStart } from '../declare/options.js';
import type { NotModified } from '../declare/not-modified.js';
import type { DeclaredSuccess } from '../declare/success.js';
import type { AnyErrorRule } from '../declare/route-object.js';
import type { DeclaredErrors } from '../declare/route.js';
import { Route, type RouteHandle } from '../declare/route.js';
import type { Format } from '@lib/format';
import type { ClientTransport } from './client-transport.js';
import type { CallEachOptions, ClientCallOptions } from './options.js';
import { paramKey, responsePlan, routePlan, safely } from './plan.js';
import { readReply } from './reply.js';
import { buildRequest } from './request.js';
import type { sendRequest } from './send.js';

export type { CallEachOptions, ClientCallOptions } from './options.js';

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

/**
 * Reports the end of a call: `onResponse` with the status (0 when nothing was sent), or, for a
 * call the transport sent and got no response for (`RequestError`), `onRequestError`.
 */
function observe(observer: Observer | undefined, route: string, status: number, started: number, error?: unknown): void {
  if (observer === undefined) return;
  const durationMs = performance.now() - started;
  safely(() =>
    error instanceof RequestError ? observer.onRequestError?.({ route, durationMs, error }) : observer.onResponse?.({ route, status, durationMs, ...(error !== undefined && { error }) }),
  );
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
  return exchangeRoute(transport, handle, req, options, undefined, NONE);
}

/** Nothing: no shared error rules, no extra header lines. */
const NONE: readonly never[] = Object.freeze([]);

/** Where a call that needs it (`safeCall`, a tracer) receives the success status. */
interface StatusOut {
  status: number;
}

/** No options, shared by the calls that give none. */
const NO_OPTIONS: ClientCallOptions = Object.freeze({});

/** {@link callWithTransport}, the success status written to `out`; traced by the observer's `trace`. */
function exchangeRoute<Req, Resp>(transport: ClientTransport, handle: RouteHandle<Req, Resp>, req: Req, options: ClientCallOptions, out: StatusOut | undefined, shared: readonly ErrorRule[]): Promise<Resp> {
  const observer = options.observer;
  const status: StatusOut = out ?? { status: 0 };
  if (observer?.trace === undefined) return exchangeOnce(transport, handle, req, options, NONE, status, shared);
  const route = handle.route;
  // Header lines the tracer adds (trace context), sent with the request.
  const extra: [string, string][] = [];
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
 * One call, in three steps: build the request ({@link buildRequest}), send it
 * ({@link sendRequest}) and read the reply ({@link readReply}, which sends the request once it is
 * built and reads what comes back: the promise of the call is its own, so that a streamed body is
 * read as soon as the caller asks). What never changes per route is worked out on its first call
 * ({@link routePlan}). Observed by `options.observer` once the call has settled, before anything
 * that awaits it runs on.
 */
function exchangeOnce<Req, Resp>(
  transport: ClientTransport,
  handle: RouteHandle<Req, Resp>,
  req: Req,
  options: ClientCallOptions,
  extra: readonly (readonly [string, string])[],
  status: StatusOut,
  shared: readonly ErrorRule[],
): Promise<Resp> {
  const id = handle.route.id;
  const started = performance.now();
  const observer = options.observer;
  const plan = routePlan(handle as RouteHandle<unknown, unknown>);
  const responses = responsePlan((options.responseFormats ?? handle.responseFormats) as readonly Format<unknown>[]);
  // A broken event stream is reopened from the last event id seen, `reconnect` times in a row.
  const reopen =
    (options.reconnect ?? 0) > 0
      ? (lastEventId: string | undefined): Promise<EventStream<unknown>> =>
          callWithTransport(transport, handle as unknown as RouteHandle<SSERequest, EventStream<unknown>>, { ...(req as object), lastEventId }, { ...options, reconnect: 0 })
      : undefined;
  const call = readReply(plan, responses, transport, buildRequest(plan, responses, transport, req, options, extra), options, shared, status, reopen);
  call.then(
    () => observe(observer, id, status.status, started),
    (err: unknown) => observe(observer, id, statusOf(err), started, err),
  );
  return call as Promise<Resp>;
}

/** The response status a call's error carries (`statusCode`), or 0 when it got no response. */
function statusOf(err: unknown): number {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : 0;
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
    this.#errors = (options.errors as readonly ErrorRule[] | undefined) ?? NONE;
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
   *   codec, so that checking `status` narrows `error` to its type; with the response headers
   *   the pattern declares (`withHeaders`) as `headers`.
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
        (err instanceof ErrorPatternResponse ? { ok: false, status: err.statusCode, error: err.value, ...(err.headers !== undefined && { headers: err.headers }) } : { ok: false, status: undefined, error: err instanceof Error ? err : new Error(String(err)) }) as SafeResult<unknown>,
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
      const declared = routePlan(route.clientHandle() as RouteHandle<unknown, unknown>).declared;
      for (const name of Object.keys(vars)) {
        if (!(['path', 'query', 'header', 'cookie'] as const).some((kind) => declared.has(paramKey(kind, name)))) {
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
    const handle = route.clientHandle();
    // Parameters are fields of the request value, which must then be an object; without any, the
    // value is the body itself (a string in text/plain), or nothing where the body is optional.
    const nothing = req === undefined && route.params.length === 0 && routePlan(handle).bodyOptional;
    const bodyItself = route.params.length === 0 && req !== undefined && routePlan(handle).body;
    if ((typeof req !== 'object' || req === null) && !nothing && !bodyItself) return Promise.reject(new TransportTypeMismatchError(`client.call: the request of ${route.id} must be an object`));
    const observer = options?.observer ?? this.#observer;
    return exchangeRoute(transport, handle, req as Req, observer === undefined ? (options ?? NO_OPTIONS) : { ...options, observer }, out, this.#errors);
  }
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
  | (Err extends DeclaredError<infer S, infer B, infer H> ? ([keyof H] extends [never] ? { readonly ok: false; readonly status: S; readonly error: B } : { readonly ok: false; readonly status: S; readonly error: B; readonly headers: H }) : never)
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
