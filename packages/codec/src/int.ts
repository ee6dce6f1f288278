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
  /**
   * The OpenAPI Format Registry name emitted as `format` (`int32`, `double-int`), if any. Its
   * range is the format's own; `minimum`/`maximum` are emitted only where the codec's range is
   * narrower.
   */
  readonly format?: string;
}

/** The ranges of the OpenAPI Format Registry's integer formats that a `number` can hold. */
const FORMAT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  'double-int': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** The range of {@link int}: every safe integer, OpenAPI format `double-int`. */
export const SAFE: IntRange = { kind: 'int', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, format: 'double-int' };

/**
 * The JSON Schema of an integer of `range`: `{ type: 'integer', format }` plus a bound only
 * where the range is narrower than its format's (`uint()`: `format: 'double-int', minimum: 0`).
 * Exact for a validator that knows the format; renders without ±2^53 bounds in docs UIs.
 */
export function intSchema(range: IntRange): JsonSchema {
  const { format, minimum, maximum } = range;
  const [lo, hi] = (format !== undefined ? FORMAT_RANGES[format] : undefined) ?? [-Infinity, Infinity];
  return {
    type: 'integer',
    ...(format !== undefined && { format }),
    ...(minimum > lo && { minimum }),
    ...(maximum < hi && { maximum }),
  };
}

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
 * fraction. Schema `{ type: 'integer', format }` with the OpenAPI Format Registry format whose
 * range is the codec's (`int32`, `uint8`, `double-int` for every safe integer), plus
 * `minimum`/`maximum` only where the codec's range is narrower than its format's; so a validator
 * that knows the format rejects what the decoder rejects (for `int()`, the integers beyond
 * ±(2^53−1) that a JavaScript number cannot hold exactly), and docs UIs show no ±2^53 bounds. Decoding and encoding check the
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
    return intSchema(this.range);
  }
}

/**
 * An integer codec: safe integers, −(2^53−1) to 2^53−1; schema
 * `{ type: 'integer', format: 'double-int' }` (the OpenAPI Format Registry's name for exactly
 * that range). For the full 64-bit range use {@link int64} (a `bigint`).
 */
// @__NO_SIDE_EFFECTS__
export function int(): IntCodec {
  return new IntCodec(SAFE);
}
