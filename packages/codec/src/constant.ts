import { Codec, type DecodeContext, type Invalid } from './codec.js';
import { deepEqual } from './internal/deep-equal.js';
import { encodeIssue } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/** A JSON value: what {@link constant} accepts. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Codec of one fixed JSON value, compared structurally (objects by keys, arrays by items, key
 * order ignored); schema `{ const: value }`. Decoding returns a fresh deep copy of the value,
 * so callers may mutate it. For primitives with a `type` keyword prefer {@link literal}.
 * Encoding checks that the value equals it structurally (constraint `const`) and writes a copy.
 */
export class ConstantCodec<const V extends JsonValue> extends Codec<V> {
  readonly kind = 'constant';
  /** The only accepted value. */
  readonly value: V;
  constructor(value: V) {
    super();
    this.value = value;
  }
  protected parse(input: unknown, ctx: DecodeContext): V | Invalid {
    if (!deepEqual(input, this.value)) return ctx.addIssue(`expected ${JSON.stringify(this.value)}`, 'const', input);
    return structuredClone(this.value);
  }
  protected serialize(value: V): unknown {
    if (!deepEqual(value, this.value)) throw encodeIssue(`expected ${JSON.stringify(this.value)}`, 'const', value);
    return structuredClone(this.value);
  }
  protected baseSchema(): JsonSchema {
    return { const: structuredClone(this.value) };
  }
}

/**
 * A codec accepting exactly one JSON value, primitive or structured:
 * `codec.constant({ version: 1 })`.
 */
// @__NO_SIDE_EFFECTS__
export function constant<const V extends JsonValue>(value: V): ConstantCodec<V> {
  return new ConstantCodec(value);
}
