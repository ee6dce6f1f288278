import { Context, nativeRequestKey, requestKey, responseHeadersKey, type ContextKey } from '../../declare/context.js';
import type { PipelineRequest } from './exchange.js';

/** A signal that never aborts: the context's own, where the request's is read instead. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * The context of one request the pipeline runs: the adapter's native request and the response
 * headers a handler may add are fields, not map entries, and the `Headers` is created only when
 * something asks for it (`responseHeadersFromContext`); the signal is the request's, read on
 * first use.
 */
export class RequestContext extends Context {
  readonly #req: PipelineRequest;
  #native: unknown;
  #headers: Headers | undefined;
  constructor(req: PipelineRequest) {
    super(NEVER_ABORTED);
    this.#req = req;
    this.#native = req.native;
  }
  override get signal(): AbortSignal {
    return this.#req.signal;
  }
  override get<V>(key: ContextKey<V>): V | undefined {
    if (key === (responseHeadersKey as ContextKey<unknown>)) return (this.#headers ??= new Headers()) as V;
    if (key === (nativeRequestKey as ContextKey<unknown>)) return this.#native as V;
    if (key === (requestKey as ContextKey<unknown>)) return this.#req as V;
    return super.get(key);
  }
  override set<V>(key: ContextKey<V>, value: V): void {
    if (key === (responseHeadersKey as ContextKey<unknown>)) this.#headers = value as Headers;
    else if (key === (nativeRequestKey as ContextKey<unknown>)) this.#native = value;
    else super.set(key, value);
  }
  /** The response headers a handler added, `undefined` when none asked for them. */
  responseHeaders(): Headers | undefined {
    return this.#headers;
  }
}
