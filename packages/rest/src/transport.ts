import type { ParamKind } from './params.js';
import type { FallbackResponses, PreparedRoute } from './pipeline/prepare.js';

/**
 * A server transport: receives the prepared
 * routes and serves them. Adapters translate their native request and response into the
 * pipeline's and hold no logic of their own.
 */
export interface ServerTransport {
  /** The adapter's name, for error messages (`node-http`, `router-adapter`). */
  readonly adapter: string;
  /** The parameter kinds the adapter implements. */
  readonly paramKinds: ReadonlySet<ParamKind>;
  /** Capability levels the adapter supplies (`qos`, `hwm`); the HTTP adapters supply none. */
  readonly capabilities: ReadonlyMap<string, number>;
  /**
   * Wires the routes into the adapter's router; `fallback` gives the answers for requests no
   * route takes (404, 405), built from the builder's default options.
   * @throws {DuplicateRouteError} when two routes share method and path.
   */
  mount(routes: readonly PreparedRoute[], fallback: FallbackResponses): void;
  /**
   * Serves: with an address, listens and resolves once `signal` aborted and in-flight requests
   * drained, or `shutdownTimeout` milliseconds after the abort at the latest, when whatever is
   * left is closed; without one, resolves at once (the user serves the adapter's handler).
   */
  serve(options: ServeOptions): Promise<void>;
}

/** Options of `api.serve`. */
export interface ServeOptions {
  /** Aborting it starts a graceful shutdown. Without it the server runs until the process ends. */
  readonly signal?: AbortSignal | undefined;
  /**
   * How long a graceful shutdown may take, in milliseconds (default 10 000). On abort the server
   * stops accepting connections, closes idle keep-alive connections and connections that have not
   * delivered a whole request, and answers in-flight requests with `Connection: close`; at the
   * deadline every remaining connection is destroyed and `serve` resolves.
   */
  readonly shutdownTimeout?: number;
}

/** Default `shutdownTimeout`: 10 seconds. */
export const DEFAULT_SHUTDOWN_TIMEOUT = 10_000;

/** An HTTP request as the client engine hands it to a transport. */
export interface ClientExchange {
  /** Upper-case method. */
  readonly method: string;
  /** The concrete, percent-encoded path (starts with `/`); the transport prefixes its base URL. */
  readonly path: string;
  /** Query entries, in order. */
  readonly query: readonly (readonly [string, string])[];
  /** Request headers, including `Cookie`, `Content-Type` and `Accept`. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, for methods with one. */
  readonly body: Uint8Array | undefined;
  readonly signal: AbortSignal | undefined;
}

/** The response a transport gives back. */
export interface ClientReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/**
 * A client transport: sends one exchange. It throws
 * `RequestBuildError` when nothing was sent, `RequestError` for a transport failure after
 * sending, `ResponseBodyError` when the body cannot be read.
 */
export interface ClientTransport {
  readonly adapter: string;
  readonly paramKinds: ReadonlySet<ParamKind>;
  readonly capabilities: ReadonlyMap<string, number>;
  exchange(request: ClientExchange): Promise<ClientReply>;
  /**
   * Sends one exchange and resolves once the response head arrived, with the body still
   * streaming (for streamed response formats: NDJSON exports, event streams). Optional: without
   * it the client reads whole bodies through {@link ClientTransport.exchange}. Errors as `exchange`;
   * reading the body may throw `ResponseBodyError`.
   */
  exchangeStream?(request: ClientExchange): Promise<ClientStreamReply>;
}

/** A response whose body is read as it arrives. */
export interface ClientStreamReply {
  readonly status: number;
  readonly headers: Headers;
  /** The body's chunks. Ending the iteration early (`break`, `return()`) cancels the rest. */
  readonly body: AsyncIterable<Uint8Array>;
}

/** The parameter kinds of an HTTP adapter: all of them. */
export const HTTP_PARAM_KINDS: ReadonlySet<ParamKind> = new Set<ParamKind>(['path', 'query', 'header', 'cookie', 'responseHeader', 'responseCookie']);
