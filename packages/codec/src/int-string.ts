import { describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeInt, SAFE } from './int.js';
import { INTEGER_TEXT, integerTextPattern } from './internal/integer-text.js';
import { NumberAsTextCodec } from './internal/number-as-text.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** Decimal texts of the safe integers, −(2^53−1) to 2^53−1. */
const SAFE_TEXT = integerTextPattern(BigInt(Number.MIN_SAFE_INTEGER), BigInt(Number.MAX_SAFE_INTEGER));

/**
 * Codec of a safe integer whose wire value is its decimal text (`"42"`; no `+`, no leading
 * zeros, `-0` reads as 0), for path, query, header and cookie parameters. Schema: in parameter
 * position `{ type: 'integer' }` with the constraints' keywords (what the parameter means); as
 * a body value `{ type: 'string', pattern }`, the pattern accepting exactly the texts of the
 * safe integers. In body position constraints are checked but not reflected (JSON Schema cannot
 * bound the number a string spells).
 *
 * Encoding checks that the value is a safe integer (NaN, ±Infinity, fractions and unsafe
 * integers throw an `EncodeError`) and writes `String(value)`. The decimal text of a safe
 * integer is also accepted and written unchanged: record keys are text, so a numeric key of
 * `record(intString(), v)` reaches the key codec as its text.
 */
export class IntStringCodec extends NumberAsTextCodec<number> {
  readonly kind = 'intString';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected integer string, got ${describeType(input)}`, 'type', input);
    if (!INTEGER_TEXT.test(input)) return ctx.addIssue('expected an integer', 'type', input);
    const n = Number(input);
    if (!Number.isSafeInteger(n)) return ctx.addIssue('expected a safe integer', 'type', input);
    return n === 0 ? 0 : n;
  }
  protected serialize(value: number): unknown {
    if (typeof value === 'string' && INTEGER_TEXT.test(value) && Number.isSafeInteger(Number(value))) return value;
    return String(encodeInt(value, SAFE));
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return gen.target === 'parameter' ? { type: 'integer', format: 'double-int' } : { type: 'string', pattern: SAFE_TEXT };
  }
}

/** An integer carried as text: `"42"` ↔ `42`. */
// @__NO_SIDE_EFFECTS__
export function intString(): IntStringCodec {
  return new IntStringCodec();
}
