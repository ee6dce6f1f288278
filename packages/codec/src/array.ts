import { Codec, describeType, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { collect, failure, mismatch, partialWire, type EncodeFailures } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec of an array whose items share one codec; schema `{ type: 'array', items }`. Encoding
 * checks that the value is an array and encodes every item (issue paths end with the index),
 * reporting the issues of all items at once.
 */
export class ArrayCodec<T> extends Codec<T[]> {
  readonly kind = 'array';
  /** The codec of each item. */
  readonly item: Codec<T>;
  constructor(item: Codec<T>) {
    super();
    this.item = item;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.item];
  }
  protected parse(input: unknown, ctx: DecodeContext): T[] | Invalid {
    if (!Array.isArray(input)) return ctx.addIssue(`expected array, got ${describeType(input)}`, 'type', input);
    const out: T[] = new Array<T>(input.length);
    let ok = true;
    for (let i = 0; i < input.length; i++) {
      ctx.path.push(i);
      const v = this.item.decodeIn(input[i], ctx);
      ctx.path.pop();
      if (v === INVALID) {
        ok = false;
        if (ctx.abortEarly) return INVALID;
      } else out[i] = v;
    }
    return ok ? out : INVALID;
  }
  protected serialize(value: T[]): unknown {
    if (!Array.isArray(value)) throw mismatch('array', value);
    const n = value.length;
    const out: unknown[] = new Array<unknown>(n);
    const item = this.item;
    let failed: EncodeFailures | undefined;
    for (let i = 0; i < n; i++) {
      try {
        out[i] = item.encode(value[i] as T);
      } catch (err) {
        failed = collect(failed, err, i);
        out[i] = partialWire(err, value[i]);
      }
    }
    if (failed !== undefined) throw failure(failed, out);
    return out;
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return { type: 'array', items: gen.schema(this.item) };
  }
}

/** An array codec. */
// @__NO_SIDE_EFFECTS__
export function array<T>(item: Codec<T>): ArrayCodec<T> {
  return new ArrayCodec(item);
}
