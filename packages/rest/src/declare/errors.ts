import { DecodeError } from '@lib/codec';
/**
 * The error types of `@lib/rest`. Every class sets `name` to
 * its class name and keeps the underlying error as `cause`.
 */

/** A path fails builder-level validation (`withPathCodec`/`withPathConstraints`) at registration or in `buildPath`. */
export class InvalidPathError extends Error {
  /** The offending concrete path (or the template with `{var}` replaced by `x`). */
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`invalid path ${JSON.stringify(path)}: ${messageOf(cause)}`, { cause });
    this.name = 'InvalidPathError';
    this.path = path;
  }
}

/** Base of the parameter errors: a named value failed its codec. */
export abstract class ParamError extends Error {
  /** The parameter's name. */
  readonly paramName: string;
  /** The offending raw value (`undefined` when the value is missing). */
  readonly value: string | undefined;
  /** Where the parameter lives. */
  abstract readonly location: 'path' | 'query' | 'header' | 'cookie';
  constructor(kind: string, paramName: string, value: string | undefined, cause: unknown) {
    super(`${kind} ${JSON.stringify(paramName)}: ${messageOf(cause)}`, { cause });
    this.paramName = paramName;
    this.value = value;
  }
}

/** A path variable fails its codec (400 on the server; pre-flight on the client). */
export class PathParamError extends ParamError {
  readonly location = 'path';
  constructor(paramName: string, value: string | undefined, cause: unknown) {
    super('path parameter', paramName, value, cause);
    this.name = 'PathParamError';
  }
}

/** A query parameter fails its codec or a required one is missing (400). */
export class QueryParamError extends ParamError {
  readonly location = 'query';
  constructor(paramName: string, value: string | undefined, cause: unknown) {
    super('query parameter', paramName, value, cause);
    this.name = 'QueryParamError';
  }
}

/** A request header fails its codec or a required one is missing (400); for response headers, a contract violation (500). */
export class HeaderParamError extends ParamError {
  readonly location = 'header';
  constructor(paramName: string, value: string | undefined, cause: unknown) {
    super('header', paramName, value, cause);
    this.name = 'HeaderParamError';
  }
}

/** A cookie fails its codec or a required one is missing (400); for response cookies, a contract violation (500). */
export class CookieParamError extends ParamError {
  readonly location = 'cookie';
  constructor(paramName: string, value: string | undefined, cause: unknown) {
    super('cookie', paramName, value, cause);
    this.name = 'CookieParamError';
  }
}

/** No route matches the request's path (404). The adapter's own answer; its message is `not found`. */
export class NoRouteError extends Error {
  /** The request path. */
  readonly path: string;
  constructor(path: string) {
    super('not found');
    this.name = 'NoRouteError';
    this.path = path;
  }
}

/** A route matches the path but not the method (405, RFC 9110 §15.5.6); its message is `method not allowed`. */
export class MethodNotAllowedError extends Error {
  /** The request method. */
  readonly method: string;
  /** The methods the path allows, sent as `Allow`. */
  readonly allow: readonly string[];
  constructor(method: string, allow: readonly string[]) {
    super('method not allowed');
    this.name = 'MethodNotAllowedError';
    this.method = method;
    this.allow = allow;
  }
}

/** A path variable is absent from the map given to `buildPath`. */
export class MissingPathVarError extends Error {
  /** The missing variable. */
  readonly paramName: string;
  constructor(paramName: string) {
    super(`missing path variable ${JSON.stringify(paramName)}`);
    this.name = 'MissingPathVarError';
    this.paramName = paramName;
  }
}

/**
 * Request values failed validation. On the server (400 unless a rule maps it) every validation
 * failure is one of these, whether one value failed or several: every failing parameter and
 * body issue is checked and reported, and one answer names them all; `errors` holds a
 * `ParamError` per failing parameter and the `RequestBodyError` of the body, in the order they
 * were checked (query, cookie, header, path, body). So one rule —
 * `rest.errorPattern(rest.RequestValidationError, 422, body, map)`, on a route or server-wide
 * with `rest.withErrors` — answers every validation failure, and a rule on a member's class
 * (`QueryParamError`) still matches through it (matching walks `AggregateError.errors`). On the
 * client it is thrown pre-flight when several values fail, nothing sent: a `ParamError` per
 * failing parameter in declaration order, then the body's `RequestBuildError`; a single
 * pre-flight failure is thrown as itself.
 */
