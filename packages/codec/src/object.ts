import { Codec, describeType, INVALID, type DecodeContext, type Infer, type Invalid } from './codec.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { DefaultedCodec } from './defaulted.js';
import type { SchemaLike } from './from-standard-schema.js';
import { addIssue, collect, failure, mismatch, partialWire, type EncodeFailures } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import { OptionalCodec } from './optional.js';
import { defineEntry, isPlainObject } from './record.js';
import type { SchemaWriter } from './schema-writer.js';

/** The fields of an object codec: property name → codec. */
export type Shape = { readonly [key: string]: Codec<unknown> };

/** Flattens an intersection for readable hover types. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * Fields by name, each a codec or a Standard Schema: a {@link Shape}, or the parameters of a
 * route (`@lib/rest` takes either wherever a codec goes).
 */
export type FieldShape = { readonly [key: string]: SchemaLike };

/**
 * The decoded type of an object codec's shape; fields wrapped in `optional` become `?:`, as do
 * the fields of a {@link FieldShape} whose Standard Schema's output admits `undefined`.
 */
export type ObjectOutput<S extends FieldShape> = Simplify<
  { -readonly [K in keyof S as MayBeAbsent<S[K]> extends true ? never : K]: Infer<S[K]> } & {
    -readonly [K in keyof S as MayBeAbsent<S[K]> extends true ? K : never]?: Infer<S[K]>;
  }
>;

/**
 * True for a field whose decoded value may lack its key: `optional(...)`, or a Standard Schema
 * whose output admits `undefined` (not merely as `unknown`, which says nothing).
 */
type MayBeAbsent<C> = C extends OptionalCodec<unknown> ? true : C extends Codec<unknown> ? false : Admits<Infer<C>>;

/** True when `T` admits `undefined` and is not `unknown` (or `any`). */
type Admits<T> = unknown extends T ? false : undefined extends T ? true : false;

/**
 * True for a field whose key a caller may leave out: `optional(...)` or `defaulted(...)`, or a
 * Standard Schema whose input admits `undefined` (`z.number().optional()`, `.default(20)`; not
 * an input of `unknown`, as `z.coerce.number()`'s).
 */
type MayBeOmitted<C> = C extends OptionalCodec<unknown> ? true : C extends DefaultedCodec<unknown> ? true : C extends Codec<unknown> ? false : Admits<InferInput<C>>;

/**
 * What a caller may give an object codec of this shape (its encode input, a client's request):
 * like {@link ObjectOutput}, but fields wrapped in `defaulted(...)` are optional too, and nested
 * objects follow the same rule.
 */
export type ObjectInput<S extends FieldShape> = Simplify<
  { -readonly [K in keyof S as MayBeOmitted<S[K]> extends true ? never : K]: InferInput<S[K]> } & {
    -readonly [K in keyof S as MayBeOmitted<S[K]> extends true ? K : never]?: InferInput<S[K]>;
  }
>;

/**
 * The type a caller may give where a codec's value is expected (`InferInput<typeof todo>`),
 * beside its decoded type `Infer<C>`: a `defaulted(...)` value may be `undefined` (the default
 * applies when it is decoded), and object fields that are `optional(...)` or `defaulted(...)`
 * may be left out, in nested objects too. Other codecs take their decoded type. A Standard
 * Schema takes its input type (`StandardSchemaV1.InferInput`): what is sent is what it reads.
 */
export type InferInput<C> =
  C extends ObjectCodec<infer S> ? ObjectInput<S>
  : C extends DefaultedCodec<infer T> ? T | undefined
  : C extends OptionalCodec<infer T> ? T | undefined
  : C extends Codec<unknown> ? Infer<C>
  : C extends StandardSchemaV1 ? StandardSchemaV1.InferInput<C>
  : never;

/** A shape whose fields may all be absent: each field not already `optional(...)` wrapped in it. */
export type PartialShape<S extends Shape> = { readonly [K in keyof S]: S[K] extends OptionalCodec<unknown> ? S[K] : OptionalCodec<Infer<S[K]>> };

