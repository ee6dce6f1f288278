import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { DecodeError, makeIssue, type Issue } from './decode-error.js';
import { EncodeError } from './encode-error.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** True for a value `for await` can iterate (an async iterable, or a sync one that is not a string). */
function isIterable(v: unknown): v is AsyncIterable<unknown> | Iterable<unknown> {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
  return typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function' || typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

function prefixed(issues: readonly Issue[], index: number): Issue[] {
  return issues.map((i) => makeIssue([index, ...i.path], i.message, i.constraint, i.value));
}

/** Maps every item of `source` through `fn(item, index)`, lazily: nothing is read before the consumer pulls. */
async function* mapItems<A, B>(source: AsyncIterable<A> | Iterable<A>, fn: (item: A, index: number) => B): AsyncGenerator<B, void, undefined> {
  let i = 0;
  for await (const item of source) yield fn(item, i++);
}

/**
 * Codec of a stream of items: an `AsyncIterable<T>` whose items are checked one at a time, as
 * they are read. The value itself is checked when the codec runs (it must be iterable: an async
 * iterable, an array or another sync iterable); each item is checked when the consumer reaches
 * it, and a bad item makes the iteration throw — a `DecodeError` on decode, an `EncodeError` on
 * encode — whose issue paths start with the item's index (`[41, 'name']`).
 *
 * For bodies sent as a sequence of items (NDJSON, server-sent events): a streamed format
 * (`format.newStreamed`) writes and reads them. Schema `{ type: 'array', items }`: the sequence,
 * as JSON Schema 2020-12 describes one; formats document the framing of their own media type.
 */
export class StreamCodec<T> extends Codec<AsyncIterable<T>> {
  readonly kind = 'stream';
  /** The codec of each item. */
  readonly item: Codec<T>;
  constructor(item: Codec<T>) {
    super();
    this.item = item;
  }
  override children(): readonly Codec<unknown>[] {
    return [this.item];
  }
  protected parse(input: unknown, ctx: DecodeContext): AsyncIterable<T> | Invalid {
    if (!isIterable(input)) return ctx.addIssue(`expected an iterable of items, got ${describeType(input)}`, 'type', input);
    const item = this.item;
    return mapItems(input, (wire, i) => {
      try {
        return item.decode(wire);
      } catch (err) {
        if (err instanceof DecodeError) throw new DecodeError(prefixed(err.issues, i), { cause: err });
        throw err;
      }
    });
  }
  protected serialize(value: AsyncIterable<T>): unknown {
    if (!isIterable(value)) throw mismatch('an async iterable', value);
    const item = this.item;
    return mapItems(value as AsyncIterable<T>, (v, i) => {
      try {
        return item.encode(v);
      } catch (err) {
        if (err instanceof EncodeError) throw err.withPrefix(i);
        throw err;
      }
    });
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return { type: 'array', items: gen.schema(this.item) };
  }
}

/**
 * A stream of items (`codec.stream(row)`): `AsyncIterable<T>`, each item checked as it is read.
 * See {@link StreamCodec}.
 */
// @__NO_SIDE_EFFECTS__
export function stream<T>(item: Codec<T>): StreamCodec<T> {
  return new StreamCodec(item);
}
