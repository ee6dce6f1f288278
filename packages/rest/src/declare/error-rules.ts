import type { Codec, SchemaLike } from '@lib/codec';
import { json, mediaTypeOf, type Format } from '@lib/format';
import type { ErrorPatternValuer } from './http-errors.js';
import { responseParams, type EntryFields, type ParamEntries, type ParamEntry } from './param-entries.js';
import { asCodec, type ResponseMergeParam } from './params.js';
import type { RouteOption } from './route-option.js';

/** A class whose instances are errors: `NotFoundError`. */
export type ErrorClass<E> = abstract new (...args: never[]) => E;
/** A type guard: `(e: unknown): e is NotFound => …`. */
export type ErrorGuard<E> = (err: unknown) => err is E;
/**
 * What an error rule matches. A function whose
 * `prototype` is an `Error` (or `Error` itself) is taken as a class and matched with
 * `instanceof`; any other function is a type guard.
 */
export type ErrorWitness<E> = ErrorClass<E> | ErrorGuard<E>;

/** An HTTP status as a number or a string (`201`, `'201'`, a range `'4XX'`, `'default'`). */
export type Status = number | `${number}` | `${1 | 2 | 3 | 4 | 5}XX` | 'default';

/** The numeric status of a declared status (`404` → 404, `'4XX'` → number). */
export type StatusNumber<S> = S extends number ? S : S extends `${infer N extends number}` ? N : number;

/**
 * A typed error response a route declares (an `errorPattern` with its status and body codec, and
 * the response headers of `withHeaders`): what `client.safeCall` gives back as
 * `{ ok: false, status, error }` (and `headers`, when the pattern declares some).
 */
export interface DeclaredError<S extends number = number, B = unknown, H = {}> {
  /** The status on the wire. */
  readonly status: S;
  /** The decoded body. */
  readonly body: B;
  /** The decoded response headers the pattern declares (`{}`: none). */
  readonly headers: H;
}

/** The response headers of an error pattern ({@link ErrorPattern.withHeaders}). */
export interface ErrorHeaders<E> {
  /** The headers, as response merge parameters of the value `of` gives. */
  readonly params: readonly ResponseMergeParam<unknown, unknown>[];
  /** The header fields for a matched error. */
  readonly of: (err: E) => unknown;
}

/**
 * The numeric status sent on the wire for a declared status (`'2XX'` and `'default'` send 200
 * and 500 — a range sends its first status).
 * @throws {RangeError} for anything but an integer from 200 to 599, a range `'2XX'`–`'5XX'` or
 * `'default'` (RFC 9110 §15: a final response has a three-digit status; 1xx are interim), so that
 * no declared status can make a transport fail when it writes the response.
 */
export function wireStatus(status: Status): number {
  let n: number;
  if (typeof status === 'number') n = status;
  else if (/^\d{3}$/.test(status)) n = Number(status);
  else if (status === 'default') n = 500;
  else if (/^[2-5]XX$/.test(status)) n = status.startsWith('2') ? 200 : Number(status[0]) * 100;
  else n = NaN;
  if (!isFinalStatus(n)) throw new RangeError(`invalid HTTP status ${JSON.stringify(status)}: expected an integer from 200 to 599`);
  return n;
}

/** True for an integer from 200 to 599: a final response status a server may send. */
export function isFinalStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599;
}

function isErrorClass(fn: ErrorWitness<unknown>): fn is ErrorClass<unknown> {
  return fn === Error || (typeof fn.prototype === 'object' && fn.prototype instanceof Error);
}

/**
 * Finds the first error in `err`'s chain that `witness` matches: `err` itself, then its
 * `cause` chain and the members of `AggregateError.errors`, depth first (Go's `errors.As`).
 */
export function findError<E>(err: unknown, witness: ErrorWitness<E>): E | undefined {
  const isClass = isErrorClass(witness as ErrorWitness<unknown>);
  const seen = new Set<unknown>();
  const visit = (e: unknown): E | undefined => {
    if (e === undefined || e === null || seen.has(e)) return undefined;
    seen.add(e);
    if (isClass ? e instanceof (witness as ErrorClass<E>) : (witness as ErrorGuard<E>)(e)) return e as E;
    if (typeof e !== 'object') return undefined;
    if (e instanceof AggregateError) {
      for (const inner of e.errors) {
        const found = visit(inner);
        if (found !== undefined) return found;
      }
    }
    return visit((e as { cause?: unknown }).cause);
  };
  return visit(err);
}