/** `S` with the fields of `E` added, replacing fields of the same name. */
export type ExtendedShape<S extends Shape, E extends Shape> = Simplify<{ readonly [K in Exclude<keyof S, keyof E>]: S[K] } & E>;

/** What an object codec does with keys its shape does not declare. */
export type UnknownKeys = 'strip' | 'reject';

/** Wire names of some fields of a shape: property name → key on the wire. */
export type WireNames<S extends Shape> = { readonly [K in keyof S]?: string };

/** One field: property name, wire key, codec, and whether the wire key may be absent. */
type Field = readonly [key: string, wire: string, codec: Codec<unknown>, mayBeAbsent: boolean];

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether an object field's key may be absent: its codec is `optional(...)` or `defaulted(...)`.
 * By kind, not instanceof, for `defaulted`: a bundle that never declares a default does not load
 * it. The compiled decoder uses the same test.
 */
export function mayBeAbsent(c: Codec<unknown>): boolean {
  return c instanceof OptionalCodec || c.kind === 'defaulted';
}

function fieldsOf(shape: Shape, wireNames: Readonly<Record<string, string | undefined>>): readonly Field[] {
  const fields = Object.keys(shape).map((k): Field => {
    const c = shape[k] as Codec<unknown>;
    const wire = hasOwn.call(wireNames, k) ? wireNames[k] : undefined;
    return [k, wire ?? k, c, mayBeAbsent(c)];
  });
  const seen = new Set<string>();
  for (const [, wire] of fields) {
    if (seen.has(wire)) throw new TypeError(`two fields share the wire name ${JSON.stringify(wire)}`);
    seen.add(wire);
  }
  return fields;
}

/**
 * Codec of an object with declared fields. Wire value: a JSON object; schema
 * `{ type: 'object', properties, required }`, plus `additionalProperties: false` when strict.
 *
 * - Unknown keys are stripped by default and rejected after `.strict()` (constraint `unknownKey`).
 * - A field wrapped in `optional(c)` may be absent (decoded `?:`); one wrapped in
 *   `defaulted(c, v)` may be absent and then decodes to `v`. Neither is in `required`.
 * - `.withWireNames({ userId: 'user_id' })` reads and writes a field under another key; the
 *   schema and issue paths use the wire key.
 * - Only declared keys are read (own properties only) and written (as own data properties), so
 *   input keys like `__proto__` or `constructor` never reach a prototype.
 * - Encoding checks that the value is a non-null, non-array object; that every field that is
 *   neither `optional` nor `defaulted` is present and not `undefined` (else an issue
 *   `required` at its wire key); and encodes every present field, prefixing its issues with the
 *   field's wire key. The issues of all fields are reported at once. Undeclared keys of the
 *   value are left out, even when strict.
 */
export class ObjectCodec<S extends Shape> extends Codec<ObjectOutput<S>> {
  readonly kind = 'object';
  /** The declared fields. */
  readonly shape: S;
  /** What happens to undeclared keys. */
  readonly unknownKeys: UnknownKeys = 'strip';
  /** Wire keys of the fields renamed with {@link ObjectCodec.withWireNames}. */
  readonly wireNames: WireNames<S> = {};
  /** The fields as `[key, wireKey, codec, mayBeAbsent]`, computed once per copy. */
  protected readonly fields: readonly Field[];
  /** The wire keys of the fields (the keys a strict object accepts). */
  readonly wireKeys: ReadonlySet<string>;

  constructor(shape: S) {
    super();
    this.shape = shape;
    this.fields = fieldsOf(shape, {});
    this.wireKeys = new Set(this.fields.map((f) => f[1]));
  }

  override children(): readonly Codec<unknown>[] {
    return Object.values(this.shape);
  }

  /** A copy that rejects undeclared keys (constraint `unknownKey`). */
  strict(): this {
    return this.with({ unknownKeys: 'reject' });
  }

