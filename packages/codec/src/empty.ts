import { Codec } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of "no body": decodes anything (usually `undefined`) to a fresh `{}` typed `T`, encodes
 * to `undefined`. Routes whose request or response has no body use it; the OpenAPI renderer
 * emits no `requestBody` / no response `content` for it. Schema `{ type: 'object' }`.
 */
export class EmptyCodec<T> extends Codec<T> {
  readonly kind = 'empty';
  protected parse(): T {
    return {} as T;
  }
  protected serialize(): unknown {
    return undefined;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'object' };
  }
}

/** A codec for an absent body (SPEC.md `codec.Empty`): `codec.empty<GetUserReq>()`. */
// @__NO_SIDE_EFFECTS__
export function empty<T = Record<string, never>>(): EmptyCodec<T> {
  return new EmptyCodec<T>();
}
