import { Codec, describeType, INVALID, type DecodeContext, type Infer, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import type { ObjectCodec, Shape, Simplify } from './object.js';
import { isPlainObject } from './record.js';
import type { SchemaGenerator } from './schema-generator.js';

/** The variants of a tagged union: tag value → object codec. */
export type Variants = { readonly [tag: string]: ObjectCodec<Shape> };

/** The decoded type of a tagged union: each variant's type with `[tag]: key`. */
export type TaggedUnionOutput<Tag extends string, V extends Variants> = {
  [K in keyof V & string]: Simplify<{ [P in Tag]: K } & Infer<V[K]>>;
}[keyof V & string];

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Codec of a discriminated union: the wire object's `tag` property selects the variant.
 * Schema: `oneOf` of the variants, each with `tag: { const: key }` required, and an OpenAPI
 * `discriminator` (with `mapping` when variants are `$ref`s).
 */
export class TaggedUnionCodec<Tag extends string, V extends Variants> extends Codec<TaggedUnionOutput<Tag, V>> {
  readonly kind = 'taggedUnion';
  /** The discriminating property. */
  readonly tag: Tag;
  /** The variants by tag value. */
  readonly variants: V;
  constructor(tag: Tag, variants: V) {
    super();
    this.tag = tag;
    this.variants = variants;
  }
  override children(): readonly Codec<unknown>[] {
    return Object.values(this.variants);
  }
  protected parse(input: unknown, ctx: DecodeContext): TaggedUnionOutput<Tag, V> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const key = input[this.tag];
    if (typeof key !== 'string' || !hasOwn.call(this.variants, key)) {
      const allowed = Object.keys(this.variants).map((k) => JSON.stringify(k)).join(', ');
      return ctx.addIssue(`expected one of ${allowed}`, 'discriminator', key, this.tag);
    }
    const variant = this.variants[key] as ObjectCodec<Shape>;
    const v = variant.decodeIn(input, ctx);
    if (v === INVALID) return INVALID;
    return { ...(v as object), [this.tag]: key } as TaggedUnionOutput<Tag, V>;
  }
  protected serialize(value: TaggedUnionOutput<Tag, V>): unknown {
    const key = (value as Record<string, unknown>)[this.tag] as string;
    const variant = this.variants[key] as ObjectCodec<Shape>;
    return { [this.tag]: key, ...(variant.encode(value as never) as object) };
  }
  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    const oneOf: JsonSchema[] = [];
    const mapping: Record<string, string> = {};
    for (const [key, variant] of Object.entries(this.variants)) {
      const tagSchema: JsonSchema = { type: 'string', const: key };
      const s = gen.schema(variant);
      if (s.$ref !== undefined) {
        mapping[key] = s.$ref;
        oneOf.push(s);
      } else {
        oneOf.push({
          ...s,
          properties: { [this.tag]: tagSchema, ...(s.properties ?? {}) },
          required: [this.tag, ...(s.required ?? []).filter((r) => r !== this.tag)],
        });
      }
    }
    const discriminator: { propertyName: string; mapping?: Record<string, string> } = { propertyName: this.tag };
    if (Object.keys(mapping).length > 0) discriminator.mapping = mapping;
    return { oneOf, discriminator };
  }
}

/**
 * A discriminated union (SPEC.md `codec.TaggedUnion`):
 * `codec.taggedUnion('type', { card: cardCodec, bank: bankCodec })`.
 */
// @__NO_SIDE_EFFECTS__
export function taggedUnion<const Tag extends string, const V extends Variants>(tag: Tag, variants: V): TaggedUnionCodec<Tag, V> {
  return new TaggedUnionCodec(tag, variants);
}
