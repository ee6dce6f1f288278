import { createServer, STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import FindMyWay from 'find-my-way';
import { BodyTooLargeError, DuplicateRouteError, type ParamKind, type ServeOptions, type ServerTransport } from '@lib/rest';
import {
  colonPath,
  errorEnvelopeResponse,
  HTTP_PARAM_KINDS,
  prepareFallback,
  type FallbackResponses,
  type PipelineRequest,
  type PipelineResponse,
  type PreparedRoute,
  type RefusedStatus,
  type TempFileStore,
} from '@lib/rest/pipeline';
import { bodyStream, closeFileStores, pipeBody, requestFileStore } from './streams.js';
import type { FileStore } from '@lib/format';

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

/** Default {@link ServerTransportOptions.headersTimeout}: 20 s. */
export const DEFAULT_HEADERS_TIMEOUT = 20_000;
/** Default {@link ServerTransportOptions.requestTimeout}: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;
/** Default {@link ServerTransportOptions.keepAliveTimeout}: 5 s. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT = 5_000;

function timeoutOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a non-negative number of milliseconds, got ${String(value)}`);
  return value;
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

/** A request header by lower-case name; repeated headers joined with `, ` (RFC 9110 §5.3). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * A node:http request as the pipeline reads it: one object per request, its methods on the
 * prototype; the `AbortSignal` and the file store are created on first use only (most handlers
 * never read `ctx.signal`, most requests upload no file).
 */
class NodePipelineRequest implements PipelineRequest {
  readonly method: string;
  readonly pathParams: Record<string, string | undefined>;
  readonly rawQuery: string;
  readonly native: IncomingMessage;
  readonly #res: ServerResponse;
  /** The host's stores with files to delete, which the file store joins. */
  readonly #live: Set<TempFileStore>;
  #controller: AbortController | undefined;
  #files: FileStore | undefined;
  #fetchRequest: Request | undefined;
  constructor(req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>, rawQuery: string, live: Set<TempFileStore>) {
    this.method = req.method ?? 'GET';
    this.pathParams = params;
    this.rawQuery = rawQuery;
    this.native = req;
    this.#res = res;
    this.#live = live;
  }
  header(name: string): string | undefined {
    return headerOf(this.native, name);
  }
  readBody(limit: number): Promise<Uint8Array> {
    return readBody(this.native, limit);
  }
  bodyStream(limit: number): AsyncIterable<Uint8Array> {
    return bodyStream(this.native, limit);
  }
  get files(): FileStore {
    return (this.#files ??= requestFileStore(this.#res, this.#live));
  }
  fetchRequest(): Request {
    return (this.#fetchRequest ??= fetchRequestOf(this.native));
  }
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const c = new AbortController();
      this.#controller = c;
      const res = this.#res;
      const gone = (): void => {
        if (!res.writableFinished) c.abort(new Error('client closed the connection'));
      };
      if (res.destroyed) gone();
      else res.once('close', gone);
    }
    return this.#controller.signal;
  }
}

/**
 * A node:http request as a fetch `Request` without its body: method, absolute URL (`http://`,
 * or `https://` on a TLS socket, and the `Host` header) and headers (repeated ones as they came).
 */
export function fetchRequestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header fetch refuses (a name or value outside its grammar) is left out of the view.
    }
  }
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  let url: string;
  try {
    // Concatenated, not resolved: a target such as `//other.host/x` stays a path of this host.
    url = new URL(`${tls ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`).href;
  } catch {
    url = `${tls ? 'https' : 'http'}://localhost/`;
  }
  const method = req.method ?? 'GET';
  // fetch refuses CONNECT, TRACE and TRACK: the view names such a request GET.
  return new Request(url, { method: /^(CONNECT|TRACE|TRACK)$/i.test(method) ? 'GET' : method, headers });
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
 * Writes a pipeline response to a node:http response, status and headers in one `writeHead`.
 * `close` asks the client to close the connection (while draining). A response written before
 * the request's body was read to its end (404, 405, 406, 415, 413, or a route that reads no body)
 * is sent with `Connection: close`: node:http then stops reading the upload and closes the
 * connection once the response is out, instead of reading and discarding the rest of it.
 * @throws {TypeError} when node:http refuses a header (the pipeline checks every value first,
 * so this means a bug; {@link sendResponse} turns it into a 500).
 */
