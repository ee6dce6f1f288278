import type { TransportCoverage } from '../declare/coverage.js';

/** An HTTP request as the client engine hands it to a transport. */
export interface ClientExchange {
  /** Upper-case method. */
  readonly method: string;
  /** The concrete, percent-encoded path (starts with `/`); the transport prefixes its base URL. */
  readonly path: string;
  /** Query entries, in order, decoded. */
  readonly query: readonly (readonly [string, string])[];
  /**
   * The query as it is sent, without `?`, when a styled parameter is among it (OpenAPI 3.1
   * §4.8.12.4: `ids=3,4,5`, `ids=3|4|5`, `color[R]=100`): its pairs as their style writes them —
   * delimiters as they are, escaped ones in items (`%2C`) — and the others
   * `application/x-www-form-urlencoded`. A transport sends it in place of encoding `query`, which
   * cannot tell a delimiter from an escaped one. Absent: encode `query`.
   */
  readonly encodedQuery?: string;
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
export interface ClientTransport extends TransportCoverage {
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
