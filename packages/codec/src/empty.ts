import { Codec } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of "no body": decodes anything (usually `undefined`) to a fresh `{}` typed `T`, encodes
 * to `undefined`. Routes whose request or response has no body use it; the OpenAPI renderer
 * emits no `requestBody` / no response `content` for it. Schema `{ type: 'object' }`.
 *
 * Encoding accepts what stands for "no body" — `undefined`, `null` or any object (the `{}` it
 * decodes to, a value of `T`) — and throws an `EncodeError` (constraint `type`) for a string,
 * number, boolean, bigint, symbol or function, which would be a body the route does not declare.
 */
export class EmptyCodec<T> extends Codec<T> {
  readonly kind = 'empty';
  protected parse(): T {
    return {} as T;
  }
  protected serialize(value: T): unknown {
    if (value !== undefined && typeof value !== 'object') throw mismatch('no body (undefined or an object)', value);
    return undefined;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'object' };
  }
}

/** A codec for an absent body: `codec.empty<GetUserReq>()`. */
// @__NO_SIDE_EFFECTS__
export function empty<T = Record<string, never>>(): EmptyCodec<T> {
  return new EmptyCodec<T>();
}
