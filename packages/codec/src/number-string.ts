import { describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import { NumberAsTextCodec } from './internal/number-as-text.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** The text of a JSON number (RFC 8259 §6): what a number parameter reads. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Codec of a finite number whose wire value is its text (`"2.5"`, `"-1e3"`: a JSON number's
 * syntax, RFC 8259 §6; no `+`, no leading zeros, no `NaN` or `Infinity`; `-0` reads as 0), for
 * path, query, header and cookie parameters. Schema: in parameter position `{ type: 'number' }`
 * with the constraints' keywords; as a body value `{ type: 'string', pattern }`, the pattern
 * accepting exactly those texts. A text whose number is beyond a double's range (`1e400`) is
 * refused.
 *
 * Encoding checks that the value is a finite number (else an `EncodeError`, constraint `type`)
 * and writes `String(value)`, which the pattern accepts (`1e+21` included); a text the pattern
 * accepts is written unchanged.
 */
export class NumberStringCodec extends NumberAsTextCodec<number> {
  readonly kind = 'numberString';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected number string, got ${describeType(input)}`, 'type', input);
    if (!NUMBER_TEXT.test(input)) return ctx.addIssue('expected a number', 'type', input);
    const n = Number(input);
    if (!Number.isFinite(n)) return ctx.addIssue('expected a finite number', 'type', input);
    return n === 0 ? 0 : n;
  }
  protected serialize(value: number): unknown {
    if (typeof value === 'string' && NUMBER_TEXT.test(value) && Number.isFinite(Number(value))) return value;
    if (typeof value !== 'number') throw mismatch('number', value);
    if (!Number.isFinite(value)) throw encodeIssue(`expected a finite number, got ${value}`, 'type', value);
    return String(value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return gen.target === 'parameter' ? { type: 'number' } : { type: 'string', pattern: NUMBER_TEXT.source };
  }
}

/** A number carried as text, for parameters: `"2.5"` ↔ `2.5`. */
// @__NO_SIDE_EFFECTS__
export function numberString(): NumberStringCodec {
  return new NumberStringCodec();
}
