import type { Format } from '@lib/format';
import type { Observer } from '../declare/options.js';

/** Options of one call (`client.call(route, req, options)`, `callWithTransport`). */
export interface ClientCallOptions {
  /**
   * Explicit query entries by name. They win over the request's values for a declared
   * parameter (and are checked by its codec and refused empty when it is required, as those
   * are) and may add undeclared ones. An array sends one `key=value` pair per element, in order
   * (`{ tag: ['a', 'b'] }` → `?tag=a&tag=b`); an empty array sends nothing. For a styled parameter
   * (`rest.styled`: a list or an object, OpenAPI 3.1 §4.8.12.4) the entry is its value's text in
   * its style (`{ ids: '3|4|5' }` for `pipeDelimited`), read and checked as the server reads it; an
   * exploded `form` object and a `deepObject` are sent under keys of their own (`R`, `color[R]`),
   * which entries name instead.
   */
  readonly queryParams?: Readonly<Record<string, string | readonly string[]>>;
  /** Explicit request headers by name, matched case-insensitively (same precedence and checks; a styled one's text in its style: `'3,4,5'`). */
  readonly headerParams?: Readonly<Record<string, string>>;
  /** Explicit cookies by name (same precedence and checks; a styled one's text in its style: `'3,4,5'`). */
  readonly cookieParams?: Readonly<Record<string, string>>;
  /** Request formats for this call only; the first is sent. */
  readonly requestFormats?: readonly Format<unknown>[];
  /** Response formats for this call only; all are offered in `Accept`. */
  readonly responseFormats?: readonly Format<unknown>[];
  /**
   * The observer of this call; it wins over the client's (`ClientOptions.observer`). It
   * gets `onValidationError` for every pre-flight failure and one `onResponse` per call (status
   * 0 when nothing was received). A route's own `observer` (`route.withOptions`) is the
   * server's and never sees client calls.
   */
  readonly observer?: Observer;
  /** Aborts the call (and, for an event stream, the stream). */
  readonly signal?: AbortSignal;
  /**
   * The entity tag of the representation the caller holds, sent as `If-None-Match` (RFC 9110
   * §13.1.2): the server answers 304 when it is still current, and the call resolves to a
   * `NotModified` instead of the response value.
   */
  readonly ifNoneMatch?: string;
  /** Sent as `If-Modified-Since` (RFC 9110 §13.1.3, an HTTP date): as `ifNoneMatch`, by time. */
  readonly ifModifiedSince?: Date;
  /**
   * The entity tag the caller's change is based on, sent as `If-Match` (RFC 9110 §13.1.1): the
   * server refuses the request with 412 when the resource changed since (optimistic concurrency).
   */
  readonly ifMatch?: string;
  /** Sent as `If-Unmodified-Since` (RFC 9110 §13.1.4): as `ifMatch`, by time. */
  readonly ifUnmodifiedSince?: Date;
  /**
   * For an SSE route: how many times in a row to reopen a stream whose connection broke, sending
   * the last event id seen as `Last-Event-ID` and waiting the server's last `retry` (default
   * 1000 ms) first. Default 0: a broken stream makes the iteration throw.
   */
  readonly reconnect?: number;
}

/** Options of `client.callEach`: those of a call, and fixed variables. */
export interface CallEachOptions extends ClientCallOptions {
  /**
   * Fixed wire values of some of the route's declared parameters by name — path variables,
   * query, header and cookie parameters — for every call, in place of each item's merge fields
   * for those parameters only (checked by the parameters' codecs); every parameter it does not
   * name comes from each item. A key that names no declared parameter is refused
   * (`RequestBuildError`). Explicit `queryParams`/`headerParams`/`cookieParams` entries win. A
   * styled parameter's variable is its text in its style (a `label` path variable: `'.3.4.5'`).
   */
  readonly vars?: Readonly<Record<string, string>>;
}
