import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
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
export const SAFE: IntRange = { kind: 'int', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/**
 * What is wrong with `n` as an integer of `range` (`expected an integer`, `expected a safe
 * integer`, `expected an integer from 0 to 255 (uint8)`), or `undefined` when it is one. The one
 * check decode and encode share.
 */
export function intProblem(n: number, range: IntRange): string | undefined {
  if (!Number.isInteger(n)) return 'expected an integer';
  const { minimum, maximum, kind } = range;
  if (n >= minimum && n <= maximum) return undefined;
  return kind === 'int' ? 'expected a safe integer' : `expected an integer from ${minimum} to ${maximum} (${kind})`;
}

/**
 * Encodes an integer of `range`: returns `value` when it is one, else throws an
 * {@link EncodeError} (constraint `type`): `expected integer, got string`, `expected a finite
 * integer, got NaN`, `expected an integer, got 1.5`, `expected a safe integer, got 2^60`.
 */
export function encodeInt(value: number, range: IntRange): number {
  if (typeof value !== 'number') throw mismatch('integer', value);
  const problem = intProblem(value, range);
  if (problem === undefined) return value;
  if (!Number.isFinite(value)) throw encodeIssue(`expected a finite integer, got ${value}`, 'type', value);
  throw encodeIssue(`${problem}, got ${value}`, 'type', value);
}

/**
 * Codec of an integer in a range of safe integers; wire value: a JSON number without a
 * fraction. Schema `{ type: 'integer', format?, minimum, maximum }`: the bounds are always
 * emitted, so a validator rejects what the decoder rejects (for `int()`, the integers beyond
 * ±(2^53−1) that a JavaScript number cannot hold exactly). Decoding and encoding check the
 * same range; encoding throws an `EncodeError` for NaN, ±Infinity, fractions and integers
 * outside the range.
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
    const problem = intProblem(input, this.range);
    return problem === undefined ? input : ctx.addIssue(problem, 'type', input);
  }
  protected serialize(value: number): unknown {
    return encodeInt(value, this.range);
  }
  protected baseSchema(): JsonSchema {
    const { format, minimum, maximum } = this.range;
    return { type: 'integer', ...(format !== undefined && { format }), minimum, maximum };
  }
}

/**
 * An integer codec: safe integers, −(2^53−1) to 2^53−1; schema
 * `{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }`. For the full
 * 64-bit range use {@link int64} (a `bigint`).
 */
// @__NO_SIDE_EFFECTS__
export function int(): IntCodec {
  return new IntCodec(SAFE);
}
