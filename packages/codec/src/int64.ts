import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { INTEGER_TEXT, integerTextPattern } from './internal/integer-text.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaGenerator } from './schema-generator.js';

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
 */
export class BigIntCodec extends Codec<bigint> {
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
    const { minimum, maximum, kind } = this.range;
    if (n < minimum || n > maximum) return ctx.addIssue(`expected an integer from ${minimum} to ${maximum} (${kind})`, 'type', input);
    return n;
  }
  protected serialize(value: bigint): unknown {
    return value.toString();
  }
  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    if (gen.target !== 'parameter') return { type: 'string', pattern: this.pattern };
    const { format, minimum } = this.range;
    return { type: 'integer', ...(format !== undefined && { format }), ...(minimum === 0n && { minimum: 0 }) };
  }
  protected override reflectConstraints(schema: JsonSchema, gen: SchemaGenerator): JsonSchema {
    // Numeric keywords mean something only on the integer a parameter describes.
    return gen.target === 'parameter' ? super.reflectConstraints(schema, gen) : schema;
  }
}

/**
 * A signed 64-bit integer codec (SPEC.md `codec.Int64`): `bigint` from −2^63 to 2^63−1 ↔ its
 * decimal text (`"9223372036854775807"`). See {@link BigIntCodec} for the schema.
 */
// @__NO_SIDE_EFFECTS__
export function int64(): BigIntCodec {
  return new BigIntCodec({ kind: 'int64', minimum: -(2n ** 63n), maximum: 2n ** 63n - 1n, format: 'int64' });
}
