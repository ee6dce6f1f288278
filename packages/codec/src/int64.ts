import { describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import { INTEGER_TEXT, integerTextPattern } from './internal/integer-text.js';
import { NumberAsTextCodec } from './internal/number-as-text.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** The range and reflection of a {@link BigIntCodec}. */
export interface BigIntRange {
  /** The constructor's name, used as the codec's `kind` (`int64`, `uint64`). */
  readonly kind: string;
  /** Smallest accepted value (inclusive). */
  readonly minimum: bigint;
  /** Largest accepted value (inclusive). */
  readonly maximum: bigint;
  /** The OpenAPI format of the integer it describes as a parameter (`int64`), if any. */
  readonly format?: string;
}

/** What is wrong with `n` as an integer of `range`, or `undefined`; shared by decode and encode. */
function bigIntProblem(n: bigint, range: BigIntRange): string | undefined {
  const { minimum, maximum, kind } = range;
  return n >= minimum && n <= maximum ? undefined : `expected an integer from ${minimum} to ${maximum} (${kind})`;
}

/**
 * Codec of a 64-bit integer as a `bigint`. The wire value is its decimal text (`"-42"`), as in
 * the protobuf JSON mapping: a JSON number cannot carry 64 bits exactly (`JSON.parse` rounds
 * beyond 2^53). The text has no `+`, no leading zeros; `-0` is read as 0.
 *
 * Schema: as a body value `{ type: 'string', pattern }` where the pattern accepts exactly the
 * decimal texts of the range; in parameter position `{ type: 'integer', format? }` (with
 * `minimum: 0` for unsigned ranges). Constraints
 * (`validate.min(0n)`) are checked on decode but not reflected: JSON Schema has no keyword
 * bounding the number a string spells.
 *
 * Encoding checks that the value is a `bigint` in the range (else an `EncodeError`, constraint
 * `type`) and writes its decimal text.
 */
export class BigIntCodec extends NumberAsTextCodec<bigint> {
  readonly kind: string;
  /** The accepted range. */
  readonly range: BigIntRange;
  /** The body-position pattern, computed once. */
  protected readonly pattern: string;
  constructor(range: BigIntRange) {
    super();
    this.kind = range.kind;
    this.range = range;
    this.pattern = integerTextPattern(range.minimum, range.maximum);
  }
  protected parse(input: unknown, ctx: DecodeContext): bigint | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected integer string, got ${describeType(input)}`, 'type', input);
    if (!INTEGER_TEXT.test(input)) return ctx.addIssue('expected the decimal text of an integer', 'type', input);
    const n = BigInt(input);
    const problem = bigIntProblem(n, this.range);
    return problem === undefined ? n : ctx.addIssue(problem, 'type', input);
  }
  protected serialize(value: bigint): unknown {
    if (typeof value !== 'bigint') throw mismatch('bigint', value);
    const problem = bigIntProblem(value, this.range);
    if (problem !== undefined) throw encodeIssue(`${problem}, got ${value}`, 'type', value);
    return value.toString();
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    if (gen.target !== 'parameter') return { type: 'string', pattern: this.pattern };
    const { format, minimum } = this.range;
    return { type: 'integer', ...(format !== undefined && { format }), ...(minimum === 0n && { minimum: 0 }) };
  }
}

/**
 * A signed 64-bit integer codec: `bigint` from −2^63 to 2^63−1 ↔ its
 * decimal text (`"9223372036854775807"`). See {@link BigIntCodec} for the schema.
 */
// @__NO_SIDE_EFFECTS__
export function int64(): BigIntCodec {
  return new BigIntCodec({ kind: 'int64', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n, format: 'int64' });
}
