/**
 * What an adapter and the pipeline hand each other: the request as the adapter reads it, the
 * response it writes, a route compiled for serving and the adapter's own answers.
 */
import type { FileStore } from '@lib/format';
import type { RouteHandle } from '../../declare/route.js';

/**
 * The request as an adapter hands it to the pipeline: only what the pipeline reads, so that
 * adapters translate and nothing more.
 */
export interface PipelineRequest {
  /** Upper-case method. */
  readonly method: string;
  /** Path variables from the router, percent-decoded. */
  readonly pathParams: Readonly<Record<string, string | undefined>>;
  /** The query string without `?` (`''` when none). */
  readonly rawQuery: string;
  /**
   * The request path as it arrived (percent-encoded, without the query), when the adapter has
   * it. A styled path parameter (OpenAPI 3.1 §4.8.12.4: a list, an object, a `label` or `matrix`
   * value) reads its segment from it, where an escaped delimiter (`a%2Cb,c`) still differs from a
   * delimiter; without it, the decoded `pathParams` value is split, and such items are ambiguous.
   */
  readonly rawPath?: string | undefined;
  /** A request header by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body, stopping as soon as more than `limit` bytes arrived (never
   * buffering an oversized body).
   * @throws {BodyTooLargeError} past the limit.
   */
  readBody(limit: number): Promise<Uint8Array>;
  /**
   * The body as chunks, read as they are pulled (for streamed formats: multipart uploads). A
   * declared `Content-Length` over `limit` fails at the first pull; otherwise the iteration
   * throws as soon as more than `limit` bytes arrived.
   * @throws {BodyTooLargeError} past the limit.
   */
  bodyStream(limit: number): AsyncIterable<Uint8Array>;
  /**
   * Where large uploaded files go instead of memory (temporary files on Node); the adapter
   * deletes them once the response has been sent. Absent where there is no file system.
   */
  readonly files?: FileStore | undefined;
  /** Aborts when the client goes away. Adapters may create it lazily (a getter): it is read only when a handler uses `ctx.signal`. */
  readonly signal: AbortSignal;
  /** The adapter's native request (IncomingMessage, Hono Context), for `requestFromContext`. */
  readonly native: unknown;
  /**
   * The request as a fetch `Request` — method, absolute URL and headers — for a `securityFunc`
   * that reads what its schemes do not declare. Its body is not for reading (the pipeline reads
   * it). Adapters build it only when asked.
   */
  fetchRequest?(): Request;
}

/** The response the pipeline produces; the adapter writes it. */
export interface PipelineResponse {
  readonly status: number;
  /** Header entries; `set-cookie` may repeat. */
  readonly headers: readonly (readonly [string, string])[];
  /**
   * `undefined` for no body; a `Uint8Array` for a whole body, or a `string` sent as its UTF-8
   * bytes (both with `Content-Length`, in bytes); an
   * `AsyncIterable` for a streamed body, which the adapter pulls chunk by chunk as the
   * connection drains (chunked transfer coding), calls `return()` on when the client goes away,
   * and whose failure after the head was sent cuts the connection.
   */
  readonly body: ResponseBody;
}

/** A response body: none, whole (bytes, or text sent as UTF-8), or streamed. */
export type ResponseBody = Uint8Array | string | AsyncIterable<Uint8Array> | undefined;

/** A route compiled for serving: everything resolvable at registration is resolved once. */
export interface PreparedRoute {
  readonly method: string;
  /** The path template. */
  readonly path: string;
  readonly handle: RouteHandle<unknown, unknown>;
  /** Runs the whole pipeline for one request. Never rejects: every error becomes a response. */
  run(req: PipelineRequest): Promise<PipelineResponse>;
}

/**
 * The adapter's own answers, for requests no route takes: built from the builder's default
 * options, so they go through the same `errorHandler` and observer as every route.
 */
export interface FallbackResponses {
  /** 404: no route has this path. */
  notFound(req: FallbackRequest): PipelineResponse;
  /** 405 with `Allow` (RFC 9110 §15.5.6): routes have this path, none this method. */
  methodNotAllowed(req: FallbackRequest, allow: readonly string[]): PipelineResponse;
  /**
   * A request the adapter refuses before routing: 400 (a missing `Host`, RFC 9112 §3.2), 417 (an
   * `Expect` other than `100-continue`, RFC 9110 §10.1.1) or 505 (an HTTP major version other
   * than 1, RFC 9110 §15.6.6). `message` is the error's message.
   */
  refused(req: FallbackRequest, message: string, status: RefusedStatus): PipelineResponse;
  /**
   * The answer to a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
   * for a path whose routes allow `allow`: 204 with the CORS headers. `undefined` when CORS is
   * off or the request is not a preflight (the adapter then answers 405).
   */
  preflight(req: FallbackRequest, allow: readonly string[]): PipelineResponse | undefined;
  /**
   * The answer to a request no route takes, decided once for every adapter: `methods` are those
   * of the routes whose template matches the path (the adapter's router knows them). None: 404.
   * Else the `Allow` list is those methods, with HEAD wherever GET is (RFC 9110 §9.3.2), sorted;
   * a CORS preflight (`OPTIONS`, Fetch §3.2.2) is answered 204 when CORS is on; anything else is
   * 405 with `Allow` (RFC 9110 §15.5.6).
   */
  unrouted(req: FallbackRequest, methods: Iterable<string>): PipelineResponse;
}

/** The statuses of {@link FallbackResponses.refused}. */
export type RefusedStatus = 400 | 417 | 505;

/** What the fallback answers need of a request. */
export interface FallbackRequest {
  readonly method: string;
  readonly path: string;
  /** A request header by lower-case name (for CORS). */
  header?(name: string): string | undefined;
  /** The adapter's native request, for `requestFromContext` in an `errorHandler`. */
  readonly native: unknown;
}