/** What a matched error pattern does. */
export type ErrorAction = 'respond' | 'handle' | 'log';
/** Write the pattern's typed body and status directly (the default). */
export const ErrorRespond: ErrorAction = 'respond';
/** Skip the typed write; the `errorHandler` builds the body with the pattern's status. */
export const ErrorHandle: ErrorAction = 'handle';
/** As {@link ErrorHandle}, and report the match to the observer. */
export const ErrorLog: ErrorAction = 'log';

/** Maps errors matching a witness to a status; the body goes through the `errorHandler`. */
export class ErrorStatusRule<E> implements RouteOption<unknown, unknown> {
  readonly optionKind = 'errorStatus';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  readonly witness: ErrorWitness<E>;
  readonly status: number;
  constructor(witness: ErrorWitness<E>, status: Status) {
    this.witness = witness;
    this.status = wireStatus(status);
  }
  /** The matched error in `err`'s chain, or `undefined`. */
  match(err: unknown): E | undefined {
    return findError(err, this.witness);
  }
}

/**
 * Maps errors matching a witness to a status and a codec-encoded body. Without `mapFn` the matched error itself is encoded (it must be
 * assignable to `B`); with it, `mapFn(error)` is. Clients decode non-2xx responses of this
 * status with `body` into an `ErrorPatternResponse`.
 */
