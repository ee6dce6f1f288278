import { Codec, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema, JsonSchemaType } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec of a value or `null`. Schema in OpenAPI 3.1 form: `type: [t, 'null']` when the inner
 * schema is a plain typed schema, else `anyOf: [inner, { type: 'null' }]` — never `nullable: true`.
 * `null` encodes to `null`; any other value (`undefined` included) goes through `inner` and its
 * encode checks.
 */
export class NullableCodec<T> extends Codec<T | null> {
  readonly kind = 'nullable';
  /** The codec of a non-null value. */
  readonly inner: Codec<T>;
  constructor(inner: Codec<T>) {
    super();
    this.inner = inner;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.inner];
  }
  protected parse(input: unknown, ctx: DecodeContext): T | null | Invalid {
    return input === null ? null : this.inner.decodeIn(input, ctx);
  }
  protected serialize(value: T | null): unknown {
    return value === null ? null : this.inner.encode(value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const s = gen.schema(this.inner);
    const simple = typeof s.type === 'string' && s.$ref === undefined && s.const === undefined && s.enum === undefined;
    if (simple) return { ...s, type: [s.type as JsonSchemaType, 'null'] };
    return { anyOf: [s, { type: 'null' }] };
  }
}

/** Makes a codec accept `null`. */
// @__NO_SIDE_EFFECTS__
export function nullable<T>(inner: Codec<T>): NullableCodec<T> {
  return new NullableCodec(inner);
}