export class RequestValidationError extends AggregateError {
  /** The failures, in the order they were checked: `ParamError`s, then the body's error. */
  declare readonly errors: Error[];
  constructor(errors: readonly Error[]) {
    super(errors, errors.map((e) => e.message).join('; '));
    this.name = 'RequestValidationError';
  }
}

/**
 * A request lacks the credentials a route's security requires, they fail their scheme's codec,
 * or `securityFunc` refused them (401, RFC 9110 §15.5.2). `challenges` are the route's
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1), sent with the 401. When `securityFunc` threw,
 * its error is the `cause`: an error rule of the route matching it wins (`rest.errorStatus(Forbidden, 403)`).
 * The message sent to the client says only `missing credentials`, `invalid credentials` or `unauthorized`.
 */
export class UnauthorizedError extends Error {
  /** The `WWW-Authenticate` challenges (`Bearer realm="api"`); empty for API keys only. */
  readonly challenges: readonly string[];
  constructor(message: string, challenges: readonly string[], cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UnauthorizedError';
    this.challenges = challenges;
  }
}

/** The request's Content-Type is not one the route accepts (415). */
export class UnsupportedMediaTypeError extends Error {
  /** The Content-Type received (`''` when absent). */
  readonly got: string;
  /** The media types the route accepts. */
  readonly supported: readonly string[];
  constructor(got: string, supported: readonly string[]) {
    super(`unsupported media type ${JSON.stringify(got)}; supported: ${supported.join(', ')}`);
    this.name = 'UnsupportedMediaTypeError';
    this.got = got;
    this.supported = supported;
  }
}

/** No format of the route matches the request's `Accept` (406). */
export class NotAcceptableError extends Error {
  /** The Accept header received. */
  readonly accept: string;
  /** The media types the route can produce. */
  readonly supported: readonly string[];
  constructor(accept: string, supported: readonly string[]) {
    super(`not acceptable: ${JSON.stringify(accept)}; available: ${supported.join(', ')}`);
    this.name = 'NotAcceptableError';
    this.accept = accept;
    this.supported = supported;
  }
}

