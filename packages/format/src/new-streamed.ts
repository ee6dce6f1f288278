import { DecodeError, makeIssue, StreamCodec, type Codec, type JsonSchema } from '@lib/codec';
import type { Format, StreamInfo } from './format.js';
import { checkMediaType, readerError, syntaxError } from './internal/body-error.js';

/**
 * Where a streamed format's `marshalTo` writes. `write` resolves once the reader has taken the
 * chunk (backpressure): await it, and the producer never runs ahead of the client's connection.
 * After the reader went away `signal` is aborted and `write` rejects with its reason.
 */
export interface StreamWriter {
  /** Sends a chunk; a string is sent as UTF-8. Resolves when the reader took it. */
  write(chunk: Uint8Array | string): Promise<void>;
  /** Aborted when the reader went away (the client disconnected, the consumer stopped). */
  readonly signal: AbortSignal;
}

/** Writes a value incrementally. */
export type MarshalTo<T> = (value: T, writer: StreamWriter) => Promise<void> | void;
/** Reads a value from a body's chunks; may return at once a value that reads lazily (an `AsyncIterable`). */
export type UnmarshalFrom<T> = (body: AsyncIterable<Uint8Array>, signal: AbortSignal) => T | Promise<T>;

const encoder = new TextEncoder();
const NEVER_ABORTED = new AbortController().signal;

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}

/**
 * A streamed body format: the server sends the body as it is produced (chunked transfer coding,
 * RFC 9112 §7.1), with backpressure, and the client reads it as it arrives. For NDJSON exports,
 * CSV dumps, anything too large to hold whole.
 *
 * - **Writing** (`marshalStream`, used by the server): the value's structure is checked by
 *   `codec.encode` before the first byte — a bad value is a 500 with a normal error body. Then
 *   `marshalTo(value, writer)` runs; each `await writer.write(chunk)` waits until the client's
 *   connection took the previous chunk. When the client goes away, `writer.signal` aborts and
 *   pending writes reject, so the producer stops; a producer that throws after the first byte
 *   cannot change the status any more: the server cuts the connection, and the client sees an
 *   incomplete body (an error, never a silently short result).
 * - **Reading** (`unmarshalStream`, used by the client and the server): `unmarshal(chunks,
 *   signal)` builds the value, which is then checked by the codec. With a `codec.stream(item)`
 *   codec the value is an `AsyncIterable` that decodes each item as the consumer reaches it, so a
 *   client iterates a 100 MB export without holding it; an invalid item makes the iteration
 *   throw a `DecodeError` whose path starts with the item's index. A `DecodeError` thrown by
 *   `unmarshal` reaches the caller as it is; any other error becomes a `DecodeError`, constraint
 *   `syntax` (its message is not passed on; it is the `cause`).
 * - `marshal` / `unmarshal` (whole bodies) exist for the interface: `marshal` throws a
 *   `TypeError` (a stream cannot be written synchronously), `unmarshal(bytes)` works when
 *   `unmarshal` returns its value synchronously.
 *
 * OpenAPI: with a `codec.stream(item)` codec the media type is documented as text
 * (`{ type: 'string' }`, or {@link StreamedFormat.withBodySchema}) with the item's schema under
 * `x-itemSchema`; otherwise with the codec's schema.
 */
export class StreamedFormat<T> implements Format<T> {
  readonly contentType: string;
  readonly codec: Codec<T>;
  readonly bodySchema?: JsonSchema;
  readonly itemCodec?: Codec<unknown>;
  readonly #marshalTo: MarshalTo<T>;
  readonly #unmarshal: UnmarshalFrom<T>;
  constructor(codec: Codec<T>, marshalTo: MarshalTo<T>, unmarshal: UnmarshalFrom<T>, contentType: string, bodySchema?: JsonSchema) {
    checkMediaType('newStreamed', contentType);
    this.codec = codec;
    this.contentType = contentType;
    this.#marshalTo = marshalTo;
    this.#unmarshal = unmarshal;
    if (codec instanceof StreamCodec) this.itemCodec = codec.item as Codec<unknown>;
    if (bodySchema !== undefined) this.bodySchema = bodySchema;
  }

