/**
 * The validators of a representation (RFC 9110 §8.8): its entity tag (`"v3"`, or weak
 * `W/"v3"`; a value without quotes is taken as the opaque tag it would quote) and its last
 * modification time.
 */
export interface Validators {
  /** The `ETag` (RFC 9110 §8.8.3). */
  readonly etag?: string | undefined;
  /** The `Last-Modified` time (RFC 9110 §8.8.2); compared at one-second resolution, as HTTP dates are. */
  readonly lastModified?: Date | undefined;
}

/**
 * 304 Not Modified (RFC 9110 §15.4.5): the answer to a conditional GET or HEAD whose validator
 * still matches. A handler returns or throws it — `return rest.notModified({ etag })` — to
 * answer before doing its work; {@link checkPreconditions} throws it; the server also answers
 * 304 on its own for a GET or HEAD route that declares an `ETag` or `Last-Modified` response
 * header when the response it would send matches the request's `If-None-Match` or
 * `If-Modified-Since`. The 304 has no body and keeps the headers a cache needs (`ETag`,
 * `Last-Modified`, `Cache-Control`, `Expires`, `Content-Location`, `Vary`).
 *
 * The OpenAPI document lists the 304 of a GET or HEAD route that can send it: one that declares
 * an `ETag` or `Last-Modified` response header, or reads the client's validator as a declared
 * `If-None-Match` or `If-Modified-Since` request header (`headers: { ifNoneMatch:
 * rest.named('If-None-Match', codec.optional(codec.string())) }`), which a handler compares before
 * it returns `rest.notModified`. A handler that answers 304 on any other route answers a status
 * its document does not list: declare the header it reads.
 *
 * On the client, a call that sent a validator (`ifNoneMatch`, `ifModifiedSince`) resolves to a
 * `NotModified` when the server answers 304: the representation the caller holds is current.
 */
export class NotModified {
  /** The status on the wire. */
  readonly status = 304 as const;
  /** The current entity tag, when known. */
  readonly etag: string | undefined;
  /** The current modification time, when known. */
  readonly lastModified: Date | undefined;
  constructor(validators: Validators = {}) {
    this.etag = validators.etag;
    this.lastModified = validators.lastModified;
  }
}

/**
 * A 304 Not Modified answer for a handler to return or throw: `return rest.notModified({ etag })`
 * when the request's validator matches the current representation (see {@link NotModified}).
 */
export function notModified(validators?: Validators): NotModified {
  return new NotModified(validators);
}
