/**
 * The request context a handler receives first.
 * `signal` aborts when the client goes away or the server shuts down; `get`/`set` carry
 * request-scoped values (middleware output, adapter objects) under keys of your own.
 */
export class Context {
  // Created on first `set`: most requests store nothing.
  #values: Map<unknown, unknown> | undefined;
  #signal: AbortSignal | (() => AbortSignal);

  /** `signal` may be given as a function, called once on first use (adapters create it lazily). */
  constructor(signal: AbortSignal | (() => AbortSignal)) {
    this.#signal = signal;
  }

  /** Aborts when the request is abandoned or the server drains. */
  get signal(): AbortSignal {
    if (typeof this.#signal === 'function') this.#signal = this.#signal();
    return this.#signal;
  }

  /**
   * The value stored under `key`, or `undefined`.
   * @throws {Error} `key` is a {@link principalKey} holding nothing, on a request whose route
   * requires credentials that `securityFunc` accepted: the principal it should have set is
   * missing (a server bug, answered 500). Such a route's handler reads the principal without
   * `| undefined` ({@link SignedInContext}).
   */
  get<V>(key: ContextKey<V>): V | undefined {
    const v = this.#values?.get(key) as V | undefined;
    if (v === undefined && (key as Partial<PrincipalKey<V>>).principal === true && signedIn.has(this)) {
      throw new Error(`the route requires credentials and securityFunc accepted them, but set no ${JSON.stringify(key.description)} (ctx.set(key, value))`);
    }
    return v;
  }

  /** Stores `value` under `key` for the rest of the request. */
  set<V>(key: ContextKey<V>, value: V): void {
    (this.#values ??= new Map()).set(key, value);
  }
}

/** A typed key for {@link Context.get} and {@link Context.set}; create one with {@link contextKey}. */
export interface ContextKey<V> {
  readonly description: string;
  /** Phantom: the value type. */
  readonly _value?: V;
}

/**
 * A context key for who a request speaks for, set by `securityFunc` once it has verified the
 * credentials (`ctx.set(key, user)`). On a route whose every security alternative requires
 * credentials (`security: [{ bearerAuth: [] }]`, no `{}`), the handler's context is a
 * {@link SignedInContext}: `ctx.get(key)` is `V`, never `undefined`. Where sign-in is optional
 * (`{}` among the alternatives) or the route states no security, it is `V | undefined`.
 */
export interface PrincipalKey<V> extends ContextKey<V> {
  /** Marks the key as the request's principal. */
  readonly principal: true;
}

/**
 * A new principal key ({@link PrincipalKey}). `description` names it in messages.
 *
 * ```ts
 * const principal = rest.principalKey<{ userId: string }>('principal');
 * // securityFunc: ctx.set(principal, await verify(bearer.credential(ctx)))
 * me.withHandler((ctx) => ({ userId: ctx.get(principal).userId }));   // no `!`, no `?.`
 * ```
 */
export function principalKey<V>(description: string): PrincipalKey<V> {
  return Object.freeze({ description, principal: true as const });
}

/**
 * The context of a handler whose route requires credentials: a {@link principalKey} reads as
 * `V`. If `securityFunc` accepted the credentials but set nothing under the key, reading it
 * throws (500).
 */
export interface SignedInContext extends Context {
  get<V>(key: PrincipalKey<V>): V;
  get<V>(key: ContextKey<V>): V | undefined;
}

/** Contexts of requests whose credentials were required, checked and accepted. */
const signedIn = new WeakSet<Context>();

/**
 * Records that the request's route required credentials and `securityFunc` accepted them: from
 * now on a {@link principalKey} holding nothing is a server error when read.
 * @internal
 */
export function markSignedIn(ctx: Context): void {
  signedIn.add(ctx);
}

/** A new, unique context key. `description` is for debugging only. */
export function contextKey<V>(description: string): ContextKey<V> {
  return Object.freeze({ description });
}

/** The key under which adapters store the response headers a handler may add (`responseHeadersFromContext`). */
export const responseHeadersKey: ContextKey<Headers> = contextKey<Headers>('response headers');
/** The credentials a request's security check accepted, by scheme (read with `scheme.credential(ctx)`). */
export const credentialsKey: ContextKey<ReadonlyMap<object, unknown>> = contextKey<ReadonlyMap<object, unknown>>('credentials');
/** What the pipeline tells of the request it runs: its method and headers (for `checkPreconditions`). */
export interface RequestLine {
  /** Upper-case method. */
  readonly method: string;
  /** A request header by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
}
/** The key under which the pipeline gives the request's method and headers ({@link RequestLine}). */
export const requestKey: ContextKey<RequestLine> = contextKey<RequestLine>('request');
/** The key under which adapters store their native request object (`requestFromContext`). */
export const nativeRequestKey: ContextKey<unknown> = contextKey<unknown>('native request');