export class ErrorPattern<E, B, S extends Status = Status, H = {}> implements RouteOption<unknown, unknown, DeclaredError<StatusNumber<S>, B, H>> {
  readonly optionKind = 'errorPattern';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  declare readonly '~error'?: DeclaredError<StatusNumber<S>, B, H>;
  readonly witness: ErrorWitness<E>;
  readonly status: number;
  /** The declared status as given (`'4XX'` stays a range in OpenAPI). */
  readonly declaredStatus: S;
  readonly body: Codec<B>;
  readonly mapFn: ((err: E) => B) | undefined;
  readonly action: ErrorAction;
  /** Documentation of the response. */
  readonly description: string | undefined;
  /**
   * The formats the body is written in, in preference order, each for the body's codec
   * ({@link ErrorPattern.withFormats}, {@link ErrorPattern.withMediaTypes}); `undefined`:
   * `application/json`, or the route's negotiated response format where it can carry the body.
   */
  readonly formats: readonly Format<B>[] | undefined;
  /** The media types of {@link ErrorPattern.formats}, in order; `undefined` without formats of its own. */
  readonly mediaTypes: readonly string[] | undefined;
  /** The response headers sent with the body ({@link ErrorPattern.withHeaders}); empty without. */
  readonly headers: readonly ResponseMergeParam<unknown, unknown>[];
  /** The header fields of a matched error; `undefined` without headers. */
  readonly headersOf: ((err: E) => unknown) | undefined;
  /** `body` may be a Standard Schema: it is made a codec here, once (see `errorPattern`). */
  constructor(witness: ErrorWitness<E>, status: S, body: SchemaLike<B>, mapFn?: (err: E) => B, action: ErrorAction = 'respond', description?: string, formats?: readonly Format<B>[], headers?: ErrorHeaders<E>) {
    this.witness = witness;
    this.declaredStatus = status;
    this.status = wireStatus(status);
    this.body = asCodec(body, `error body of status ${String(status)}`);
    this.mapFn = mapFn;
    this.action = action;
    this.description = description;
    this.formats = formats;
    this.mediaTypes = formats?.map((f) => f.contentType);
    this.headers = headers?.params ?? [];
    this.headersOf = headers?.of;
  }
  /** The headers of this copy, for another copy. */
  private get ownHeaders(): ErrorHeaders<E> | undefined {
    return this.headersOf === undefined ? undefined : { params: this.headers, of: this.headersOf };
  }
  /** A copy with another action. */
  withAction(action: ErrorAction): ErrorPattern<E, B, S, H> {
    return new ErrorPattern(this.witness, this.declaredStatus, this.body, this.mapFn, action, this.description, this.formats, this.ownHeaders);
  }
  /** A copy with a response description for OpenAPI. */
  withDescription(description: string): ErrorPattern<E, B, S, H> {
    return new ErrorPattern(this.witness, this.declaredStatus, this.body, this.mapFn, this.action, description, this.formats, this.ownHeaders);
  }
  /**
   * A copy that sends response headers with its body (RFC 9110 §6.3), given as the object form's
   * `responseHeaders` are — a map of fields to codecs or Standard Schemas (`rest.named(wireName,
   * codec)` where the header's name is not the field's; `codec.optional(...)` for one that may be
   * absent) — their values taken from the matched error by `headersOf`:
   *
   * ```ts
   * rest.errorPattern(RateLimited, 429, problem, (e) => e.problem)
   *   .withHeaders({ retryAfter: rest.named('Retry-After', codec.intString()) }, (e) => ({ retryAfter: e.seconds }))
   * ```
   *
   * The server writes them with the body (a required header that `headersOf` leaves out, or a
   * value its codec refuses, breaks the server's contract: a 500); the document lists them under
   * the status (required only where every answer of the status sends them); the client decodes
   * them, and `client.safeCall` gives them as `{ ok: false, status, error, headers }`
   * (`ErrorPatternResponse.headers`). A pattern matched through an `ErrorPatternResponse` (an
   * error a client call rethrew) sends that response's headers. Calling it again replaces them.
   * @throws {RouteDeclarationError} an entry is `rest.styled` (response headers have no styles).
   */
  withHeaders<const M extends ParamEntries<ParamEntry>>(entries: M, headersOf: (err: E) => EntryFields<M>): ErrorPattern<E, B, S, EntryFields<M>> {
    const params: ResponseMergeParam<unknown, unknown>[] = [];
    responseParams(params, 'responseHeader', entries, `error pattern of status ${String(this.declaredStatus)}`);
    return new ErrorPattern(this.witness, this.declaredStatus, this.body, this.mapFn, this.action, this.description, this.formats, { params, of: headersOf });
  }
  /**
   * A copy whose body is written as JSON under one of `types`, chosen by the request's `Accept`
   * (RFC 9110 §12.5.1), else the first; the document lists the body under each:
   * `.withMediaTypes('application/json', 'application/scim+json')`. Each must be JSON
   * (`application/json`, or a `+json` structured syntax suffix, RFC 6839 §3.1).
   * @throws {TypeError} no type given, or one that is not JSON.
   */
  withMediaTypes(...types: string[]): ErrorPattern<E, B, S, H> {
    const notJson = types.find((t) => !/^application\/(?:[^/;\s]+\+)?json$/.test(mediaTypeOf(t)));
    if (types.length === 0 || notJson !== undefined) throw new TypeError(`withMediaTypes: ${notJson === undefined ? 'give at least one media type' : `${JSON.stringify(notJson)} is not a JSON media type (application/json, or a +json suffix)`}`);
    return this.withFormats(...types.map((t) => (mediaTypeOf(t) === 'application/json' ? json(this.body) : json(this.body).withContentType(t))));
  }
  /**
   * A copy whose body is written in one of `formats`, chosen by the request's `Accept` (RFC 9110
   * §12.5.1), else the first; the client reads it by its `Content-Type`; the document lists the
   * body under each media type. For RFC 9457 problem details in JSON and XML:
   * `.withFormats(format.json(problem).withContentType('application/problem+json'),
   * format.xml(problem).withContentType('application/problem+xml'))`. A format made for another
   * codec is made for the body's (`withCodec`: json, yaml, toml, cbor, xml).
   * @throws {TypeError} no format given, one that reads no body (response-only, such as `html`),
   * or one made for another codec that cannot carry the body's.
   */
  withFormats(...formats: Format<unknown>[]): ErrorPattern<E, B, S, H> {
    if (formats.length === 0) throw new TypeError('withFormats: give at least one format');
    const own = formats.map((f) => {
      if (f.responseOnly === true) throw new TypeError(`withFormats: ${f.contentType} is a response-only format: a client could not read the error body`);
      if (f.codec === (this.body as Codec<unknown>)) return f as Format<B>;
      const bound = f.withCodec?.(this.body);
      if (bound === undefined) throw new TypeError(`withFormats: the ${f.contentType} format is made for another codec and cannot carry the error body's (it has no withCodec)`);
      return bound;
    });
    return new ErrorPattern(this.witness, this.declaredStatus, this.body, this.mapFn, this.action, this.description, own, this.ownHeaders);
  }
  /**
   * The body this pattern gives for `err`: server side, a matching error in the chain mapped by
   * `mapFn`; client side, the decoded value of an `ErrorPatternResponse` of this status.
   * `undefined` when nothing matches. Never throws for a non-match.
   */
  match(err: unknown): B | undefined {
    const e = findError(err, this.witness);
    if (e !== undefined) return this.mapFn === undefined ? (e as unknown as B) : this.mapFn(e);
    const valuer = findError(err, isErrorPatternValuer);
    return valuer?.statusCode === this.status ? (valuer.value as B) : undefined;
  }
  /**
   * The header fields this pattern sends for `err` ({@link ErrorPattern.withHeaders}), as
   * {@link ErrorPattern.match} finds its body: `headersOf` of the matching error, else the
   * headers of an `ErrorPatternResponse` of this status in the chain; `undefined` without headers
   * or without a match.
   * @throws what `headersOf` throws.
   */
  matchHeaders(err: unknown): unknown {
    if (this.headersOf === undefined) return undefined;
    const e = findError(err, this.witness);
    if (e !== undefined) return this.headersOf(e);
    const valuer = findError(err, isErrorPatternValuer);
    return valuer?.statusCode === this.status ? valuer.headers : undefined;
  }
}

