import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import { BodyTooLargeError, DuplicateRouteError, type ParamKind, type ServerTransport } from '@lib/rest';
import { colonPath, errorEnvelopeResponse, HTTP_PARAM_KINDS, type PipelineRequest, type PipelineResponse, type PreparedRoute } from '@lib/rest/pipeline';

/** A find-my-way router (HTTP version 1). */
export type Mux = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;

/** Options of {@link newServerTransport} (SPEC.md `nethttp.ServerTransportOptions`). */
export interface ServerTransportOptions {
  /** A find-my-way router to register into (routes of your own stay served); default: a new one. */
  readonly mux?: Mux;
  /** `'host:port'` to listen on (port 0 picks a free one). Without it, serve `transport.listener` yourself. */
  readonly addr?: string;
}

/** Where the transport listens. */
export interface Address {
  readonly host: string;
  /** The bound port (the real one when `addr` asked for port 0). */
  readonly port: number;
}

interface RouteStore {
  readonly prepared: PreparedRoute;
}

/** Parses `'host:port'` (`'[::1]:8080'` for IPv6). @throws {TypeError} for anything else. */
export function parseAddr(addr: string): Address {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(addr);
  const port = m === null ? NaN : Number(m[3]);
  if (m === null || port > 65535) throw new TypeError(`invalid addr ${JSON.stringify(addr)}: expected 'host:port'`);
  return { host: m[1] ?? (m[2] === '' ? '127.0.0.1' : (m[2] as string)), port };
}

function pipelineRequest(req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>, rawQuery: string): PipelineRequest {
  let controller: AbortController | undefined;
  return {
    method: req.method ?? 'GET',
    pathParams: params,
    rawQuery,
    header(name: string): string | undefined {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    readBody: (limit) => readBody(req, limit),
    // Created on first use only: most handlers never read ctx.signal.
    get signal(): AbortSignal {
      if (controller === undefined) {
        const c = new AbortController();
        controller = c;
        const gone = (): void => {
          if (!res.writableFinished) c.abort(new Error('client closed the connection'));
        };
        if (res.destroyed) gone();
        else res.once('close', gone);
      }
      return controller.signal;
    },
    native: req,
  };
}

/**
 * Reads a request body up to `limit` bytes. A declared `Content-Length` over the limit fails at
 * once without reading; otherwise reading stops at the first chunk past the limit, so an
 * oversized body is never held whole.
 * @throws {BodyTooLargeError}
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onAborted = (): void => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * Writes a pipeline response to a node:http response. `close` asks the client to close the
 * connection (while draining); a 413 also discards the rest of the upload and closes.
 */
export function writeResponse(res: ServerResponse, out: PipelineResponse, close: boolean): void {
  res.statusCode = out.status;
  const cookies: string[] = [];
  for (const [k, v] of out.headers) {
    if (k === 'set-cookie') cookies.push(v);
    else res.setHeader(k, v);
  }
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  const body = out.body;
  if (out.status !== 204 && out.status !== 304) res.setHeader('content-length', body?.byteLength ?? 0);
  if (close || out.status === 413) res.setHeader('connection', 'close');
  if (out.status === 413) {
    // Stop the upload of an oversized body: discard what is in flight, then close.
    res.on('finish', () => res.req.socket?.destroySoon());
    res.req.resume();
  }
  res.end(body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

/**
 * The node:http server transport (SPEC.md `nethttp`): routes with find-my-way, answers 404 for
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
  readonly #methods = new Set<string>();
  #draining = false;
  #server: HttpServer | undefined;
  #address: Address | undefined;
  readonly #listening: Promise<Address>;
  #resolveListening!: (a: Address) => void;
  #rejectListening!: (e: unknown) => void;

  constructor(options: ServerTransportOptions = {}) {
    this.mux = options.mux ?? FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 500 });
    this.addr = options.addr;
    if (options.addr !== undefined) parseAddr(options.addr);
    this.#listening = new Promise<Address>((resolve, reject) => {
      this.#resolveListening = resolve;
      this.#rejectListening = reject;
    });
    this.#listening.catch(() => undefined);
    this.listener = (req, res) => this.#handle(req, res);
  }

  /** Where the server listens, once it does; `undefined` before. */
  address(): Address | undefined {
    return this.#address;
  }

  /** Resolves with the address once the server listens (rejects when listening fails). */
  listening(): Promise<Address> {
    return this.#listening;
  }

  mount(routes: readonly PreparedRoute[]): void {
    for (const r of routes) {
      const pattern = colonPath(r.path);
      if (this.mux.hasRoute(r.method as FindMyWay.HTTPMethod, pattern)) throw new DuplicateRouteError(`${r.method} ${r.path}`);
      const store: RouteStore = { prepared: r };
      this.mux.on(r.method as FindMyWay.HTTPMethod, pattern, () => undefined, store);
      this.#methods.add(r.method);
    }
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
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
      const allow = [...this.#methods].filter((m) => this.mux.find(m as FindMyWay.HTTPMethod, path) !== null);
      if (allow.includes('GET') && !allow.includes('HEAD')) allow.push('HEAD');
      if (allow.length === 0) writeResponse(res, errorEnvelopeResponse(404, 'not found'), this.#draining);
      else writeResponse(res, errorEnvelopeResponse(405, 'method not allowed', [['allow', allow.sort().join(', ')]]), this.#draining);
      return;
    }
    const params = found.params as Record<string, string | undefined>;
    store.prepared
      .run(pipelineRequest(req, res, params, rawQuery))
      .then(
        (out) => writeResponse(res, out, this.#draining),
        () => writeResponse(res, errorEnvelopeResponse(500, 'internal server error'), this.#draining),
      );
  }

  async serve(signal: AbortSignal | undefined): Promise<void> {
    if (this.addr === undefined) return;
    if (this.#server !== undefined) throw new Error('this transport is already serving');
    const { host, port } = parseAddr(this.addr);
    const server = createServer(this.listener);
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((err: unknown) => {
      this.#rejectListening(err);
      throw err;
    });
    const bound = server.address();
    this.#address = typeof bound === 'object' && bound !== null ? { host: bound.address, port: bound.port } : { host, port };
    this.#resolveListening(this.#address);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        this.#draining = true;
        server.close(() => resolve());
        server.closeIdleConnections();
      };
      if (signal === undefined) return;
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/**
 * Builds the node:http server transport (SPEC.md `nethttp.NewServerTransport`):
 * `nodeHttp.newServerTransport({ addr: '127.0.0.1:8080' })`.
 * @throws {TypeError} for a malformed `addr`.
 */
export function newServerTransport(options?: ServerTransportOptions): NodeServerTransport {
  return new NodeServerTransport(options);
}
