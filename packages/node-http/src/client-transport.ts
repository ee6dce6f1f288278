import { HTTP_PARAM_KINDS, RequestBuildError, RequestError, ResponseBodyError, type ClientExchange, type ClientReply, type ClientTransport, type ParamKind } from '@lib/rest';

/** A `fetch`-compatible function. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link newClientTransport} (SPEC.md `nethttp.ClientTransportOptions`). */
export interface ClientTransportOptions {
  /** The server's base URL, `https://api.example.com/v1`; a path prefix is kept. */
  readonly baseURL: string;
  /** The `fetch` to use (default: the global `fetch`), for proxies, retries, tests. */
  readonly httpClient?: FetchFunction;
}

/** The HTTP client transport: sends route calls with `fetch`. Loads without any `node:` module. */
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
   * Sends one exchange.
   * @throws {RequestBuildError} a malformed base URL, or a `fetch` that cannot be called.
   * @throws {RequestError} the request failed or was aborted after it was sent.
   * @throws {ResponseBodyError} the response body could not be read.
   */
  async exchange(request: ClientExchange): Promise<ClientReply> {
    let url: URL;
    try {
      url = new URL(this.baseURL);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
    } catch (err) {
      throw new RequestBuildError(`invalid base URL ${JSON.stringify(this.baseURL)}`, err);
    }
    const prefix = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
    const query = request.query.length === 0 ? '' : `?${new URLSearchParams(request.query as [string, string][]).toString()}`;
    const target = `${url.origin}${prefix}${request.path}${query}`;
    const fetchFn = this.#fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw new RequestBuildError('no fetch function is available');
    const headers = new Headers();
    for (const [k, v] of request.headers) headers.append(k, v);
    let res: Response;
    try {
      res = await fetchFn(target, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: request.body }),
        ...(request.signal !== undefined && { signal: request.signal }),
      });
    } catch (err) {
      throw new RequestError(`${request.method} ${request.path} failed`, err);
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new ResponseBodyError(res.status, 'the response body could not be read', err);
    }
    return { status: res.status, headers: res.headers, body };
  }
}

/** Builds the HTTP client transport (SPEC.md `nethttp.NewClientTransport`): `nodeHttp.newClientTransport({ baseURL: 'http://127.0.0.1:8080' })`. */
export function newClientTransport(options: ClientTransportOptions): FetchClientTransport {
  return new FetchClientTransport(options);
}