/** Maps errors matching `witness` to `status`: `rest.errorStatus(ConflictError, 409)`. */
export function errorStatus<E>(witness: ErrorWitness<E>, status: Status): ErrorStatusRule<E> {
  return new ErrorStatusRule(witness, status);
}

/**
 * `mapFn` of {@link errorPattern}: optional when the matched error itself is a body (`E`
 * assignable to `B`), required otherwise — a pattern whose error cannot be encoded by its body
 * codec does not compile, instead of answering 500 where the document promises its status.
 */
export type MapFnArgs<E, B> = [E] extends [B] ? [mapFn?: (err: E) => B] : [mapFn: (err: E) => B];

/**
 * Maps errors matching `witness` to `status` and a body encoded by `body`:
 * `rest.errorPattern(NotFoundError, 404, notFoundCodec, (e) => ({ error: e.message }))`. Without
 * `mapFn` the matched error itself is the body, which compiles only when the error's type is
 * the body's (an error class with exactly the body's fields). `body` is a codec or a Standard
 * Schema (`z.object({ error: z.string() })`: the body's type is its output).
 * @throws {TypeError} when `body` is a Standard Schema without JSON Schema (see `rest.route`).
 */
export function errorPattern<E, B, const S extends Status>(witness: ErrorWitness<E>, status: S, body: SchemaLike<B>, ...mapFn: MapFnArgs<E, B>): ErrorPattern<E, B, S> {
  return new ErrorPattern(witness, status, body, mapFn[0]);
}

/** True for a value implementing {@link ErrorPatternValuer} (an adapter's `ErrorPatternResponse`). */
export function isErrorPatternValuer(err: unknown): err is ErrorPatternValuer {
  return typeof err === 'object' && err !== null && typeof (err as { statusCode?: unknown }).statusCode === 'number' && 'value' in err;
}

/**
 * The typed body of an error: when `witness` is an `ErrorPattern`, its `match`; when it is a
 * class or guard, the decoded value of an `ErrorPatternResponse` in `err`'s chain that it
 * matches. `undefined` when nothing matches; never throws.
 */
export function errorPatternAs<B>(err: unknown, witness: ErrorBodyMatcher<B> | ErrorWitness<B>): B | undefined {
  if (typeof witness === 'object') return witness.match(err);
  const valuer = findError(err, isErrorPatternValuer);
  if (valuer !== undefined) {
    const v = valuer.value;
    const isClass = isErrorClass(witness as ErrorWitness<unknown>);
    if (isClass ? v instanceof (witness as ErrorClass<B>) : (witness as ErrorGuard<B>)(v)) return v as B;
  }
  return undefined;
}

/** One case of {@link handleErrorPattern}. */
export interface ErrorCase {
  /** Runs the case when it matches `err`; true when it ran. */
  run(err: unknown): boolean;
}

/** A case for {@link handleErrorPattern}: `fn` runs with the typed body when `witness` matches. */
export function errorCase<B>(witness: ErrorBodyMatcher<B> | ErrorWitness<B>, fn: (value: B) => void): ErrorCase {
  return {
    run(err: unknown): boolean {
      const v = errorPatternAs(err, witness);
      if (v === undefined) return false;
      fn(v);
      return true;
    },
  };
}

/** Runs the first case that matches `err`; false when none did. Never throws for a non-match. */
export function handleErrorPattern(err: unknown, ...cases: ErrorCase[]): boolean {
  for (const c of cases) if (c.run(err)) return true;
  return false;
}

/** Anything that yields a typed body for an error: an {@link ErrorPattern} of any error type. */
export interface ErrorBodyMatcher<B> {
  match(err: unknown): B | undefined;
}

/** Any error rule. */
export type ErrorRule = ErrorStatusRule<unknown> | ErrorPattern<unknown, unknown>;
