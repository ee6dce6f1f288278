import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/** The largest finite single-precision value, (2 − 2^−23) × 2^127. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * Codec of a single-precision float: a finite `number` with |x| ≤ 3.4028234663852886e38; wire
 * value: a JSON number. The value is kept as decoded (not rounded to single precision), so
 * it round-trips unchanged. Schema `{ type: 'number', format: 'float', minimum, maximum }`.
 * Encoding checks that the value is a finite number in that range.
 */
export class Float32Codec extends Codec<number> {
  readonly kind = 'float32';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'number') return ctx.addIssue(`expected number, got ${describeType(input)}`, 'type', input);
    if (!Number.isFinite(input) || Math.abs(input) > FLOAT32_MAX) {
      return ctx.addIssue('expected a number in the float32 range', 'type', input);
    }
    return input;
  }
  protected serialize(value: number): unknown {
    if (typeof value !== 'number') throw mismatch('number', value);
    if (!Number.isFinite(value)) throw encodeIssue(`expected a finite number, got ${value}`, 'type', value);
    if (Math.abs(value) > FLOAT32_MAX) throw encodeIssue(`expected a number in the float32 range, got ${value}`, 'type', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'number', format: 'float', minimum: -FLOAT32_MAX, maximum: FLOAT32_MAX };
  }
}

/** A single-precision float codec. NaN, ±Infinity and overflow are rejected. */
// @__NO_SIDE_EFFECTS__
export function float32(): Float32Codec {
  return new Float32Codec();
}
