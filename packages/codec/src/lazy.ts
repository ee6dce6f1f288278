import { Codec, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import { recursiveSchema } from './internal/schema-defs.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec that resolves another codec on first use, for recursive types. Decoding and encoding
 * (with its checks) delegate to the resolved codec.
 *
 * Schema: the resolved codec's schema inline when it does not refer back to this codec;
 * otherwise a definition (in `$defs`, or `components.schemas` for the OpenAPI renderer) named
 * after this codec's or the resolved codec's `withName`, else `Recursive1`, `Recursive2`, …,
 * and a `$ref` to it — so recursive types give finite schemas.
 *
 * `children()` returns the resolved codec: walkers of recursive codecs must remember the codecs
 * they have visited.
 */
export class LazyCodec<T> extends Codec<T> {
  readonly kind = 'lazy';
  /** Returns the codec; called once. */
  readonly getter: () => Codec<T>;
  /** The resolved codec, shared by copies. */
  protected readonly cell: { codec?: Codec<T> } = {};
  constructor(getter: () => Codec<T>) {
    super();
    this.getter = getter;
  }
  /** The codec the getter returns (resolved once). */
  get resolved(): Codec<T> {
    return (this.cell.codec ??= this.getter());
  }
  override children(): readonly Codec<unknown>[] {
    return [this.resolved];
  }
  protected parse(input: unknown, ctx: DecodeContext): T | Invalid {
    return this.resolved.decodeIn(input, ctx);
  }
  protected serialize(value: T): unknown {
    return this.resolved.encode(value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const inner = this.resolved;
    return recursiveSchema(gen, this, () => gen.schema(inner), this.meta.name ?? inner.meta.name);
  }
}

/**
 * A codec for recursive types; annotate the recursive codec's type:
 * ```ts
 * type Node = { name: string; children: Node[] };
 * const node: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => node)) });
 * ```
 */
// @__NO_SIDE_EFFECTS__
export function lazy<T>(getter: () => Codec<T>): LazyCodec<T> {
  return new LazyCodec(getter);
}
