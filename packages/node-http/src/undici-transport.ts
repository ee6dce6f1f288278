import type { Agent, Dispatcher } from 'undici';
import { bodyChunks, mayResend, parseBaseURL } from './client-transport.js';
import { HTTP_PARAM_KINDS, RequestError, ResponseBodyError, type ClientExchange, type ClientReply, type ClientStreamReply, type ClientTransport, type ParamKind } from '@lib/rest';

/** Options of {@link newUndiciClientTransport}. */
export interface UndiciClientTransportOptions {
  /** The server's base URL, `http://127.0.0.1:8080/v1`; a path prefix is kept. */
  readonly baseURL: string;
  /**
   * The undici dispatcher that sends the requests: a `Pool` or `Agent` of your own (its
   * connection limits, a proxy, TLS options), which {@link UndiciClientTransport.close} leaves
   * open. Default: one keep-alive `Agent` for this transport, closed by `close()`.
   */
  readonly dispatcher?: Dispatcher;
  /** How long to wait for a response's head, in milliseconds (default 300 000; 0 waits forever). */
  readonly headersTimeout?: number;
  /** How long the body may stay silent between two chunks, in milliseconds (default 300 000; 0 waits forever). */
  readonly bodyTimeout?: number;
}

/**
 * The Node client transport: sends route calls with undici's `request` over keep-alive
 * connections, without the WHATWG `fetch` layer (Node's own `fetch` is built on undici too, and
 * costs several times more per call). The contract is the fetch transport's: it never follows a
 * redirect (RFC 9110 §15.4: a 3xx reaches the client as sent), query entries with one key are
 * repeated `key=value` pairs in order, bodies stream when the route's format streams, an
 * aborted signal ends the call, and an idempotent request whose keep-alive connection was closed
 * before any answer is sent once more (RFC 9112 §9.3.1; never a POST or PATCH). For browsers, Deno, Bun and Workers use `newClientTransport`
 * (`@lib/node-http/client`).
 */
export class UndiciClientTransport implements ClientTransport {
  readonly adapter = 'node-http';
  readonly paramKinds: ReadonlySet<ParamKind> = HTTP_PARAM_KINDS;
  readonly capabilities: ReadonlyMap<string, number> = new Map();
  readonly baseURL: string;
  /** A dispatcher given in the options: the caller's, never closed here. */
  readonly #given: Dispatcher | undefined;
  /** The agent this transport made, once made; closed by {@link UndiciClientTransport.close}. */
  #own: Agent | undefined;
  /** undici, loaded at the first call (it is large, and a server that never calls pays nothing). */
  #loading: Promise<Agent> | undefined;
  readonly #headersTimeout: number | undefined;
  readonly #bodyTimeout: number | undefined;

  constructor(options: UndiciClientTransportOptions) {
    this.baseURL = options.baseURL;
    this.#given = options.dispatcher;
    this.#headersTimeout = options.headersTimeout;
    this.#bodyTimeout = options.bodyTimeout;
  }

  /** The dispatcher: the caller's, else this transport's own keep-alive agent, made at the first call. */
  #dispatcher(): Dispatcher | Promise<Dispatcher> {
    return this.#given ?? this.#own ?? (this.#loading ??= import('undici').then((undici) => (this.#own = new undici.Agent())));
  }

  /**
   * Sends one exchange and returns the status, headers and whole body of the response.
   * @throws {RequestBuildError} a malformed base URL.
   * @throws {RequestError} the request failed, timed out or was aborted.
   * @throws {ResponseBodyError} the response body could not be read.
   */
  async exchange(request: ClientExchange): Promise<ClientReply> {
    const res = await this.#send(request);
    let body: Uint8Array;
    try {
      body = new Uint8Array(await res.body.arrayBuffer());
    } catch (err) {
      throw new ResponseBodyError(res.statusCode, 'the response body could not be read', err);
    }
    return { status: res.statusCode, headers: headersOf(res.headers), body };
  }

  /**
   * As {@link UndiciClientTransport.exchange}, but resolves once the response head arrived; the
   * body is read as the caller iterates it, and ending the iteration early destroys the rest.
   * @throws {RequestBuildError} as `exchange`.
   * @throws {RequestError} as `exchange`.
   * @throws {ResponseBodyError} (from the iteration) the body could not be read to its end.
   */
  async exchangeStream(request: ClientExchange): Promise<ClientStreamReply> {
    const res = await this.#send(request);
    const status = res.statusCode;
    const body = res.body;
    const it = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const chunks = bodyChunks(
      status,
      () => it.next(),
      (early) => {
        if (early) body.destroy();
      },
    );
    return { status, headers: headersOf(res.headers), body: chunks };
  }

  /**
   * Closes the connections of the agent this transport made, once their requests end; a
   * dispatcher given in the options is the caller's to close. Resolves when they are closed.
   */
  async close(): Promise<void> {
    const own = this.#own ?? (await this.#loading?.catch(() => undefined));
    await own?.close();
  }

  /** `origin` and path prefix of the base URL, parsed on first use. */
  #base: { readonly origin: string; readonly prefix: string } | undefined;

  async #send(request: ClientExchange): Promise<Dispatcher.ResponseData> {
    // A malformed base URL is a RequestBuildError, on each call (it is not kept).
    const { origin, prefix } = (this.#base ??= parseBaseURL(this.baseURL));
    // A styled parameter's pairs are sent as the client wrote them (`ids=3,4,5`), not form-encoded again.
    const query = request.encodedQuery !== undefined ? (request.encodedQuery === '' ? '' : `?${request.encodedQuery}`) : request.query.length === 0 ? '' : `?${new URLSearchParams(request.query as [string, string][]).toString()}`;
    // undici takes repeated fields as a flat list: name, value, name, value…
    const headers: string[] = [];
    for (const [name, value] of request.headers) headers.push(name, value);
    const options: Dispatcher.RequestOptions = {
      origin,
      path: `${prefix}${request.path}${query}`,
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body: request.body ?? null,
      signal: request.signal ?? null,
      ...(this.#headersTimeout !== undefined && { headersTimeout: this.#headersTimeout }),
      ...(this.#bodyTimeout !== undefined && { bodyTimeout: this.#bodyTimeout }),
    };
    let dispatcher: Dispatcher | undefined;
    try {
      const d = this.#dispatcher();
      dispatcher = d instanceof Promise ? await d : d;
      return await dispatcher.request(options);
    } catch (err) {
      // A closed keep-alive connection: an idempotent request is sent once more (mayResend).
      if (dispatcher === undefined || !mayResend(request, err)) throw new RequestError(`${request.method} ${request.path} failed`, err);
    }
    try {
      return await dispatcher.request(options);
    } catch (err) {
      throw new RequestError(`${request.method} ${request.path} failed (sent twice: the first connection was closed before an answer)`, err);
    }
  }
}

/** A fetch `Headers` of undici's response headers: repeated fields (`Set-Cookie`) stay apart. */
function headersOf(raw: Readonly<Record<string, string | string[] | undefined>>): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const v = raw[name];
    if (v === undefined) continue;
    if (typeof v === 'string') headers.append(name, v);
    else for (const x of v) headers.append(name, x);
  }
  return headers;
}

/**
 * Builds the Node client transport on undici: `nodeHttp.newUndiciClientTransport({ baseURL:
 * 'http://127.0.0.1:8080' })`. Call `close()` when done with a transport that made its own agent.
 */
export function newUndiciClientTransport(options: UndiciClientTransportOptions): UndiciClientTransport {
  return new UndiciClientTransport(options);
}
