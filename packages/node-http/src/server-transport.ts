/**
 * The node:http server transport: routes with find-my-way and runs `@lib/rest`'s pipeline; the
 * Node host (host.ts) listens and shuts down, request.ts and response.ts read and write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type FindMyWay from 'find-my-way';
import { DuplicateRouteError, type ParamKind, type ServeOptions, type ServerTransport } from '@lib/rest';
import { colonPath, HTTP_PARAM_KINDS, prepareFallback, type FallbackResponses, type PreparedRoute } from '@lib/rest/pipeline';
import { NodeHost, type Address, type RefuseFunc } from './host.js';
import { headerOf, NodePipelineRequest } from './request.js';
import { INTERNAL_ERROR, sendResponse } from './response.js';

/** A find-my-way router (HTTP version 1). */
export type Mux = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;

/** Options of {@link newServerTransport}. */
export interface ServerTransportOptions {
  /** A find-my-way router to register into (routes of your own stay served); default: a new one. */
  readonly mux?: Mux;
  /** `'host:port'` to listen on (port 0 picks a free one). Without it, serve `transport.listener` yourself. */
  readonly addr?: string;
  /**
   * Milliseconds a client has to send the complete request headers (default 20 000). A client
   * that is slower gets 408 and the connection is closed, so half-sent requests cannot pin
   * connections. Applies when the transport listens (`addr`).
   */
  readonly headersTimeout?: number;
  /**
   * Milliseconds a client has to send the whole request, body included (default 60 000); 408
   * after. Must not be less than `headersTimeout`; 0 disables it.
   */
  readonly requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection is kept open (default 5 000). */
  readonly keepAliveTimeout?: number;
}

let findMyWay: typeof FindMyWay | undefined;

/**
 * A new find-my-way router. find-my-way loads with the first transport that needs one, not with
 * the package: importing `@lib/node-http` for the Node host or a client does not pay for it.
 * `require` where there is one — CommonJS, and a bundle (which then carries find-my-way) —
 * `createRequire` in an ES module.
 */
function newMux(): Mux {
  findMyWay ??= (typeof require === 'function' ? require('find-my-way') : createRequire(import.meta.url)('find-my-way')) as typeof FindMyWay;
  return findMyWay({ ignoreTrailingSlash: false, maxParamLength: 500 });
}

interface RouteStore {
  readonly prepared: PreparedRoute;
}

/** A path that may hold dot segments (`.`, `..`, also percent-encoded) or backslashes. */
const DOT_SEGMENT = /\/\.|%2e|\\/i;

/**
 * `path` with its dot segments removed (RFC 3986 §5.2.4, §6.2.2.3) the way the WHATWG URL parser
 * removes them (`/x/../users` → `/users`, `%2e%2e` and `\` as `..` and `/`): what a `Request`
 * on the router adapter or any fetch runtime sees, so both adapters route the same path.
 */
function withoutDotSegments(path: string): string {
  if (!DOT_SEGMENT.test(path)) return path;
  try {
    return new URL(`http://localhost${path}`).pathname;
  } catch {
    return path;
  }
}

/**
 * The node:http server transport: routes with find-my-way, answers 404 for
 * no route and 405 with `Allow` for a wrong method, and runs `@lib/rest`'s pipeline for the rest.
 */
export class NodeServerTransport implements ServerTransport {
  readonly adapter = 'node-http';
  readonly paramKinds: ReadonlySet<ParamKind> = HTTP_PARAM_KINDS;
  readonly capabilities: ReadonlyMap<string, number> = new Map();
  /** The router the routes are registered into. */
  readonly mux: Mux;
  /** The configured address, when any. */
  readonly addr: string | undefined;
  /** A `(req, res) => void` request listener for a server of your own (`http.createServer(transport.listener)`). */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Answers a request whose `Expect` is not `100-continue` (node:http's `checkExpectation`
   * event): 417 with the JSON envelope (RFC 9110 §10.1.1). Install it on a server of your own
   * with `server.on('checkExpectation', transport.expectationListener)`.
   */
  readonly expectationListener: (req: IncomingMessage, res: ServerResponse) => void;
  readonly #methods = new Set<string>();
  readonly #host: NodeHost;
  #fallback: FallbackResponses = prepareFallback({});

  constructor(options: ServerTransportOptions = {}) {
    this.mux = options.mux ?? newMux();
    this.#host = new NodeHost(options);
    this.addr = options.addr;
    const refuse = (): RefuseFunc => (req, message, status) => this.#fallback.refused({ method: req.method ?? 'GET', path: req.url ?? '/', native: req }, message, status);
    this.listener = this.#host.listener((req, res) => this.#route(req, res), refuse);
    this.expectationListener = this.#host.expectationListener(refuse);
  }

  /** Where the server listens, once it does; `undefined` before. */
  address(): Address | undefined {
    return this.#host.address();
  }

  /** Resolves with the address once the server listens (rejects when listening fails). */
  listening(): Promise<Address> {
    return this.#host.listening();
  }

  mount(routes: readonly PreparedRoute[], fallback: FallbackResponses = prepareFallback({})): void {
    this.#fallback = fallback;
    for (const r of routes) {
      const pattern = colonPath(r.path);
      const store: RouteStore = { prepared: r };
      try {
        // find-my-way refuses a route it already has; asking it first would walk the tree twice.
        this.mux.on(r.method as FindMyWay.HTTPMethod, pattern, () => undefined, store);
      } catch (err) {
        if (this.mux.hasRoute(r.method as FindMyWay.HTTPMethod, pattern)) throw new DuplicateRouteError(`${r.method} ${r.path}`);
        throw err;
      }
      this.#methods.add(r.method);
    }
  }

  #route(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = withoutDotSegments(q === -1 ? url : url.slice(0, q));
    const rawQuery = q === -1 ? '' : url.slice(q + 1);
    let found = this.mux.find(method as FindMyWay.HTTPMethod, path);
    // RFC 9110 §9.3.2: HEAD is served wherever GET is (node:http sends no body for HEAD).
    if (found === null && method === 'HEAD') found = this.mux.find('GET', path);
    const store = found?.store as RouteStore | undefined;
    if (found === null || store?.prepared === undefined) {
      if (found !== null) {
        // A route of the user's own on a shared mux.
        found.handler(req, res, found.params, found.store, found.searchParams);
        return;
      }
      // 404, 405 with Allow, or a CORS preflight: decided by the pipeline, from the methods routed here.
      const methods = [...this.#methods].filter((m) => this.mux.find(m as FindMyWay.HTTPMethod, path) !== null);
      sendResponse(res, this.#fallback.unrouted({ method, path, native: req, header: (name: string) => headerOf(req, name) }, methods), this.#host.draining);
      return;
    }
    const params = found.params as Record<string, string | undefined>;
    store.prepared.run(new NodePipelineRequest(req, res, params, rawQuery, this.#host.tempFiles, path)).then(
      (out) => sendResponse(res, out, this.#host.draining),
      () => sendResponse(res, INTERNAL_ERROR, this.#host.draining),
    );
  }

  serve(options: ServeOptions): Promise<void> {
    return this.#host.serve(this.listener, this.expectationListener, options);
  }
}

/**
 * Builds the node:http server transport:
 * `nodeHttp.newServerTransport({ addr: '127.0.0.1:8080' })`.
 * @throws {TypeError} for a malformed `addr`, or a timeout that is not a non-negative number.
 */
export function newServerTransport(options?: ServerTransportOptions): NodeServerTransport {
  return new NodeServerTransport(options);
}
