import { Codec, describeType, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { collect, failure, mismatch, partialWire, type EncodeFailures } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * Sets `out[key] = value` as an own data property, so that keys such as `__proto__` never
 * reach a prototype.
 */
export function defineEntry(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** The keys a keyed record may decode to. */
export type RecordKey = string | number;

/**
 * The decoded type of a record: `Record<K, V>` for `string` or `number` keys, and a partial
 * record for a finite set of keys (a record need not hold every key).
 */
export type RecordOutput<K extends RecordKey, V> = string extends K
  ? Record<K, V>
  : number extends K
    ? Record<K, V>
    : Partial<Record<K, V>>;

/**
 * Codec of an object with arbitrary keys and values of one codec; schema
 * `{ type: 'object', additionalProperties }`, plus `propertyNames` (the key codec's schema)
 * for a keyed record. Every key is kept (`__proto__` as an own property). A key codec decodes
 * each key's text (`intString()` for numeric keys, a refined `string()`, a `literal` union);
 * its issues have the key as their path. Decoded keys are stored as object keys (text).
 *
 * Encoding checks that the value is a non-null, non-array object and encodes every key (through
 * the key codec, which gets the key's text) and every value, reporting the issues of all entries
 * at once, each at its wire key (the key as given when the key codec failed). An entry whose
 * value is `undefined` is left out, as JSON does.
 */
export class RecordCodec<V, K extends RecordKey = string> extends Codec<RecordOutput<K, V>> {
  readonly kind = 'record';
  /** The codec of each key's text, or `undefined` for plain string keys. */
  readonly key: Codec<K> | undefined;
  /** The codec of each value. */
  readonly value: Codec<V>;
  constructor(value: Codec<V>, key?: Codec<K>) {
    super();
    this.key = key;
    this.value = value;
  }
  override children(): readonly Codec<unknown>[] {
    return this.key === undefined ? [this.value] : [this.key, this.value];
  }
  protected parse(input: unknown, ctx: DecodeContext): RecordOutput<K, V> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const raw of Object.keys(input)) {
      ctx.path.push(raw);
      const k = this.key === undefined ? raw : this.key.decodeIn(raw, ctx);
      const v = this.value.decodeIn(input[raw], ctx);
      ctx.path.pop();
      if (k === INVALID || v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else defineEntry(out, String(k), v);
    }
    return ok ? (out as RecordOutput<K, V>) : INVALID;
  }
  protected serialize(value: RecordOutput<K, V>): unknown {
    const v: unknown = value;
    if (!isPlainObject(v)) throw mismatch('object', v);
    const out: Record<string, unknown> = {};
    const keyCodec = this.key;
    const valueCodec = this.value;
    let failed: EncodeFailures | undefined;
    for (const key of Object.keys(v)) {
      const item = v[key];
      if (item === undefined) continue;
      let wireKey = key;
      if (keyCodec !== undefined) {
        try {
          // Object keys are text: a numeric key reaches the key encoder as its text, which the
          // number-text encoders (`intString`) accept and write unchanged.
          wireKey = String(keyCodec.encode(key as K));
        } catch (err) {
          failed = collect(failed, err, key);
          continue;
        }
      }
      try {
        defineEntry(out, wireKey, valueCodec.encode(item as V));
      } catch (err) {
        failed = collect(failed, err, wireKey);
        defineEntry(out, wireKey, partialWire(err, item));
      }
    }
    if (failed !== undefined) throw failure(failed, out);
    return out;
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const s: JsonSchema = { type: 'object' };
    if (this.key !== undefined) s.propertyNames = gen.schema(this.key);
    s.additionalProperties = gen.schema(this.value);
    return s;
  }
}

/**
 * A map codec. `record(value)` has string keys;
 * `record(key, value)` decodes every key with `key`, whose wire value must be a string:
 * `codec.record(codec.string().refine(validate.uuid), codec.int())`,
 * `codec.record(codec.intString(), codec.string())` (decoded type `Record<number, string>`).
 */
export function record<V>(value: Codec<V>): RecordCodec<V>;
export function record<K extends RecordKey, V>(key: Codec<K>, value: Codec<V>): RecordCodec<V, K>;
// @__NO_SIDE_EFFECTS__
export function record<K extends RecordKey, V>(a: Codec<K> | Codec<V>, b?: Codec<V>): RecordCodec<V, K> | RecordCodec<V> {
  return b === undefined ? new RecordCodec<V>(a as Codec<V>) : new RecordCodec<V, K>(b, a as Codec<K>);
}
