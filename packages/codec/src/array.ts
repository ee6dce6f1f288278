import { Codec, describeType, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { encodeAt } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaGenerator } from './schema-generator.js';

/** Codec of an array whose items share one codec; schema `{ type: 'array', items }`. */
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
    return value.map((v, i) => encodeAt(this.item, v, i));
  }
  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    return { type: 'array', items: gen.schema(this.item) };
  }
}

/** An array codec (SPEC.md `codec.Slice`). */
// @__NO_SIDE_EFFECTS__
export function array<T>(item: Codec<T>): ArrayCodec<T> {
  return new ArrayCodec(item);
}
