import { Codec, describeType, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { makeIssue } from './decode-error.js';
import { collect, failure, mismatch, partialWire, type EncodeFailures } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { ObjectCodec, ObjectOutput, Shape } from './object.js';
import { defineEntry, isPlainObject } from './record.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * The value of an object with declared fields and other keys of one type: the declared fields as
 * the object codec gives them, and any other key holding a `V` (an index signature covers the
 * declared fields' types too, as TypeScript requires).
 */
export type WithAdditionalProperties<O, V> = O & { [key: string]: V | O[keyof O] };

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Codec of an object with declared fields and any other keys whose values all follow one codec:
 * JSON Schema's `properties` beside a schema of `additionalProperties` (2020-12 §10.3.2.3), as
 * `{ "name": "build", "labels-ci": "true", "labels-os": "linux" }` with `name` declared and
 * every other key a string. Schema: the object's fields (`properties`, `required`; its name and
 * other metadata are not carried: name this codec with `withName`), with `additionalProperties`
 * the value codec's schema.
 *
 * Decoding reads the declared fields by the object codec (its wire names, `optional` and
 * `defaulted` fields) and every other own key by `value`, each issue at its key. Encoding writes
 * the declared fields by the object codec and every other own key of the value (not `undefined`)
 * by `value`; the issues of all keys are reported at once.
 */
export class AdditionalPropertiesCodec<S extends Shape, V> extends Codec<WithAdditionalProperties<ObjectOutput<S>, V>> {
  readonly kind = 'additionalProperties';
  /** The declared fields. */
  readonly object: ObjectCodec<S>;
  /** The codec of every other key's value. */
  readonly value: Codec<V>;
  /** The property names of the declared fields, and their wire keys. */
  protected readonly declaredKeys: ReadonlySet<string>;
  /** The object's fields without its name and other metadata: the schema this one extends. */
  protected readonly fieldsOnly: ObjectCodec<S>;

  constructor(object: ObjectCodec<S>, value: Codec<V>) {
    super();
    if (object.unknownKeys === 'reject') throw new TypeError('withAdditionalProperties: the object is strict (it rejects undeclared keys); give the object before .strict()');
    this.object = object;
    this.value = value;
    this.declaredKeys = new Set([...Object.keys(object.shape), ...object.wireKeys]);
    this.fieldsOnly = object.extend({}) as unknown as ObjectCodec<S>;
  }

  override children(): readonly Codec<unknown>[] {
    return [this.object, this.value];
  }

  protected parse(input: unknown, ctx: DecodeContext): WithAdditionalProperties<ObjectOutput<S>, V> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const declared = this.object.decodeIn(input, ctx);
    if (declared === INVALID && ctx.abortEarly) return INVALID;
    const out: Record<string, unknown> = declared === INVALID ? {} : (declared as Record<string, unknown>);
    let ok = declared !== INVALID;
    for (const key of Object.keys(input)) {
      if (this.object.wireKeys.has(key)) continue;
      ctx.path.push(key);
      const v = this.value.decodeIn(input[key], ctx);
      ctx.path.pop();
      if (v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else defineEntry(out, key, v);
    }
    return ok ? (out as WithAdditionalProperties<ObjectOutput<S>, V>) : INVALID;
  }

  protected serialize(value: WithAdditionalProperties<ObjectOutput<S>, V>): unknown {
    const v: unknown = value;
    if (!isPlainObject(v)) throw mismatch('object', v);
    let failed: EncodeFailures | undefined;
    let out: Record<string, unknown>;
    try {
      out = this.object.encode(v as ObjectOutput<S>) as Record<string, unknown>;
    } catch (err) {
      // The declared fields' issues keep their own paths (collect prefixes one segment: drop it).
      failed = collect(failed, err, '');
      failed.issues.splice(0, failed.issues.length, ...failed.issues.map((i) => makeIssue(i.path.slice(1), i.message, i.constraint, i.value)));
      out = partialWire(err, {}) as Record<string, unknown>;
    }
    for (const key of Object.keys(v)) {
      if (this.declaredKeys.has(key) || !hasOwn.call(v, key)) continue;
      const item = v[key];
      if (item === undefined) continue;
      try {
        defineEntry(out, key, this.value.encode(item as V));
      } catch (err) {
        failed = collect(failed, err, key);
        defineEntry(out, key, partialWire(err, item));
      }
    }
    if (failed !== undefined) throw failure(failed, out);
    return out;
  }

  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return { ...gen.schema(this.fieldsOnly), additionalProperties: gen.schema(this.value) };
  }
}

/**
 * An object codec whose undeclared keys are kept, each value decoded and encoded by `value`
 * (JSON Schema `additionalProperties` beside `properties`):
 * `codec.withAdditionalProperties(codec.object({ name: codec.string() }), codec.string())` takes
 * `{ name: 'build', os: 'linux' }`. The object must not be `strict()`. See {@link AdditionalPropertiesCodec}.
 * @throws {TypeError} the object is strict.
 */
// @__NO_SIDE_EFFECTS__
export function withAdditionalProperties<S extends Shape, V>(object: ObjectCodec<S>, value: Codec<V>): AdditionalPropertiesCodec<S, V> {
  return new AdditionalPropertiesCodec(object, value);
}
