import type { Codec } from '@lib/codec';
import type { Context } from './context.js';

/** Where a validation failure was found. */
export type ValidationLocation = 'path' | 'query' | 'cookie' | 'header' | 'body';

/**
 * Receives per-request and per-call observations. Every method is
 * optional; an observer that throws is ignored (its error never reaches the request).
 */
export interface Observer {
  /**
   * A server response or a client call finished. `status` 0 means only that a client call
   * stopped before anything was sent (a pre-flight check failed, the signal was already
   * aborted); a call that was sent and got no response is {@link Observer.onRequestError}.
   * `durationMs` in milliseconds.
   */
  onResponse?(info: { readonly route: string; readonly status: number; readonly durationMs: number; readonly error?: unknown }): void;
  /**
   * A client call was sent and got no response: the transport failed (connection refused or
   * reset, a timeout, the signal aborted while waiting). `error` is the `RequestError`.
   * `durationMs` in milliseconds. `onResponse` is not called for it.
   */
  onRequestError?(info: { readonly route: string; readonly durationMs: number; readonly error: unknown }): void;
  /**
   * One record per failing field, on the server and for a client's pre-flight checks. `name` is
   * the parameter's name, or for the body the path (`email`, `items[0].name`; `body`
   * for the body as a whole, such as malformed JSON).
   */
  onValidationError?(info: { readonly route: string; readonly location: ValidationLocation; readonly name: string; readonly error: unknown }): void;
  /** An error met an error rule (`matched`) or none (`missed`). */
  onErrorPattern?(info: { readonly route: string; readonly matched: boolean; readonly status: number; readonly error: unknown }): void;
  /**
   * An error matched an error pattern whose action is `ErrorLog` (`pattern.withAction(rest.ErrorLog)`):
   * the response goes through the `errorHandler` as with `ErrorHandle`, and the match is reported
   * here with the pattern's status and mapped body.
   */
  onErrorLog?(info: { readonly route: string; readonly status: number; readonly error: unknown; readonly value: unknown }): void;
  /**
   * Attributes for the current trace span, as OpenTelemetry's HTTP conventions name them
   * (`http.route`, `http.response.status_code`, `error.type`), plus `error.pattern`: the class or
   * guard name of the matched error rule, or `none`.
   */
  onSpanTags?(info: { readonly route: string; readonly tags: Readonly<Record<string, string | number | boolean>> }): void;
  /**
   * Wraps one server request (from its route's pipeline to the response) or one client call,
   * for tracing: call `run` exactly once and resolve after it; code run inside `run` (handlers,
   * middleware, the transport) runs in whatever async context `trace` set up around it (an
   * OpenTelemetry span made active). `run` never rejects: it resolves with the status and the
   * error, if any. `start.header` reads a request header on the server (W3C `traceparent`);
   * `start.setHeader` adds a header to a client's request (to propagate trace context). A
   * `trace` that throws, or resolves without calling `run`, is ignored: the request still runs.
   * Requests no route takes (404, 405) are not traced.
   */
  trace?(start: TraceStart, run: () => Promise<TraceEnd>): Promise<unknown>;
}

/** A server request or a client call as {@link Observer.trace} sees it, before it runs. */
export interface TraceStart {
  /** `server`: a request a route answers; `client`: a call of the typed client. */
  readonly kind: 'server' | 'client';
  /** The route's id: method and path template (`GET /users/{id}`). */
  readonly route: string;
  /** The upper-case method. */
  readonly method: string;
  /** The route's path template (`/users/{id}`), what OpenTelemetry calls `http.route`. */
  readonly path: string;
  /** Server: a request header by lower-case name (`undefined` when absent). Client: always `undefined`. */
  header(name: string): string | undefined;
  /** Client: adds a header to the request, before it is sent. Server: does nothing. */
  setHeader(name: string, value: string): void;
}

/** How a traced request or call ended. */
export interface TraceEnd {
  /** The response status; 0 when a client call got none (it failed before or while sending). */
  readonly status: number;
  /** The error the request or call ended with: the handler's error on the server, the thrown error on the client. */
  readonly error?: unknown;
}

/**
 * Runs `run` under `observer.trace` when there is one (see {@link Observer.trace}), total: a
 * `trace` that throws or never calls `run` is ignored. Resolves with `run`'s own result.
 * @internal
 */
