import { Codec, INVALID, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec that maps the value of another codec: decode runs `inner`, then `decode`; encode runs
 * `encode`, then `inner`, whose encode checks apply to what `encode` returned (a wrong result is
 * an `EncodeError`). A `decode` that throws gives an issue (constraint `map`) with the thrown
 * message; an `encode` that throws is a bug and its error propagates unchanged. The schema is
 * the inner codec's; constraints added to the mapped codec act on the mapped value and are not
 * reflected into the schema.
 */
export class MapCodec<A, B> extends Codec<B> {
  readonly kind: string = 'map';
  /** The codec of the wire side. */
  readonly inner: Codec<A>;
  /** Maps a decoded inner value to the outer value. */
  readonly decodeFn: (a: A) => B;
  /** Maps an outer value back to the inner value. */
  readonly encodeFn: (b: B) => A;
  constructor(inner: Codec<A>, decode: (a: A) => B, encode: (b: B) => A) {
    super();
    this.inner = inner;
    this.decodeFn = decode;
    this.encodeFn = encode;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.inner];
  }
  protected parse(input: unknown, ctx: DecodeContext): B | Invalid {
    const a = this.inner.decodeIn(input, ctx);
    if (a === INVALID) return INVALID;
    try {
      return this.decodeFn(a);
    } catch (err) {
      return ctx.addIssue(err instanceof Error ? err.message : String(err), 'map', input);
    }
  }
  protected serialize(value: B): unknown {
    return this.inner.encode(this.encodeFn(value));
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return gen.schema(this.inner);
  }
  protected override reflectConstraints(schema: JsonSchema): JsonSchema {
    return schema;
  }
}

/**
 * A value mapping:
 * `codec.map(codec.string(), (s) => new URL(s), (u) => u.href)`.
 */
// @__NO_SIDE_EFFECTS__
export function map<A, B>(inner: Codec<A>, decode: (a: A) => B, encode: (b: B) => A): MapCodec<A, B> {
  return new MapCodec(inner, decode, encode);
}
