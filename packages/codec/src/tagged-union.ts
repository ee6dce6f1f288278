import { Codec, describeType, INVALID, type DecodeContext, type Infer, type Invalid } from './codec.js';
import { describeValue, encodeIssue, isProbing, mismatch, partialWire, PROBE_FAILED, withPartialWire } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { ObjectCodec, Shape, Simplify } from './object.js';
import { defineEntry, isPlainObject } from './record.js';
import { deriveSchema } from './internal/schema-defs.js';
import type { SchemaWriter } from './schema-writer.js';

/** The variants of a tagged union: tag value → object codec. */
export type Variants = { readonly [tag: string]: ObjectCodec<Shape> };

/** The decoded type of a tagged union: each variant's type with `[tag]: key`. */
export type TaggedUnionOutput<Tag extends string, V extends Variants> = {
  [K in keyof V & string]: Simplify<{ [P in Tag]: K } & Infer<V[K]>>;
}[keyof V & string];

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Codec of a discriminated union: the wire object's `tag` property (a string) selects the
 * variant, which decodes the rest of the object. The union owns the tag: a variant need not
 * declare it (a strict variant does not reject it), and the decoded value carries
 * `[tag]: key`. A missing or unknown tag gives one issue at `/tag`, constraint `discriminator`.
 *
 * Encoding checks that the value is an object whose own `tag` property names a variant (else an
 * `EncodeError` with one issue at `/tag`, constraint `discriminator`), encodes it with that
 * variant (and its checks) and writes the tag.
 *
 * Schema: `oneOf` whose branches each pin the tag with `const`, so exactly one branch matches
 * (JSON Schema 2020-12 §10.2.1.3); when every branch is a reference, also an OpenAPI
 * `discriminator` with its `mapping` (OpenAPI 3.1 §4.8.25, which selects referenced schemas
 * only, so a union with an inline branch carries none). An inline
 * variant gets the tag in its `properties` and `required`. A named variant (rendered as `$ref`)
 * keeps its own definition untouched, because a route may send it bare, without the tag; the
 * union references a second definition derived from it, `{name}Variant` (see
 * `SchemaGenerator.derive`): `allOf: [{ $ref: name }, { type: 'object', properties: { [tag]:
 * { const } }, required: [tag] }]`, listed in `discriminator.mapping`. Code generators give the
 * schemas a mapping names the discriminator property (openapi-typescript adds a required
 * `[tag]` to them), so the mapping must never name the bare variant. A strict named variant is
 * inlined instead, since its `additionalProperties: false` would reject the tag its definition
 * does not declare.
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
    const key = hasOwn.call(input, this.tag) ? input[this.tag] : undefined;
    if (typeof key !== 'string' || !hasOwn.call(this.variants, key)) {
      if (isProbing()) throw PROBE_FAILED;
      const allowed = Object.keys(this.variants).map((k) => JSON.stringify(k)).join(', ');
      return ctx.addIssue(`expected one of ${allowed}`, 'discriminator', key, this.tag);
    }
    const variant = this.variants[key] as ObjectCodec<Shape>;
    let body: Record<string, unknown> = input;
    if (!variant.wireKeys.has(this.tag)) {
      // The variant does not declare the tag: hand it the object without it.
      body = { ...input };
      delete body[this.tag];
    }
    const v = variant.decodeIn(body, ctx);
    if (v === INVALID) return INVALID;
    return { [this.tag]: key, ...(v as object) } as TaggedUnionOutput<Tag, V>;
  }
  protected serialize(value: TaggedUnionOutput<Tag, V>): unknown {
    const v: unknown = value;
    if (!isPlainObject(v)) throw mismatch('object', v);
    const key = hasOwn.call(v, this.tag) ? v[this.tag] : undefined;
    if (typeof key !== 'string' || !hasOwn.call(this.variants, key)) {
      if (isProbing()) throw PROBE_FAILED;
      const allowed = Object.keys(this.variants).map((k) => JSON.stringify(k)).join(', ');
      const got = typeof key === 'string' ? JSON.stringify(key) : describeValue(key);
      throw encodeIssue(`expected one of ${allowed}, got ${got}`, 'discriminator', key, [this.tag]);
    }
    const variant = this.variants[key] as ObjectCodec<Shape>;
    try {
      return { [this.tag]: key, ...(variant.encode(v as never) as object) };
    } catch (err) {
      // The variant's partial wire value, tagged as the whole value is.
      const partial = partialWire(err, undefined);
      throw partial === undefined || typeof err !== 'object' || err === null ? err : withPartialWire(err, { [this.tag]: key, ...(partial as object) });
    }
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const oneOf: JsonSchema[] = [];
    const mapping: Record<string, string> = {};
    for (const [key, variant] of Object.entries(this.variants)) {
      const tagSchema: JsonSchema = { type: 'string', const: key };
      // A strict variant is always inlined: its additionalProperties: false must see the tag.
      const s = variant.unknownKeys === 'reject' ? variant.toJsonSchema(gen) : gen.schema(variant);
      if (s.$ref !== undefined) {
        // The tagged form gets a definition of its own: the mapping must not name the bare variant.
        const base = variant.meta.name ?? decodeURIComponent(s.$ref.slice(gen.refPrefix.length));
        const ref = deriveSchema(gen, `${base}Variant`, { allOf: [s, { type: 'object', properties: { [this.tag]: tagSchema }, required: [this.tag] }] });
        defineEntry(mapping, key, ref.$ref as string);
        oneOf.push(ref);
        continue;
      }
      oneOf.push({
        ...s,
        properties: { ...(s.properties ?? {}), [this.tag]: tagSchema },
        required: [this.tag, ...(s.required ?? []).filter((r) => r !== this.tag)],
      });
    }
    // A discriminator selects among referenced schemas only (OpenAPI 3.1 §4.8.25): with an
    // inline branch it could not name, the `const` tags alone say which branch matches.
    if (Object.keys(mapping).length < oneOf.length) return { oneOf };
    return { oneOf, discriminator: { propertyName: this.tag, mapping } };
  }
}

/**
 * A discriminated union:
 * `codec.taggedUnion('type', { card: cardCodec, bank: bankCodec })`. See {@link TaggedUnionCodec}.
 */
// @__NO_SIDE_EFFECTS__
export function taggedUnion<const Tag extends string, const V extends Variants>(tag: Tag, variants: V): TaggedUnionCodec<Tag, V> {
  return new TaggedUnionCodec(tag, variants);
}
