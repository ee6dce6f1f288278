import { Codec, describeType, INVALID, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaGenerator } from './schema-generator.js';

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

/**
 * Codec of an object with arbitrary string keys and values of one codec;
 * schema `{ type: 'object', additionalProperties }`.
 */
export class RecordCodec<V> extends Codec<Record<string, V>> {
  readonly kind = 'record';
  /** The codec of each value. */
  readonly value: Codec<V>;
  constructor(value: Codec<V>) {
    super();
    this.value = value;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.value];
  }
  protected parse(input: unknown, ctx: DecodeContext): Record<string, V> | Invalid {
    if (!isPlainObject(input)) return ctx.addIssue(`expected object, got ${describeType(input)}`, 'type', input);
    const out: Record<string, V> = {};
    let ok = true;
    for (const key of Object.keys(input)) {
      ctx.path.push(key);
      const v = this.value.decodeIn(input[key], ctx);
      ctx.path.pop();
      if (v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else defineEntry(out, key, v);
    }
    return ok ? out : INVALID;
  }
  protected serialize(value: Record<string, V>): unknown {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) defineEntry(out, key, this.value.encode(value[key] as V));
    return out;
  }
  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    return { type: 'object', additionalProperties: gen.schema(this.value) };
  }
}

/** A string-keyed map codec (SPEC.md `codec.Map` with string keys). */
// @__NO_SIDE_EFFECTS__
export function record<V>(value: Codec<V>): RecordCodec<V> {
  return new RecordCodec(value);
}