/** The request body is larger than `maxBodyBytes` (413). */
export class BodyTooLargeError extends Error {
  /** The limit in bytes. */
  readonly limit: number;
  /**
   * @param limit - the limit in bytes (in parts, for a multipart body with too many parts).
   * @param message - what passed the limit, when it is not the whole body (`a file part exceeds 5242880 bytes`).
   */
  constructor(limit: number, message?: string) {
    super(message ?? `request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
    this.limit = limit;
  }
}

/**
 * The request body fails to parse or decode (400). `cause` is the `DecodeError`, whose issues
 * the message lists; any other cause (a format's own failure) is not described to the client:
 * the message is then just `invalid request body`. Raised by the server for a body that does
 * not decode, it and its `DecodeError` carry no stack frames (`stack` is the first line only):
 * they describe the client's input, not a place in your code, and capturing frames was the
 * largest cost of answering 400. A cause that is not a `DecodeError` (a bug in a custom codec)
 * keeps its frames.
 */
export class RequestBodyError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof DecodeError ? `invalid request body: ${cause.message}` : 'invalid request body', { cause });
    this.name = 'RequestBodyError';
  }
}

/**
 * A handler's response breaks the route's contract (500): a response header or cookie fails its
 * codec or is not a valid field value (RFC 9110 §5.5), or the body does not have the shape of
 * the response codec (a wrong type, a non-finite number, an unsafe integer, a missing required
 * field, an unknown tag), or, with `validateResponses`, fails a constraint. `cause` says which.
 * The client receives the generic 500 envelope, never this message.
 */
export class ResponseContractError extends Error {
  constructor(cause: unknown) {
    super(`response violates the route contract: ${messageOf(cause)}`, { cause });
    this.name = 'ResponseContractError';
  }
}

/**
 * A middleware function failed with an error that no error rule of the route matches (400).
 * `cause` is the middleware's own error; its message is sent to the client, so middleware
 * should throw errors whose text is meant for callers.
 */
export class MiddlewareError extends Error {
  /** The middleware's declared name. */
  readonly middlewareName: string;
  constructor(middlewareName: string, cause: unknown) {
    super(`middleware ${JSON.stringify(middlewareName)}: ${messageOf(cause)}`, { cause });
    this.name = 'MiddlewareError';
    this.middlewareName = middlewareName;
  }
}

/**
 * A middleware's input `In` failed to decode or validate (400, before its function runs): one of
 * its request merge fields (header, cookie or query) failed its codec or is required and
 * missing, or the assembled value failed the declaration's `inCodec.validate`. `cause` is the
 * `ParamError` of the failing field (a `RequestValidationError` when several failed), or the
 * `DecodeError` of `inCodec`. The message, sent to the client, names the middleware and the field:
 * `middleware "requestId": invalid input: header "X-Request-ID": must match the pattern …`.
 */
export class MiddlewareInputError extends Error {
  /** The middleware's declared name. */
  readonly middlewareName: string;
  constructor(middlewareName: string, cause: unknown) {
    super(`middleware ${JSON.stringify(middlewareName)}: invalid input: ${messageOf(cause)}`, { cause });
    this.name = 'MiddlewareInputError';
    this.middlewareName = middlewareName;
  }
}

/**
 * A middleware's output `Out` breaks its declaration (500): it does not encode through the
 * declaration's `outCodec` (a wrong type, a missing required field), or one of its response
 * merge fields fails its codec, is required and absent, or is not a valid HTTP field value
 * (RFC 9110 §5.5), or a cookie attribute the grammar refuses (RFC 6265 §4.1.1). `cause` says
 * which. The client receives the generic 500 envelope, never this message.
 */
export class MiddlewareOutputError extends Error {
  /** The middleware's declared name. */
  readonly middlewareName: string;
  constructor(middlewareName: string, cause: unknown) {
    super(`middleware ${JSON.stringify(middlewareName)}: output violates its declaration: ${messageOf(cause)}`, { cause });
    this.name = 'MiddlewareOutputError';
    this.middlewareName = middlewareName;
  }
}

/**
 * Two middleware with the same declaration name would run on one route: attached twice with
 * `route.use` / `route.handleMW` / `route.clientMW`, or attached to the route and to the builder
 * (`api.use`). Thrown by the attaching call: `route.use`, `handleMW`, `clientMW`, `route.register`
 * (against the builder's middleware) or `api.use` (against every registered route's).
 */
export class DuplicateMiddlewareNameError extends Error {
  /** The route, as `METHOD /path`; `*` when two `api.use` calls clash (every route). */
  readonly route: string;
  /** The shared declaration name. */
  readonly middlewareName: string;
  constructor(route: string, middlewareName: string) {
    super(`${route}: middleware ${JSON.stringify(middlewareName)} is attached twice`);
    this.name = 'DuplicateMiddlewareNameError';
    this.route = route;
    this.middlewareName = middlewareName;
  }
}

/**
 * A middleware is attached both ways at once: a value with bundled functions (`withReceive`,
 * `withSend`) given to `route.handleMW` or `route.clientMW`, or a declaration bound with
 * `handleMW`/`clientMW` on a route that also gets a bundled middleware of the same declaration
 * (`route.use`, `api.use`). Which function would run is then unclear, so neither is chosen.
 */
export class AmbiguousMiddlewareAttachmentError extends Error {
  /** The middleware's declared name. */
  readonly middlewareName: string;
  constructor(middlewareName: string) {
    super(`middleware ${JSON.stringify(middlewareName)} is both bundled (withReceive/withSend) and bound (handleMW/clientMW): attach it one way`);
    this.name = 'AmbiguousMiddlewareAttachmentError';
    this.middlewareName = middlewareName;
  }
}

/**
 * Two error patterns of one route share a status, and the client could not tell their bodies
 * apart: patterns of one status must each name media types of their own (`withMediaTypes`), no
 * type named twice, so that a response's `Content-Type` says which body it has.
 */
export class DuplicateErrorStatusError extends Error {
  /** The route, as `METHOD /path`. */
  readonly route: string;
  /** The shared status. */
  readonly status: number;
  constructor(route: string, status: number) {
    super(`${route}: two error patterns share status ${status}; give each its own media types (withMediaTypes) to answer both`);
    this.name = 'DuplicateErrorStatusError';
    this.route = route;
    this.status = status;
  }
}

/** A route with the same method and path is already registered with the builder. */
export class DuplicateRouteError extends Error {
  /** The route, as `METHOD /path`. */
  readonly route: string;
  constructor(route: string) {
    super(`${route} is already registered`);
    this.name = 'DuplicateRouteError';
    this.route = route;
  }
}

/** A declared parameter kind (or a security scheme's `in`) is not implemented by the attached transport. */
export class UnsupportedParamKindError extends Error {
  /** The parameter kind: `path`, `query`, `header`, `cookie`, `responseHeader`, `responseCookie`. */
  readonly kind: string;
  /** The adapter's name. */
  readonly adapter: string;
  constructor(kind: string, adapter: string) {
    super(`${adapter} does not support ${kind} parameters`);
    this.name = 'UnsupportedParamKindError';
    this.kind = kind;
    this.adapter = adapter;
  }
}

/** A `requireQoS`/`requireHWM` requirement has no adapter-supplied value, or an insufficient one. */
export class CapabilityCoverageError extends Error {
  /** The route, as `METHOD /path`. */
  readonly route: string;
  /** Capabilities the adapter does not supply. */
  readonly missing: readonly string[];
  /** Capabilities supplied at a level below the requirement. */
  readonly insufficient: readonly string[];
  constructor(route: string, missing: readonly string[], insufficient: readonly string[]) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      insufficient.length > 0 ? `insufficient ${insufficient.join(', ')}` : '',
    ].filter(Boolean);
    super(`${route}: capability requirements not covered (${parts.join('; ')})`);
    this.name = 'CapabilityCoverageError';
    this.route = route;
    this.missing = missing;
    this.insufficient = insufficient;
  }
}

/** `client.call` was given something that is not a route, or a route of another client. */
export class TransportTypeMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportTypeMismatchError';
  }
}

/** `client.attach` was called a second time. */
export class ClientTransportAlreadyAttachedError extends Error {
  constructor() {
    super('a transport is already attached to this client');
    this.name = 'ClientTransportAlreadyAttachedError';
  }
}

/** `client.call` before `client.attach`. */
export class ClientTransportNotAttachedError extends Error {
  constructor() {
    super('no transport is attached to this client');
    this.name = 'ClientTransportNotAttachedError';
  }
}

/** The message of an unknown thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Which precondition of a request failed (RFC 9110 §13.1). */
export type Precondition = 'If-Match' | 'If-Unmodified-Since' | 'If-None-Match';

/**
 * A request's precondition does not hold for the current representation (RFC 9110 §13.1): a
 * stale `If-Match` or `If-Unmodified-Since` on a write (optimistic concurrency: someone changed
 * the resource since the client read it), or an `If-None-Match` that matches on a method other
 * than GET and HEAD. The server answers 412 Precondition Failed (RFC 9110 §15.5.13).
 */
export class PreconditionFailedError extends Error {
  /** The header whose condition failed. */
  readonly precondition: Precondition;
  /**
   * @param precondition the header whose condition failed.
   * @param anyRepresentation for `If-None-Match`, true when it was `*` (create only if nothing exists).
   */
  constructor(precondition: Precondition, anyRepresentation = false) {
    super(
      precondition === 'If-Match'
        ? 'precondition failed: If-Match does not match the current representation'
        : precondition === 'If-Unmodified-Since'
          ? 'precondition failed: the representation was modified after If-Unmodified-Since'
          : anyRepresentation
            ? 'precondition failed: If-None-Match: * and the resource already has a current representation'
            : 'precondition failed: If-None-Match matches the current representation',
    );
    this.name = 'PreconditionFailedError';
    this.precondition = precondition;
  }
}
