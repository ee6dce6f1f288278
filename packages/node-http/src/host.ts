/**
 * The Node host: a node:http server around a transport's request listener — listening, timeouts,
 * total listeners, and graceful shutdown.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ServeOptions } from '@lib/rest';
import type { PipelineResponse, RefusedStatus, TempFileStore } from '@lib/rest/pipeline';
import { clientErrorListener, connectListener, isAnswering, stillReceiving, track } from './connections.js';
import { INTERNAL_ERROR, sendResponse } from './response.js';
import { closeFileStores } from './streams.js';

/** Default {@link NodeHostOptions.headersTimeout}: 20 s. */
export const DEFAULT_HEADERS_TIMEOUT = 20_000;
/** Default {@link NodeHostOptions.requestTimeout}: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;
/** Default {@link NodeHostOptions.keepAliveTimeout}: 5 s. */
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

/** Parses `'host:port'` (`'[::1]:8080'` for IPv6). @throws {TypeError} for anything else. */
export function parseAddr(addr: string): Address {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(addr);
  const port = m === null ? NaN : Number(m[3]);
  if (m === null || port > 65535) throw new TypeError(`invalid addr ${JSON.stringify(addr)}: expected 'host:port'`);
  return { host: m[1] ?? (m[2] === '' ? '127.0.0.1' : (m[2] as string)), port };
}

/** What the Node host needs of a transport: the answer to a request refused before routing. */
export type RefuseFunc = (req: IncomingMessage, message: string, status: RefusedStatus) => PipelineResponse;

/** Options of {@link NodeHost}: where to listen and node:http's timeouts, in milliseconds. */
export interface NodeHostOptions {
  /** `'host:port'` to listen on (port 0 picks a free one). */
  readonly addr?: string | undefined;
  /** Milliseconds a client has to send the complete request headers (default 20 000); 408 after. */
  readonly headersTimeout?: number | undefined;
  /** Milliseconds a client has to send the whole request (default 60 000; 0 disables it); 408 after. */
  readonly requestTimeout?: number | undefined;
  /** Milliseconds an idle keep-alive connection is kept open (default 5 000). */
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
        for (const socket of open) if (!isAnswering(socket) || stillReceiving(socket)) socket.destroy();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    // Every connection is closed: the requests' uploads are deleted before `serve` resolves
    // (a connection cut at the deadline tells its response only later).
    await closeFileStores(this.tempFiles);
  }
}
