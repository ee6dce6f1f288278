import { HTTP_PARAM_KINDS, RequestBuildError, RequestError, ResponseBodyError, type ClientExchange, type ClientReply, type ClientStreamReply, type ClientTransport, type ParamKind } from '@lib/rest';

/** A `fetch`-compatible function. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link newClientTransport}. */
export interface ClientTransportOptions {
  /** The server's base URL, `https://api.example.com/v1`; a path prefix is kept. */
  readonly baseURL: string;
  /**
   * The `fetch` to use (default: the global `fetch`), for proxies, retries, tests. It receives
   * `redirect: 'manual'` in its `init` and must not follow redirects either: the client decides
   * what a 3xx means by the route. `init.headers` is an array of `[name, value]` pairs (read it
   * with `new Headers(init.headers)`).
   */
  readonly httpClient?: FetchFunction;
}

/**
 * The HTTP client transport: sends route calls with `fetch`. Loads without any `node:` module.
 *
 * **Redirects.** It never follows a redirect: every request is sent with `redirect: 'manual'`,
 * so a 3xx (RFC 9110 §15.4) reaches the client as it was sent. The client treats a 3xx equal to
 * the route's declared success status (`rest.routeMeta({ respStatus: 302 })`) as the call's
 * result, with `Location` (RFC 9110 §10.2.2) merged in by a response header parameter, and any
 * other 3xx as an `UnexpectedStatusError`. Query entries with one key are sent as repeated
 * `key=value` pairs, in order.
 *
 * **A closed connection.** A request with an idempotent method (GET, HEAD, OPTIONS, TRACE, PUT,
 * DELETE; RFC 9110 §9.2.2) whose connection was closed or reset before any answer — a keep-alive
 * connection the server closed as idle just as the request left (RFC 9112 §9.3.1) — is sent once
 * more on a new connection. A POST or PATCH is never sent twice; its failure is a `RequestError`.
 *
 * **Browsers.** A browser's `fetch` hides redirect responses from scripts: with
 * `redirect: 'manual'` it returns an opaque-redirect response (`type: 'opaqueredirect'`, status
 * 0, no readable headers, no `Location`). The transport turns it into a `ResponseBodyError`
 * (status 0) that says so; a route that answers with a redirect can be called from Node, Deno,
 * Bun or Workers, but not usefully from a browser page.
 */
export class FetchClientTransport implements ClientTransport {
  readonly adapter = 'node-http';
  readonly paramKinds: ReadonlySet<ParamKind> = HTTP_PARAM_KINDS;
  readonly capabilities: ReadonlyMap<string, number> = new Map();
  readonly baseURL: string;
  readonly #fetch: FetchFunction | undefined;

  constructor(options: ClientTransportOptions) {
    this.baseURL = options.baseURL;
    this.#fetch = options.httpClient;
  }

  /**
   * Sends one exchange, never following a redirect (`redirect: 'manual'`), and returns the
   * status, headers and whole body of the response.
   * @throws {RequestBuildError} a malformed base URL, or a `fetch` that cannot be called.
   * @throws {RequestError} the request failed or was aborted after it was sent.
   * @throws {ResponseBodyError} the response body could not be read, or (in a browser) the
   * response is an opaque redirect, whose status and headers the browser hides (status 0).
   */
  async exchange(request: ClientExchange): Promise<ClientReply> {
    const res = await this.#send(request);
    let body: Uint8Array;
    try {
      body = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new ResponseBodyError(res.status, 'the response body could not be read', err);
    }
    return { status: res.status, headers: res.headers, body };
  }

  /**
   * As {@link FetchClientTransport.exchange}, but resolves once the response head arrived; the
   * body is read as the caller iterates it, and ending the iteration early cancels the rest.
   * @throws {RequestBuildError} as `exchange`.
   * @throws {RequestError} as `exchange`.
   * @throws {ResponseBodyError} (from the iteration) the body could not be read to its end: the
   * connection failed or the server cut an incomplete stream.
   */
  async exchangeStream(request: ClientExchange): Promise<ClientStreamReply> {
    const res = await this.#send(request);
    const stream = res.body;
    // The reader is taken at the first read, as the caller starts iterating.
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const chunks = bodyChunks(
      res.status,
      async () => (stream === null ? { done: true } : (reader ??= stream.getReader()).read()),
      async (early) => {
        if (reader === undefined) return;
        if (early) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      },
    );
    return { status: res.status, headers: res.headers, body: chunks };
  }

  /** `origin` + path prefix of the base URL, parsed on first use. */
  #base: string | undefined;

