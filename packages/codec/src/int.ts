import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of a safe integer (`Number.isSafeInteger`); wire value: a JSON number without a
 * fraction; schema `{ type: 'integer' }`.
 */
export class IntCodec extends Codec<number> {
  readonly kind = 'int';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'number') return ctx.addIssue(`expected integer, got ${describeType(input)}`, 'type', input);
    if (!Number.isSafeInteger(input)) return ctx.addIssue('expected a safe integer', 'type', input);
    return input;
  }
  protected serialize(value: number): unknown {
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'integer' };
  }
}

/** An integer codec (SPEC.md `codec.Int`): safe integers, −(2^53−1) to 2^53−1. */
// @__NO_SIDE_EFFECTS__
export function int(): IntCodec {
  return new IntCodec();
}