  /** A copy whose body is documented by `schema` in OpenAPI. */
  withBodySchema(schema: JsonSchema): StreamedFormat<T> {
    return new StreamedFormat(this.codec, this.#marshalTo, this.#unmarshal, this.contentType, schema);
  }

  /**
   * The body as chunks, produced as they are pulled. The value's structure is checked at once.
   * @throws {import('@lib/codec').EncodeError} (synchronously) when the value does not have the codec's structure.
   */
  marshalStream(value: T, signal: AbortSignal = NEVER_ABORTED): AsyncIterable<Uint8Array> {
    this.codec.encode(value);
    return produce(this.#marshalTo, value, signal);
  }

  /**
   * Reads a body from its chunks and checks the value with the codec.
   * @throws {DecodeError} `unmarshal`'s own, `syntax` for any other failure of it, or the codec's issues.
   */
  async unmarshalStream(body: AsyncIterable<Uint8Array>, info: StreamInfo): Promise<T> {
    let value: T;
    try {
      value = await this.#unmarshal(body, info.signal);
    } catch (err) {
      throw readerError(this.contentType, err);
    }
    return this.#checked(value);
  }

  /** @throws {TypeError} always: a streamed format writes through {@link StreamedFormat.marshalStream}. */
  marshal(_value: T): Uint8Array {
    throw new TypeError(`format.newStreamed (${this.contentType}) writes through marshalStream, not marshal`);
  }

  /**
   * Reads a whole body.
   * @throws {TypeError} when `unmarshal` returns a promise (it cannot be awaited here).
   * @throws {DecodeError} as {@link StreamedFormat.unmarshalStream}.
   */
  unmarshal(bytes: Uint8Array): T {
    let value: T | Promise<T>;
    try {
      value = this.#unmarshal(once(bytes), NEVER_ABORTED);
    } catch (err) {
      throw readerError(this.contentType, err);
    }
    if (value instanceof Promise) {
      value.catch(() => undefined);
      throw new TypeError(`format.newStreamed (${this.contentType}): unmarshal is asynchronous; read the body with unmarshalStream`);
    }
    return this.#checked(value);
  }

  #checked(value: T): T {
    // A stream is checked item by item as it is read: decoding its encoding gives the checking iterable.
    const c: Codec<unknown> = this.codec;
    this.codec.validate(value);
    if (c instanceof StreamCodec) return validateItems(c.item as Codec<unknown>, value as AsyncIterable<unknown>) as T;
    return value;
  }
}

/**
 * The items of `source` as they are, each checked by `item.validate` when the consumer reaches
 * it: a bad item makes the iteration throw a `DecodeError` whose paths start with its index.
 */
async function* validateItems(item: Codec<unknown>, source: AsyncIterable<unknown>): AsyncGenerator<unknown, void, undefined> {
  let i = 0;
  for await (const v of source) {
    try {
      item.validate(v);
    } catch (err) {
      if (err instanceof DecodeError) throw new DecodeError(err.issues.map((x) => makeIssue([i, ...x.path], x.message, x.constraint, x.value)), { cause: err });
      throw err;
    }
    i++;
    yield v;
  }
}

interface Pending {
  readonly chunk: Uint8Array;
  readonly taken: () => void;
  readonly refused: (reason: unknown) => void;
}

/**
 * Runs `marshalTo` against a writer whose writes the returned iterable yields, one at a time:
 * a write resolves when the consumer pulls the next chunk. Ending the iteration early (the
 * consumer's `return()`) or aborting `signal` aborts the writer's signal and rejects its pending
 * writes; the producer's own failure is thrown by the iteration. No promise is left unhandled.
 */
async function* produce<T>(marshalTo: MarshalTo<T>, value: T, signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
  const controller = new AbortController();
  const queue: Pending[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { readonly error: unknown } | undefined;
  const onAbort = (): void => {
    controller.abort(signal.reason);
    wake?.();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const writer: StreamWriter = {
    signal: controller.signal,
    write(chunk) {
      if (controller.signal.aborted) return Promise.reject(controller.signal.reason);
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      if (!(bytes instanceof Uint8Array)) return Promise.reject(new TypeError('StreamWriter.write takes a Uint8Array or a string'));
      return new Promise<void>((taken, refused) => {
        queue.push({ chunk: bytes, taken, refused });
        wake?.();
      });
    },
  };
  void (async () => {
    try {
      await marshalTo(value, writer);
    } catch (err) {
      failure = { error: err };
    }
    finished = true;
    wake?.();
  })();
  // The write whose chunk was yielded and not yet taken: settled by the next pull, or refused
  // when the consumer stops at that yield.
  let inFlight: Pending | undefined;
  try {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        inFlight = next;
        if (next.chunk.byteLength > 0) yield next.chunk;
        inFlight = undefined;
        next.taken();
        continue;
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      if (finished) {
        if (failure !== undefined) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished && !controller.signal.aborted) controller.abort(new Error('the reader went away'));
    inFlight?.refused(controller.signal.reason);
    for (const p of queue.splice(0)) p.refused(controller.signal.reason);
  }
}

/**
 * A custom streamed body format (`format.newStreamed(codec, marshalTo, unmarshal,
 * 'application/x-ndjson')`). See {@link StreamedFormat}.
 *
 * ```ts
 * const rows = codec.stream(rowCodec);
 * const ndjson = format.newStreamed(
 *   rows,
 *   async (items, w) => { for await (const r of items) await w.write(JSON.stringify(rowCodec.encode(r)) + '\n'); },
 *   (body) => readLines(body, (line) => JSON.parse(line)),
 *   'application/x-ndjson',
 * );
 * ```
 * @throws {TypeError} when `contentType` is not a media type `type/subtype` (parameters allowed).
 */
// @__NO_SIDE_EFFECTS__
export function newStreamed<T>(codec: Codec<T>, marshalTo: MarshalTo<T>, unmarshal: UnmarshalFrom<T>, contentType: string): StreamedFormat<T> {
  return new StreamedFormat(codec, marshalTo, unmarshal, contentType);
}

/**
 * The lines of a UTF-8 body, read as its chunks arrive (for `newStreamed` readers of
 * line-delimited formats: NDJSON, CSV). Lines end at `\n` (a preceding `\r` is dropped); a
 * last line without one is yielded too; empty lines are yielded as `''`.
 * @throws {DecodeError} `syntax` when the bytes are not valid UTF-8.
 */
export async function* lines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  const decode = (chunk?: Uint8Array): string => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch (err) {
      throw syntaxError('UTF-8 text', 'it is not valid UTF-8', err);
    }
  };
  for await (const chunk of body) {
    rest += decode(chunk);
    let nl = rest.indexOf('\n');
    while (nl !== -1) {
      const line = rest.slice(0, nl);
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      rest = rest.slice(nl + 1);
      nl = rest.indexOf('\n');
    }
  }
  rest += decode();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
