import { Codec } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of any wire value, passed through unchanged both ways; decoded as `unknown`. Schema
 * `{}` (every value). As an `object` field it is still required (wrap it in `optional` to
 * allow absence). The value is not copied: objects keep whatever own keys they came with,
 * `__proto__` included, and no prototype is ever set from them. Encoding checks nothing: every
 * value is written as it is.
 */
export class AnyValueCodec extends Codec<unknown> {
  readonly kind = 'any';
  protected parse(input: unknown): unknown {
    return input;
  }
  protected serialize(value: unknown): unknown {
    return value;
  }
  protected baseSchema(): JsonSchema {
    return {};
  }
}

/** A codec accepting any value. */
// @__NO_SIDE_EFFECTS__
export function any(): AnyValueCodec {
  return new AnyValueCodec();
}
