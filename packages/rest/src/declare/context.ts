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

  /** The value stored under `key`, or `undefined`. */
  get<V>(key: ContextKey<V>): V | undefined {
    return this.#values?.get(key) as V | undefined;
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