  /** @throws {RequestBuildError} a malformed base URL (parsed again on each call: it is not kept). */
  #baseOf(): string {
    if (this.#base === undefined) {
      const { origin, prefix } = parseBaseURL(this.baseURL);
      this.#base = origin + prefix;
    }
    return this.#base;
  }

  async #send(request: ClientExchange): Promise<Response> {
    // A styled parameter's pairs are sent as the client wrote them (`ids=3,4,5`), not form-encoded again.
    const query = request.encodedQuery !== undefined ? (request.encodedQuery === '' ? '' : `?${request.encodedQuery}`) : request.query.length === 0 ? '' : `?${new URLSearchParams(request.query as [string, string][]).toString()}`;
    const target = `${this.#baseOf()}${request.path}${query}`;
    const fetchFn = this.#fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw new RequestBuildError('no fetch function is available');
    const init: RequestInit = {
      method: request.method,
      headers: request.headers as [string, string][],
      redirect: 'manual',
      ...(request.body !== undefined && { body: request.body }),
      ...(request.signal !== undefined && { signal: request.signal }),
    };
    let res: Response;
    try {
      res = await fetchFn(target, init);
    } catch (err) {
      if (!mayResend(request, err)) throw new RequestError(`${request.method} ${request.path} failed`, err);
      try {
        res = await fetchFn(target, init);
      } catch (again) {
        throw new RequestError(`${request.method} ${request.path} failed (sent twice: the first connection was closed before an answer)`, again);
      }
    }
    if (res.type === 'opaqueredirect') {
      throw new ResponseBodyError(
        0,
        `${request.method} ${request.path}: the server answered with a redirect, and browsers hide redirect responses from scripts (fetch with redirect: 'manual' gives an opaque-redirect response without status or Location); call this route from a server-side runtime`,
      );
    }
    return res;
  }
}

/** Methods whose request may be sent again without changing what it does (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
/**
 * Error codes of a connection that was closed or reset before any answer came: a keep-alive
 * connection the server closed as idle just as the request went out (RFC 9112 §9.3.1).
 */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * True when a failed request may be sent once more: its method is idempotent (RFC 9110 §9.2.2;
 * RFC 9112 §9.3.1 lets a client retry such a request when the connection closed before the
 * answer), the failure is a closed or reset connection (not an abort, a time-out or a refused
 * connection), and the caller has not aborted. A non-idempotent request (POST, PATCH) is never
 * sent twice: whether it was processed cannot be known. Shared by the fetch and undici transports.
 * @internal
 */
export function mayResend(request: ClientExchange, err: unknown): boolean {
  if (!IDEMPOTENT.has(request.method) || request.signal?.aborted === true) return false;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CLOSED_CODES.has(code)) return true;
  }
  return false;
}

/**
 * A response body's chunks as a transport reads them: `next` gives each one; a failure while
 * reading is a `ResponseBodyError` (the connection failed or the server cut an incomplete
 * stream); `end` runs once, told whether the caller left before the end (then the rest is
 * cancelled). Shared by the fetch and undici transports.
 * @internal
 */
export async function* bodyChunks(
  status: number,
  next: () => Promise<{ readonly done?: boolean | undefined; readonly value?: Uint8Array | undefined }>,
  end: (early: boolean) => void | Promise<void>,
): AsyncGenerator<Uint8Array, void, undefined> {
  let done = false;
  try {
    for (;;) {
      let chunk: { readonly done?: boolean | undefined; readonly value?: Uint8Array | undefined };
      try {
        chunk = await next();
      } catch (err) {
        throw new ResponseBodyError(status, 'the response body could not be read to its end', err);
      }
      if (chunk.done === true) {
        done = true;
        return;
      }
      yield chunk.value as Uint8Array;
    }
  } finally {
    await end(!done);
  }
}

/**
 * The origin and path prefix (no trailing `/`) of a transport's base URL.
 * @throws {RequestBuildError} a malformed base URL, or one that is not `http:` or `https:`.
 * @internal
 */
export function parseBaseURL(baseURL: string): { readonly origin: string; readonly prefix: string } {
  let url: URL;
  try {
    url = new URL(baseURL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
  } catch (err) {
    throw new RequestBuildError(`invalid base URL ${JSON.stringify(baseURL)}`, err);
  }
  return { origin: url.origin, prefix: url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname };
}

/**
 * Builds the HTTP client transport: `nodeHttp.newClientTransport({ baseURL: 'http://127.0.0.1:8080' })`.
 * It never follows redirects; see {@link FetchClientTransport} for what that means in browsers.
 */
export function newClientTransport(options: ClientTransportOptions): FetchClientTransport {
  return new FetchClientTransport(options);
}
