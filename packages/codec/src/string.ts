import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of a string; wire value: a JSON string; schema `{ type: 'string' }`. Encoding checks that
 * the value is a string.
 */
export class StringCodec extends Codec<string> {
  readonly kind = 'string';
  protected parse(input: unknown, ctx: DecodeContext): string | Invalid {
    return typeof input === 'string' ? input : ctx.addIssue(`expected string, got ${describeType(input)}`, 'type', input);
  }
  protected serialize(value: string): unknown {
    if (typeof value !== 'string') throw mismatch('string', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string' };
  }
}

/**
 * A string codec. Refine with `@lib/validate` constraints:
 * `codec.string().refine(validate.minLength(1))`.
 */
// @__NO_SIDE_EFFECTS__
export function string(): StringCodec {
  return new StringCodec();
}