export async function traced<T>(observer: Observer | undefined, start: TraceStart, run: () => Promise<T>, end: (result: T) => TraceEnd, failed: (err: unknown) => TraceEnd): Promise<T> {
  const trace = observer?.trace;
  if (trace === undefined) return run();
  let ran: Promise<T> | undefined;
  const once = (): Promise<T> => (ran ??= run());
  try {
    await trace.call(observer, start, () => once().then(end, failed));
  } catch {
    // A tracer never breaks a request.
  }
  return once();
}

/** The default error body: `{ "error": message }`. */
export interface ErrorEnvelope {
  readonly error: string;
}

/**
 * Builds the body of an error response that no `ErrorRespond` pattern wrote. It receives the
 * real error and the status chosen by the error rules; it returns the JSON value to send, and
 * may return another status. That status is used only when it is an integer from 400 to 599;
 * anything else (a 2xx, 99, 1000, `NaN`, a string) is ignored and the computed status stands.
 * The default returns `{ error: message }`, where the message is the error's own for 4xx and the
 * status's reason phrase for 5xx. When the handler throws, or returns a body `JSON.stringify`
 * cannot serialise (a `bigint`, a cycle, `undefined`), the response is the default 500
 * `{ "error": "internal server error" }`.
 */
export type ErrorHandler = (ctx: Context, err: unknown, status: number) => { readonly status?: number; readonly body: unknown };

/**
 * A security check called after credential codecs validated. Throwing gives 401, or the status
 * an error rule maps the thrown error to. `request` is the request as a fetch `Request` on every
 * adapter — its method, absolute URL and headers, for what the schemes do not declare (an
 * `X-Forwarded-For`, the path) — whose body is not for reading; `undefined` only outside an HTTP
 * adapter. `requirements` are the route's alternatives the request's credentials meet.
 */
export type SecurityFunc = (ctx: Context, request: Request | undefined, requirements: readonly Readonly<Record<string, readonly string[]>>[]) => void | Promise<void>;

/**
 * Adapter options, one type shared by both adapters. Set per route
 * with `route.withOptions(options)`.
 */
export interface Options {
  /** Replaces the default `{ "error": message }` envelope. */
  readonly errorHandler?: ErrorHandler;
  /** Per-request observations. Default: none. */
  readonly observer?: Observer;
  /** Request body limit in bytes. Default 1 MiB (1_048_576); larger bodies get 413. */
  readonly maxBodyBytes?: number;
  /** The media type expected on request bodies when the route declares no request formats. Default `application/json`. */
  readonly contentType?: string;
  /** When true, a repeated query key validates every value (with a codec of the array's item). Default false: the first value. */
  readonly multiValueQueryParams?: boolean;
  /** Called after credential validation. */
  readonly securityFunc?: SecurityFunc;
  /**
   * When true, every success body is also checked against the response codec's constraints
   * (`minLength`, `uuid`, …) before it is sent; a violation is a 500 `ResponseContractError`.
   * Default: on in development, off in production — true unless `NODE_ENV` is `production`
   * (read when the route is prepared, at `serve`; a runtime without `process.env` counts as
   * development). Constraints cost time per response; the shape of a body (types, finite
   * numbers, safe integers, required fields, union tags) and every response header and cookie
   * are checked either way.
   */
  readonly validateResponses?: boolean;
  /**
   * The codec of the body `errorHandler` returns, so that the OpenAPI document describes the
   * error envelope the server really sends (for 400, 404, 405, 406, 413, 415, 500, 503 and the
   * `errorStatus` rules). Default: the `{ "error": string }` envelope, named `ErrorEnvelope`.
   */
  readonly errorBody?: Codec<unknown>;
  /**
   * The media type of the body `errorHandler` returns, sent as its `Content-Type` and stated in
   * the document. Default `application/json`; `rest.withProblemDetails()` sets
   * `application/problem+json` (RFC 9457 §3).
   */
  readonly errorMediaType?: string;
  /**
   * When true, a request whose `Accept` matches none of the route's response formats gets the
   * first one instead of 406 Not Acceptable: RFC 9110 §12.5.1 lets a server disregard `Accept`
   * that way. The document then lists no 406. Default false: 406.
   */
  readonly disregardAccept?: boolean;
}

/** The options a client call uses from a route's or builder's options: none of the server's. */
export type ClientRelevantOptions = Pick<Options, 'contentType'>;

/** Default `maxBodyBytes`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
