import { messageOf } from './errors.js';

/**
 * Implemented by every adapter's `ErrorPatternResponse`: a decoded error body that a route's
 * error pattern describes.
 */
export interface ErrorPatternValuer {
  /** The HTTP status of the response. */
  readonly statusCode: number;
  /** The decoded body, typed by the pattern's codec. */
  readonly value: unknown;
  /** The decoded response headers the pattern declares (`withHeaders`); `undefined` without. */
  readonly headers?: unknown;
}

/**
 * A non-2xx response whose status matches one of the route's `ErrorRespond` patterns and whose
 * body decoded through the pattern's codec (client side); on the server, the response an error
 * pattern produces for an error (`handle.errorResponseFor`). A deliberate server decision:
 * retrying it unchanged repeats the rejection. Exported by `@lib/node-http`.
 */
export class ErrorPatternResponse<B = unknown> extends Error implements ErrorPatternValuer {
  /** The HTTP status. */
  readonly statusCode: number;
  /** The decoded body. */
  readonly value: B;
  /** The body as bytes on the wire. */
  readonly body: Uint8Array;
  /**
   * The response headers the pattern declares (`errorPattern(...).withHeaders(...)`), decoded by
   * their codecs into the pattern's fields; `undefined` for a pattern without headers.
   */
  readonly headers: Readonly<Record<string, unknown>> | undefined;
  constructor(statusCode: number, value: B, body: Uint8Array, options?: ErrorOptions, headers?: Readonly<Record<string, unknown>>) {
    super(`error response ${statusCode}`, options);
    this.name = 'ErrorPatternResponse';
    this.statusCode = statusCode;
    this.value = value;
    this.body = body;
    this.headers = headers;
  }
}

/** A non-2xx response that no pattern of the route describes, or whose body failed to decode. */
export class UnexpectedStatusError extends Error {
  /** The request method. */
  readonly method: string;
  /** The request path (without base URL and query). */
  readonly path: string;
  /** The response status. */
  readonly statusCode: number;
  /** The response body as text (UTF-8, replacement characters for invalid bytes). */
  readonly body: string;
  constructor(method: string, path: string, statusCode: number, body: string, options?: ErrorOptions) {
    super(`${method} ${path}: unexpected status ${statusCode}`, options);
    this.name = 'UnexpectedStatusError';
    this.method = method;
    this.path = path;
    this.statusCode = statusCode;
    this.body = body;
  }
}

/**
 * The request could not be built or was not sent: a malformed base URL, an invalid body, a
 * credential function's failure, an aborted signal before sending. No request reached the server.
 */
export class RequestBuildError extends Error {
  constructor(message: string, cause?: unknown) {
    super(cause === undefined ? message : `${message}: ${messageOf(cause)}`, cause === undefined ? undefined : { cause });
    this.name = 'RequestBuildError';
  }
}

/** Network, DNS, TLS, abort or timeout failure after the request was sent. Safe to retry. */
export class RequestError extends Error {
  constructor(message: string, cause?: unknown) {
    super(cause === undefined ? message : `${message}: ${messageOf(cause)}`, cause === undefined ? undefined : { cause });
    this.name = 'RequestError';
  }
}

/** The response body could not be read, or a 2xx body or response header did not decode. */
export class ResponseBodyError extends Error {
  /** The response status. */
  readonly statusCode: number;
  constructor(statusCode: number, message: string, cause?: unknown) {
    super(cause === undefined ? message : `${message}: ${messageOf(cause)}`, cause === undefined ? undefined : { cause });
    this.name = 'ResponseBodyError';
    this.statusCode = statusCode;
  }
}

/** The pipeline's handler produced no value (503 unless remapped). Exported by `@lib/node-http`. */
export class PipelineNoResponseError extends Error {
  constructor(message = 'the handler produced no response') {
    super(message);
    this.name = 'PipelineNoResponseError';
  }
}
