import type { TransportCoverage } from '../declare/coverage.js';
import type { FallbackResponses, PreparedRoute } from './pipeline/exchange.js';

/**
 * A server transport: receives the prepared
 * routes and serves them. Adapters translate their native request and response into the
 * pipeline's and hold no logic of their own.
 */
export interface ServerTransport extends TransportCoverage {
  /**
   * Wires the routes into the adapter's router; `fallback` gives the answers for requests no
   * route takes (404, 405), built from the builder's default options.
   * @throws {DuplicateRouteError} when two routes share method and path.
   */
  mount(routes: readonly PreparedRoute[], fallback: FallbackResponses): void;
  /**
   * Serves: with an address, listens and resolves once `signal` aborted and in-flight requests
   * drained, or `shutdownTimeout` milliseconds after the abort at the latest, when whatever is
   * left is closed — in both cases only after every request's temporary files (`codec.blob()`
   * uploads) are deleted; without one, resolves at once (the user serves the adapter's handler).
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