export function writeResponse(res: ServerResponse, out: PipelineResponse, close: boolean): void {
  const raw: string[] = [];
  for (const [k, v] of out.headers) {
    if (k === 'connection' || k === 'content-length') continue;
    raw.push(k, v);
  }
  const body = out.body;
  const text = typeof body === 'string';
  const streamed = body !== undefined && !text && !(body instanceof Uint8Array);
  // A streamed body has no length up front: node:http sends it chunked (RFC 9112 §7.1).
  if (out.status !== 204 && out.status !== 304 && !streamed) raw.push('content-length', String(body === undefined ? 0 : text ? Buffer.byteLength(body) : body.byteLength));
  if (close || out.status === 413 || unreadBody(res.req)) raw.push('connection', 'close');
  res.writeHead(out.status, raw);
  if (streamed) void pipeBody(res, body, res.req.method === 'HEAD');
  // A string goes out as UTF-8 in the same write as the head.
  else if (text) res.end(body, 'utf8');
  else res.end(body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

const INTERNAL_ERROR = errorEnvelopeResponse(500, 'internal server error');

/**
 * For a request listener that writes its own responses (a fetch-style adapter): the response
 * gets `Connection: close` when it is written before the request's body was read to its end, or
 * while the server drains — as {@link writeResponse} does — so node:http stops reading an
 * upload nobody will read, and closes the connection after the answer.
 */
export function closeUnreadBodies(req: IncomingMessage, res: ServerResponse, draining: () => boolean): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    try {
      if (!res.headersSent && (draining() || unreadBody(req))) res.setHeader('connection', 'close');
    } catch {
      // A header that cannot be set changes nothing else.
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * True when the request has a body (RFC 9112 §6.3: `Transfer-Encoding`, or a non-zero
 * `Content-Length`) that node:http has not received to its end. A bodiless request answered
 * synchronously is not yet marked `complete`, hence the header check.
 */
function unreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Writes a pipeline response and never throws: when node:http refuses the response before
 * anything was sent, the client gets the 500 envelope instead; when even that is impossible, or
 * part of the response already left, the connection is destroyed.
 */
export function sendResponse(res: ServerResponse, out: PipelineResponse, close: boolean): void {
  try {
    writeResponse(res, out, close);
    return;
  } catch {
    // Fall through: answer 500 if nothing went out.
  }
  try {
    if (!res.headersSent && !res.writableEnded) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      writeResponse(res, INTERNAL_ERROR, true);
      return;
    }
  } catch {
    // Fall through: destroy.
  }
  res.destroy();
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

/** Requests of a connection being answered by a transport's listener, by socket. */
const answering = new WeakMap<object, number>();
/** A parse-error answer waiting for the connection's earlier (pipelined) requests to be answered. */
const deferred = new WeakMap<object, () => void>();
/** The last request a transport's listener received on each connection. */
const lastRequest = new WeakMap<object, IncomingMessage>();

/**
 * Counts `req` as being answered on its connection until `res` closes; then, with nothing left
 * to answer, runs a deferred parse-error answer, or `whenIdle` (closing while draining).
 */
function track(req: IncomingMessage, res: ServerResponse, whenIdle?: (socket: Socket) => void): void {
  const socket = req.socket;
  if (!answering.has(socket)) lingerOnClose(socket);
  answering.set(socket, (answering.get(socket) ?? 0) + 1);
  lastRequest.set(socket, req);
  res.once('close', () => {
    const n = (answering.get(socket) ?? 1) - 1;
    answering.set(socket, n);
    if (n > 0) return;
    const next = deferred.get(socket);
    if (next !== undefined) {
      deferred.delete(socket);
      next();
    } else whenIdle?.(socket);
  });
}

/** How long a connection closed before its request's body arrived goes on reading it: 2 s. */
const LINGER_MS = 2000;

/**
 * Makes `socket` close in stages when it is closed (`destroySoon`, what node:http does after a
 * `Connection: close` answer) while the client is still sending the request's body — an early
 * 401, 413 or 415, or a route that reads no body (RFC 9112 §9.6): the answer goes out with a FIN,
 * and the rest of the upload is read and dropped until the client closes its side, or for
 * {@link LINGER_MS} at most. Destroying the socket with the upload still arriving would send a
 * reset, which can make the client lose the answer it has not read yet. A connection whose
 * request was received whole closes as before.
 */
function lingerOnClose(socket: Socket): void {
  const destroySoon = socket.destroySoon;
  if (typeof destroySoon !== 'function') return;
  socket.destroySoon = function lingeringDestroySoon(this: Socket): void {
    const req = lastRequest.get(socket);
    if (req === undefined || req.complete || socket.destroyed || !socket.readable) {
      destroySoon.call(this);
      return;
    }
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // The client's FIN: it has stopped sending, and read the answer before it closed.
    socket.once('end', () => socket.destroy());
    socket.end();
    // Whatever still arrives is read and dropped, whoever was reading the body.
    req.removeAllListeners('data');
    req.resume();
    socket.resume();
  };
}

/** True when the transport's listeners are answering a request on `socket`. */
function isAnswering(socket: object): boolean {
  return (answering.get(socket) ?? 0) > 0;
}

/** Writes a whole JSON error response on a raw socket and closes it. Never throws. */
function answerRaw(socket: Duplex, status: number, message?: string): void {
  try {
    if (socket.writable) {
      const phrase = STATUS_CODES[status] ?? 'Bad Request';
      const body = JSON.stringify({ error: message ?? phrase.toLowerCase() });
      socket.end(`HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      (socket as Partial<Socket>).destroySoon?.();
      return;
    }
  } catch {
    // Fall through: destroy.
  }
  socket.destroy();
}

/**
 * Answers a request node:http could not parse (a `clientError`): malformed request lines or
 * headers, smuggling attempts (`Content-Length` with `Transfer-Encoding`, bad chunking), headers
 * over the size limit (431) or too slow (408). The answer is the JSON envelope of that status
 * with `Connection: close`; then the connection is closed. Requests that arrived before the bad
 * one on the same keep-alive connection (pipelining) are answered first, in order (RFC 9112
 * §9.3.2); if a response has already started and cannot be finished, the connection is destroyed
 * instead, so a peer is never sent a corrupted stream. Never throws. Install it on a server of
 * your own with `server.on('clientError', clientErrorListener)`.
 */
export function clientErrorListener(err: Error & { readonly code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || deferred.has(socket)) {
    if (!deferred.has(socket)) socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408
    : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413
    : 400;
  if (isAnswering(socket) && err.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && lastRequest.get(socket)?.complete === true) {
    // Earlier, complete requests on this connection are still being answered: answer them first.
    // (When the error is inside the body of the request being answered, that request can never
    // complete: it is answered now, below.)
    deferred.set(socket, () => answerRaw(socket, status));
    return;
  }
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent === true) socket.destroy();
  else answerRaw(socket, status);
}

/**
 * Answers a `CONNECT` request (node:http hands it over as a raw socket, the `connect` event):
 * this is an origin server, not a proxy, so 501 with the JSON envelope, then the connection is
 * closed. Install it on a server of your own with `server.on('connect', connectListener)`.
 */
export function connectListener(_req: IncomingMessage, socket: Duplex): void {
  answerRaw(socket, 501, 'CONNECT is not supported');
}

/** What the Node host needs of a transport: the answer to a request refused before routing. */
export type RefuseFunc = (req: IncomingMessage, message: string, status: RefusedStatus) => PipelineResponse;

/** Options of {@link NodeHost}: where to listen and node:http's timeouts, in milliseconds. */
export interface NodeHostOptions {
  readonly addr?: string | undefined;
  readonly headersTimeout?: number | undefined;
  readonly requestTimeout?: number | undefined;
  readonly keepAliveTimeout?: number | undefined;
}

/**
 * A node:http server for a transport's request listener, shared by the adapters that serve on
 * Node (`@lib/node-http`, and `@lib/router-adapter` with an `addr`): total listeners, JSON
 * envelopes for requests node:http cannot parse, timeouts, and graceful shutdown. The transport
 * gives the routing; the host gives everything around it.
 */
export class NodeHost {
  /** The configured address, when any. */
  readonly addr: string | undefined;
  #draining = false;
  /** Closes a connection whose last request was answered while the server drains. */
  readonly #whenIdle = (socket: Socket): void => {
    if (this.#draining && !socket.destroyed) socket.destroySoon();
  };
  readonly #timeouts: { readonly headersTimeout: number; readonly requestTimeout: number; readonly keepAliveTimeout: number };
  #server: HttpServer | undefined;
  #address: Address | undefined;
  /**
   * The temporary-file stores of the requests served (`newTempFileStore(fs, dir,
   * host.tempFiles)`) whose files are not deleted yet: {@link NodeHost.serve} closes those left
   * and resolves only once their files are gone.
   */
  readonly tempFiles: Set<TempFileStore> = new Set<TempFileStore>();
  readonly #listening: Promise<Address>;
  #resolveListening!: (a: Address) => void;
  #rejectListening!: (e: unknown) => void;

  /** @throws {TypeError} for a malformed `addr`, or a timeout that is not a non-negative number. */
  constructor(options: NodeHostOptions = {}) {
    this.addr = options.addr;
    if (options.addr !== undefined) parseAddr(options.addr);
    this.#timeouts = {
      headersTimeout: timeoutOption('headersTimeout', options.headersTimeout, DEFAULT_HEADERS_TIMEOUT),
      requestTimeout: timeoutOption('requestTimeout', options.requestTimeout, DEFAULT_REQUEST_TIMEOUT),
      keepAliveTimeout: timeoutOption('keepAliveTimeout', options.keepAliveTimeout, DEFAULT_KEEP_ALIVE_TIMEOUT),
    };
    const { headersTimeout, requestTimeout } = this.#timeouts;
    if (requestTimeout > 0 && headersTimeout > requestTimeout) {
      throw new TypeError(`headersTimeout (${headersTimeout} ms) must not exceed requestTimeout (${requestTimeout} ms)`);
    }
    this.#listening = new Promise<Address>((resolve, reject) => {
      this.#resolveListening = resolve;
      this.#rejectListening = reject;
    });
    this.#listening.catch(() => undefined);
  }

  /** True once a shutdown started: answers then carry `Connection: close`. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Where the server listens, once it does; `undefined` before. */
  address(): Address | undefined {
    return this.#address;
  }

  /** Resolves with the address once the server listens (rejects when listening fails). */
  listening(): Promise<Address> {
    return this.#listening;
  }

  /**
   * A total request listener around `route`: the request is tracked for graceful shutdown,
   * HTTP/2+ request lines get 505 and an HTTP/1.1 request without `Host` 400 (answered by
   * `refuse`), and nothing `route` throws reaches node:http (a 500 instead).
   */
  listener(route: (req: IncomingMessage, res: ServerResponse) => void, refuse: () => RefuseFunc): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      // Every request a listener sees is answered and nothing it does throws into node:http.
      try {
        track(req, res, this.#whenIdle);
        const refusal =
          // RFC 9110 §15.6.6: this is an HTTP/1 server (node:http parses `HTTP/2.0` request lines too).
          req.httpVersionMajor !== 1 ? (['HTTP version not supported', 505] as const)
          // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400 (node:http's own answer has no body).
          : req.headers.host === undefined && req.httpVersionMinor >= 1 ? (['missing Host header', 400] as const)
          : undefined;
        if (refusal !== undefined) {
          sendResponse(res, refuse()(req, refusal[0], refusal[1]), true);
          return;
        }
        route(req, res);
      } catch {
        sendResponse(res, INTERNAL_ERROR, true);
      }
    };
  }

  /** The `checkExpectation` listener: 417 with the JSON envelope (RFC 9110 §10.1.1). */
  expectationListener(refuse: () => RefuseFunc): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      try {
        track(req, res, this.#whenIdle);
        sendResponse(res, refuse()(req, 'expectation failed', 417), true);
      } catch {
        res.destroy();
      }
    };
  }

  /**
   * Listens on `addr` with `listener` and resolves once `signal` aborted and in-flight requests
   * drained, or `shutdownTimeout` ms after the abort at the latest (when every connection left is
   * destroyed), and in both cases only once the temporary files of every request are deleted
   * ({@link NodeHost.tempFiles}). Resolves at once without `addr`.
   * @throws {Error} when already serving, or listening fails.
   */
  async serve(listener: (req: IncomingMessage, res: ServerResponse) => void, expectationListener: (req: IncomingMessage, res: ServerResponse) => void, options: ServeOptions): Promise<void> {
    if (this.addr === undefined) return;
    if (this.#server !== undefined) throw new Error('this transport is already serving');
    const { signal, shutdownTimeout = 10_000 } = options;
    const { host, port } = parseAddr(this.addr);
    const { headersTimeout, requestTimeout, keepAliveTimeout } = this.#timeouts;
    // node:http enforces the header and request timeouts on a timer (30 s by default): check a few
    // times per timeout, so a slow client is cut close to its deadline.
    const enforced = [headersTimeout, requestTimeout].filter((t) => t > 0);
    const connectionsCheckingInterval = enforced.length === 0 ? 30_000 : Math.min(1000, Math.max(50, Math.min(...enforced) / 4));
    // requireHostHeader: false — the listener answers a missing Host itself, with the JSON envelope.
    const server = createServer({ headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval, requireHostHeader: false }, listener);
    server.on('clientError', clientErrorListener);
    server.on('connect', connectListener);
    server.on('checkExpectation', expectationListener);
    // At shutdown, a connection with no request being answered (idle, or still sending its
    // headers) is closed at once; the others once their last answer is out (#whenIdle).
    const open = new Set<Socket>();
    server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
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
      if (signal === undefined) return;
      const stop = (): void => {
        this.#draining = true;
        // Kept referenced: a process whose only connections are paused (not reading) must still
        // wait for the deadline, so that `serve` resolves instead of the process just ending.
        const deadline = setTimeout(() => {
          // Whatever is still open at the deadline is cut, and `serve` resolves.
          server.closeAllConnections();
          for (const socket of open) socket.destroy();
          resolve();
        }, shutdownTimeout);
        server.close(() => {
          clearTimeout(deadline);
          resolve();
        });
        // Closed at once: idle connections, and those still sending their request (headers or
        // body): a client holding half a request cannot hold the shutdown.
        for (const socket of open) if (!isAnswering(socket) || lastRequest.get(socket)?.complete === false) socket.destroy();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    // Every connection is closed: the requests' uploads are deleted before `serve` resolves
    // (a connection cut at the deadline tells its response only later).
    await closeFileStores(this.tempFiles);
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
    this.mux = options.mux ?? FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 500 });
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
    store.prepared.run(new NodePipelineRequest(req, res, params, rawQuery, this.#host.tempFiles)).then(
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
