import { Codec, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec of a value that may be absent: `undefined` decodes and encodes to `undefined`; any
 * other value goes through `inner` (and its encode checks). As an `object` field, the key may
 * be missing and is left out of `required`.
 */
export class OptionalCodec<T> extends Codec<T | undefined> {
  readonly kind = 'optional';
  /** The codec of a present value. */
  readonly inner: Codec<T>;
  constructor(inner: Codec<T>) {
    super();
    this.inner = inner;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.inner];
  }
  protected parse(input: unknown, ctx: DecodeContext): T | undefined | Invalid {
    return input === undefined ? undefined : this.inner.decodeIn(input, ctx);
  }
  protected serialize(value: T | undefined): unknown {
    return value === undefined ? undefined : this.inner.encode(value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return gen.schema(this.inner);
  }
}

/** Makes a codec optional; `object` fields wrapped in it may be absent. */
// @__NO_SIDE_EFFECTS__
export function optional<T>(inner: Codec<T>): OptionalCodec<T> {
  return new OptionalCodec(inner);
}
