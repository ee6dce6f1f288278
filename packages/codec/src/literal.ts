import { Codec, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, describeValue } from './internal/encode-at.js';
import type { JsonSchema, JsonSchemaType } from './json-schema.js';

/** The values a literal may take. */
export type LiteralValue = string | number | boolean | null;

/**
 * Codec of one exact value; schema `{ const: value }` with its `type`. Encoding checks that the
 * value is exactly that one (`===`; constraint `const`).
 */
export class LiteralCodec<const L extends LiteralValue> extends Codec<L> {
  readonly kind = 'literal';
  /** The only accepted value. */
  readonly value: L;
  constructor(value: L) {
    super();
    this.value = value;
  }
  protected parse(input: unknown, ctx: DecodeContext): L | Invalid {
    return input === this.value ? this.value : ctx.addIssue(`expected ${JSON.stringify(this.value)}`, 'const', input);
  }
  protected serialize(value: L): unknown {
    if (value !== this.value) throw encodeIssue(`expected ${JSON.stringify(this.value)}, got ${describeLiteral(value)}`, 'const', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    const v = this.value;
    const type = v === null ? 'null' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
    return { type: type as JsonSchemaType, const: v };
  }
}

/** A primitive as JSON (`"b"`, `2`, `null`), anything else by its type. */
function describeLiteral(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : describeValue(value);
}

/** A codec accepting exactly `value`. */
// @__NO_SIDE_EFFECTS__
export function literal<const L extends LiteralValue>(value: L): LiteralCodec<L> {
  return new LiteralCodec(value);
}
