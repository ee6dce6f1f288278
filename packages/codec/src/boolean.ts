import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of a boolean; wire value: `true` or `false`; schema `{ type: 'boolean' }`. Encoding checks
 * that the value is a boolean.
 */
export class BooleanCodec extends Codec<boolean> {
  readonly kind = 'boolean';
  protected parse(input: unknown, ctx: DecodeContext): boolean | Invalid {
    return typeof input === 'boolean' ? input : ctx.addIssue(`expected boolean, got ${describeType(input)}`, 'type', input);
  }
  protected serialize(value: boolean): unknown {
    if (typeof value !== 'boolean') throw mismatch('boolean', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'boolean' };
  }
}

/** A boolean codec. */
// @__NO_SIDE_EFFECTS__
export function boolean(): BooleanCodec {
  return new BooleanCodec();
}