  /** A copy that strips undeclared keys (the default). */
  strip(): this {
    return this.with({ unknownKeys: 'strip' });
  }

  /**
   * A copy whose fields `names` are read from and written to other wire keys:
   * `object({ userId: string() }).withWireNames({ userId: 'user_id' })` decodes
   * `{ "user_id": "a" }` to `{ userId: 'a' }`.
   * @throws {TypeError} when two fields would share a wire key.
   */
  withWireNames(names: WireNames<S>): this {
    const wireNames: Record<string, string | undefined> = {};
    for (const src of [this.wireNames, names] as Record<string, string | undefined>[]) {
      for (const k of Object.keys(src)) defineEntry(wireNames, k, src[k]);
    }
    const fields = fieldsOf(this.shape, wireNames);
    return this.with({ wireNames, fields, wireKeys: new Set(fields.map((f) => f[1])) });
  }

  /**
   * The same object with every field optional (an absent field stays absent: no default is
   * applied), for PATCH bodies: `user.omit('id').partial()`. A `defaulted` field becomes an
   * optional field of its inner codec, keeping its description and other metadata: its schema
   * has no `default` (OpenAPI reads `default` as what the server assumes for an absent field,
   * and a partial update assumes nothing) and no field is `required`. Like every derived object
   * codec it keeps strictness and the wire names of the fields it keeps, and carries no name,
   * constraint or other metadata of this codec (it is another schema: name it with `withName`
   * if it should be a component).
   */
  partial(): ObjectCodec<PartialShape<S>> {
    const shape: Record<string, Codec<unknown>> = {};
    for (const [key, , codec] of this.fields) {
      let field: Codec<unknown> = codec;
      if (field.kind === 'defaulted') {
        const d = field as DefaultedCodec<unknown>;
        field = new OptionalCodec(d.inner).withMeta(d.meta);
      } else if (!(field instanceof OptionalCodec)) field = new OptionalCodec(field);
      defineEntry(shape, key, field);
    }
    return this.derive(shape) as ObjectCodec<PartialShape<S>>;
  }

  /** The object with only the fields `keys` (see {@link ObjectCodec.partial} for what is kept). */
  pick<K extends keyof S & string>(...keys: K[]): ObjectCodec<Pick<S, K>> {
    const shape: Record<string, Codec<unknown>> = {};
    for (const [key, , codec] of this.fields) if ((keys as string[]).includes(key)) defineEntry(shape, key, codec);
    return this.derive(shape) as unknown as ObjectCodec<Pick<S, K>>;
  }

  /** The object without the fields `keys` (see {@link ObjectCodec.partial} for what is kept). */
  omit<K extends keyof S & string>(...keys: K[]): ObjectCodec<Simplify<Omit<S, K>>> {
    const shape: Record<string, Codec<unknown>> = {};
    for (const [key, , codec] of this.fields) if (!(keys as string[]).includes(key)) defineEntry(shape, key, codec);
    return this.derive(shape) as unknown as ObjectCodec<Simplify<Omit<S, K>>>;
  }

  /**
   * The object with the fields of `shape` added; a field of the same name is replaced (and loses
   * its wire name). See {@link ObjectCodec.partial} for what is kept.
   */
  extend<E extends Shape>(shape: E): ObjectCodec<ExtendedShape<S, E>> {
    const out: Record<string, Codec<unknown>> = {};
    for (const [key, , codec] of this.fields) if (!hasOwn.call(shape, key)) defineEntry(out, key, codec);
    for (const key of Object.keys(shape)) defineEntry(out, key, shape[key] as Codec<unknown>);
    return this.derive(out, new Set(Object.keys(shape))) as unknown as ObjectCodec<ExtendedShape<S, E>>;
  }

