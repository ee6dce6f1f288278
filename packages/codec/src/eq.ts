import { Codec, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { deepEqual } from './internal/deep-equal.js';
import { encodeIssue } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec that accepts one value of another codec: the wire value must equal (structurally)
 * `inner.encode(value)`, and is then decoded by `inner`. Schema: the inner schema with
 * `const` set to that wire value (`allOf` around a `$ref`).
 *
 * Encoding encodes the value with `inner` (its structural checks apply) and checks that the
 * result is that wire value (constraint `const`).
 */
export class EqCodec<T> extends Codec<T> {
  readonly kind = 'eq';
  /** The codec of the value. */
  readonly inner: Codec<T>;
  /** The only accepted value, decoded. */
  readonly value: T;
  /** The only accepted wire value. */
  readonly wire: unknown;
  constructor(inner: Codec<T>, value: T) {
    super();
    this.inner = inner;
    this.value = value;
    this.wire = inner.encode(value);
  }
  override children(): readonly Codec<unknown>[] {
    return [this.inner];
  }
  protected parse(input: unknown, ctx: DecodeContext): T | Invalid {
    if (!deepEqual(input, this.wire)) return ctx.addIssue(`expected ${JSON.stringify(this.wire)}`, 'const', input);
    const v = this.inner.decodeIn(input, ctx);
    return v === INVALID ? INVALID : v;
  }
  protected serialize(value: T): unknown {
    const wire = this.inner.encode(value);
    if (!deepEqual(wire, this.wire)) throw encodeIssue(`expected ${JSON.stringify(this.wire)}`, 'const', value);
    return wire;
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const s = gen.schema(this.inner);
    return s.$ref !== undefined ? { allOf: [s], const: this.wire } : { ...s, const: this.wire };
  }
}

/**
 * A codec accepting only `value`, written by `inner`:
 * `codec.eq(codec.time(), new Date(0))` accepts exactly `"1970-01-01T00:00:00.000Z"`.
 * @throws {EncodeError} when `value` does not have the structure of `inner` (what
 * `inner.encode(value)` throws).
 */
// @__NO_SIDE_EFFECTS__
export function eq<T>(inner: Codec<T>, value: T): EqCodec<T> {
  return new EqCodec(inner, value);
}
