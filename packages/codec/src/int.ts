import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/** The range and reflection of an {@link IntCodec}. */
export interface IntRange {
  /** The constructor's name, used as the codec's `kind` (`int`, `int32`, `uint8`, …). */
  readonly kind: string;
  /** Smallest accepted value (inclusive, a safe integer). */
  readonly minimum: number;
  /** Largest accepted value (inclusive, a safe integer). */
  readonly maximum: number;
  /** The OpenAPI format name emitted as `format` (`int32`), if any. */
  readonly format?: string;
}

/** The range of {@link int}: every safe integer. */
const SAFE: IntRange = { kind: 'int', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/**
 * Codec of an integer in a range of safe integers; wire value: a JSON number without a
 * fraction. Schema `{ type: 'integer', format?, minimum, maximum }`: the bounds are always
 * emitted, so a validator rejects what the decoder rejects (for `int()`, the integers beyond
 * ±(2^53−1) that a JavaScript number cannot hold exactly).
 */
export class IntCodec extends Codec<number> {
  readonly kind: string;
  /** The accepted range. */
  readonly range: IntRange;
  constructor(range: IntRange = SAFE) {
    super();
    this.kind = range.kind;
    this.range = range;
  }
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'number') return ctx.addIssue(`expected integer, got ${describeType(input)}`, 'type', input);
    if (!Number.isInteger(input)) return ctx.addIssue('expected an integer', 'type', input);
    const { minimum, maximum, kind } = this.range;
    if (input < minimum || input > maximum) {
      return ctx.addIssue(
        kind === 'int' ? 'expected a safe integer' : `expected an integer from ${minimum} to ${maximum} (${kind})`,
        'type',
        input,
      );
    }
    return input;
  }
  protected serialize(value: number): unknown {
    return value;
  }
  protected baseSchema(): JsonSchema {
    const { format, minimum, maximum } = this.range;
    return { type: 'integer', ...(format !== undefined && { format }), minimum, maximum };
  }
}

/**
 * An integer codec (SPEC.md `codec.Int`): safe integers, −(2^53−1) to 2^53−1; schema
 * `{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }`. For the full
 * 64-bit range use {@link int64} (a `bigint`).
 */
// @__NO_SIDE_EFFECTS__
export function int(): IntCodec {
  return new IntCodec(SAFE);
}