  /** The object with the fields of `other` added (its wire names too), replacing fields of the same name. */
  merge<E extends Shape>(other: ObjectCodec<E>): ObjectCodec<ExtendedShape<S, E>> {
    const merged = this.extend(other.shape);
    const names: Record<string, string | undefined> = {};
    for (const key of Object.keys(other.shape)) {
      const wire = other.wireName(key as keyof E & string);
      if (wire !== key) defineEntry(names, key, wire);
    }
    return Object.keys(names).length === 0 ? merged : merged.withWireNames(names as WireNames<ExtendedShape<S, E>>);
  }

  /** A fresh object codec of `shape`, with this one's strictness and the wire names of the fields it keeps (not those in `replaced`). */
  private derive(shape: Shape, replaced: ReadonlySet<string> = new Set()): ObjectCodec<Shape> {
    let c = new ObjectCodec<Shape>(shape);
    if (this.unknownKeys === 'reject') c = c.strict();
    const names: Record<string, string | undefined> = {};
    const own = this.wireNames as Record<string, string | undefined>;
    for (const key of Object.keys(shape)) if (hasOwn.call(own, key) && !replaced.has(key)) defineEntry(names, key, own[key]);
    return Object.keys(names).length === 0 ? c : c.withWireNames(names);
  }

  /** The wire key of property `key` (itself unless renamed). */
  wireName(key: keyof S & string): string {
    const names = this.wireNames as Record<string, string | undefined>;
    return (hasOwn.call(names, key) ? names[key] : undefined) ?? key;
  }

  protected parse(input: unknown, ctx: DecodeContext): ObjectOutput<S> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const [key, wire, codec, mayBeAbsent] of this.fields) {
      const raw = hasOwn.call(input, wire) ? input[wire] : undefined;
      if (raw === undefined && !mayBeAbsent) {
        ctx.addIssue('is required', 'required', undefined, wire);
        ok = false;
        if (ctx.abortEarly) return INVALID;
        continue;
      }
      ctx.path.push(wire);
      const v = codec.decodeIn(raw, ctx);
      ctx.path.pop();
      if (v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else if (v !== undefined || !mayBeAbsent) defineEntry(out, key, v);
    }
    if (this.unknownKeys === 'reject') {
      for (const key of Object.keys(input)) {
        if (!this.wireKeys.has(key)) {
          ctx.addIssue('is not a known field', 'unknownKey', input[key], key);
          ok = false;
          if (ctx.abortEarly) return INVALID;
        }
      }
    }
    return ok ? (out as ObjectOutput<S>) : INVALID;
  }

  protected serialize(value: ObjectOutput<S>): unknown {
    const v: unknown = value;
    if (!isPlainObject(v)) throw mismatch('object', v);
    const out: Record<string, unknown> = {};
    let failed: EncodeFailures | undefined;
    for (const [key, wire, codec, mayBeAbsent] of this.fields) {
      // Inherited members of Object.prototype (`constructor`, `toString`) are never field values.
      const field = hasOwn.call(v, key) || !(key in Object.prototype) ? v[key] : undefined;
      if (field === undefined) {
        if (!mayBeAbsent) failed = addIssue(failed, [wire], 'is required', 'required', undefined);
        continue;
      }
      try {
        defineEntry(out, wire, codec.encode(field));
      } catch (err) {
        failed = collect(failed, err, wire);
        defineEntry(out, wire, partialWire(err, field));
      }
    }
    if (failed !== undefined) throw failure(failed, out);
    return out;
  }

  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [, wire, codec, mayBeAbsent] of this.fields) {
      defineEntry(properties, wire, gen.schema(codec));
      if (!mayBeAbsent) required.push(wire);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (required.length > 0) s.required = required;
    if (this.unknownKeys === 'reject') s.additionalProperties = false;
    return s;
  }
}

/**
 * An object codec:
 * `codec.object({ id: codec.string(), age: codec.optional(codec.int()) })`. See {@link ObjectCodec}.
 */
// @__NO_SIDE_EFFECTS__
export function object<const S extends Shape>(shape: S): ObjectCodec<S> {
  return new ObjectCodec(shape);
}
