import { Codec, describeType, INVALID, type DecodeContext, type Infer, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import { OptionalCodec } from './optional.js';
import { defineEntry, isPlainObject } from './record.js';
import type { SchemaGenerator } from './schema-generator.js';

/** The fields of an object codec: property name → codec. */
export type Shape = { readonly [key: string]: Codec<unknown> };

/** Flattens an intersection for readable hover types. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The decoded type of an object codec's shape; fields wrapped in `optional` become `?:`. */
export type ObjectOutput<S extends Shape> = Simplify<
  { -readonly [K in keyof S as S[K] extends OptionalCodec<unknown> ? never : K]: Infer<S[K]> } & {
    -readonly [K in keyof S as S[K] extends OptionalCodec<unknown> ? K : never]?: Infer<S[K]>;
  }
>;

/** What an object codec does with keys its shape does not declare. */
export type UnknownKeys = 'strip' | 'reject';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Codec of an object with declared fields. Unknown keys are stripped by default and rejected
 * after `.strict()`. Only declared keys are read (own properties only) and written, so input
 * keys like `__proto__` or `constructor` never reach a prototype. Schema
 * `{ type: 'object', properties, required }` (plus `additionalProperties: false` when strict).
 */
export class ObjectCodec<S extends Shape> extends Codec<ObjectOutput<S>> {
  readonly kind = 'object';
  /** The declared fields. */
  readonly shape: S;
  /** What happens to undeclared keys. */
  readonly unknownKeys: UnknownKeys = 'strip';
  /** The fields as `[key, codec, optional]`, computed once. */
  protected readonly fields: readonly (readonly [string, Codec<unknown>, boolean])[];

  constructor(shape: S) {
    super();
    this.shape = shape;
    this.fields = Object.keys(shape).map((k) => [k, shape[k] as Codec<unknown>, shape[k] instanceof OptionalCodec] as const);
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

  protected parse(input: unknown, ctx: DecodeContext): ObjectOutput<S> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const [key, codec, isOptional] of this.fields) {
      const present = hasOwn.call(input, key);
      const raw = present ? input[key] : undefined;
      if (raw === undefined && !isOptional) {
        ctx.addIssue('is required', 'required', undefined, key);
        ok = false;
        if (ctx.abortEarly) return INVALID;
        continue;
      }
      ctx.path.push(key);
      const v = codec.decodeIn(raw, ctx);
      ctx.path.pop();
      if (v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else if (v !== undefined || !isOptional) defineEntry(out, key, v);
    }
    if (this.unknownKeys === 'reject') {
      for (const key of Object.keys(input)) {
        if (!hasOwn.call(this.shape, key)) {
          ctx.addIssue('is not a known field', 'unknownKey', input[key], key);
          ok = false;
          if (ctx.abortEarly) return INVALID;
        }
      }
    }
    return ok ? (out as ObjectOutput<S>) : INVALID;
  }

  protected serialize(value: ObjectOutput<S>): unknown {
    const out: Record<string, unknown> = {};
    const v = value as Record<string, unknown>;
    for (const [key, codec] of this.fields) {
      const field = v[key];
      if (field === undefined) continue;
      defineEntry(out, key, codec.encode(field));
    }
    return out;
  }

  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, codec, isOptional] of this.fields) {
      properties[key] = gen.schema(codec);
      if (!isOptional) required.push(key);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (required.length > 0) s.required = required;
    if (this.unknownKeys === 'reject') s.additionalProperties = false;
    return s;
  }
}

/**
 * An object codec (SPEC.md `codec.Struct`): `codec.object({ id: codec.string(), age: codec.optional(codec.int()) })`.
 */
// @__NO_SIDE_EFFECTS__
export function object<const S extends Shape>(shape: S): ObjectCodec<S> {
  return new ObjectCodec(shape);
}
