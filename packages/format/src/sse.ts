import { DecodeError, int, makeIssue, object, optional, string, stream, type Codec, type JsonSchema, type ObjectCodec, type StreamCodec } from '@lib/codec';
import type { Format, StreamInfo } from './format.js';
import type { SSEErrorData, SSEEvent } from './sse-stream.js';

export type { SSEErrorData, SSEEvent } from './sse-stream.js';


/** Options of {@link sse}. */
export interface SSEOptions<X = { error: string }> {
  /**
   * Milliseconds of silence after which the server sends a comment line (`:`), so proxies and
   * load balancers do not close an idle stream (default 15 000; 0 turns it off).
   */
  readonly heartbeatMs?: number;
  /**
   * Milliseconds the server waits for the first event before it opens the stream anyway
   * (default 200). A failure of the event source before then is answered as any handler error
   * (the route's error rules: status and body); after, it ends the open stream with an
   * `event: error`.
   */
  readonly openAfterMs?: number;
  /** The data of the final `event: error` (default `{ error: 'internal server error' }`). */
  readonly errorEvent?: SSEErrorData<X>;
  /** The largest event a client reads, in characters (default 1 MiB); a larger one fails the stream. */
  readonly maxEventChars?: number;
}

/**
 * The final `event: error` of a stream, as the client's iteration throws it: the server's event
 * source failed after the stream opened. `data` is decoded by the route's error event codec.
 */
export class SSEErrorEvent<X = unknown> extends Error {
  /** The error event's data. */
  readonly data: X;
  constructor(data: X) {
    super(`the event stream failed: ${JSON.stringify(data)}`);
    this.name = 'SSEErrorEvent';
    this.data = data;
  }
}

const defaultErrorCodec = object({ error: string() });
const DEFAULT_ERROR: SSEErrorData<{ error: string }> = { codec: defaultErrorCodec, map: () => ({ error: 'internal server error' }) };

/** The reader, writer and reconnection, loaded on first use. */
type Stream = typeof import('./sse-stream.js');
type Kit = import('./sse-stream.js').Kit;
let loaded: Promise<Stream> | undefined;
/**
 * Loads the reader, writer and reconnection of event streams (`sse-stream.js`, with its parser)
 * once: a dynamic `import()`, which a code-splitting bundler turns into a chunk of its own, so
 * that a browser client loads the SSE code when it first reads a stream, not up front.
 */
function load(): Promise<Stream> {
  return (loaded ??= import('./sse-stream.js'));
}
/** What the reader throws with, handed to it so that its module imports nothing (see sse-stream.ts). */
const KIT: Kit = { DecodeError, makeIssue, SSEErrorEvent };
/** The iterable `make` gives once the implementation is loaded. */
async function* later<T>(make: (s: Stream) => AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  yield* make(await load());
}

/**
 * The `text/event-stream` body format (WHATWG HTML §9.2) of a stream of typed events: the value
 * is an `AsyncIterable<SSEEvent<E>>`, each event's `data` encoded by the event codec as one JSON
 * `data:` line, with its `event`, `id` and `retry` fields.
 *
 * - **Writing** (the server): events are written as the event source yields them, pulled as
 *   the connection drains; a comment line keeps an idle stream alive (`heartbeatMs`). The head
 *   is sent with the first event, or after `openAfterMs` without one; a failure of the source
 *   before then is an ordinary handler error (status and body from the route's rules). A
 *   failure after — the source throws, or yields an event the codec refuses (a `TypeError` for
 *   an `event` or `id` with a line break, a negative `retry`, or the type `error`) — ends the
 *   stream with one `event: error` whose data is `errorEvent.map(err)` (by default
 *   `{"error":"internal server error"}`: the failure's own text never reaches the client). The
 *   event type `error` is reserved for it. When the client goes away the source's `return()`
 *   runs and the request's `ctx.signal` aborts.
 * - **Reading** (the client): the body is parsed as it arrives (`eventsource-parser`); the value
 *   is an `AsyncIterable` of events whose `data` is decoded by the event codec (an invalid event
 *   makes the iteration throw a `DecodeError`); a final `event: error` makes it throw an
 *   {@link SSEErrorEvent}; a `retry` field is attached to the next event.
 * - **Loading**: the format itself is small — media type, codecs, options, documentation. Its
 *   reader, writer and reconnection (with the parser) are loaded by a dynamic `import()` the
 *   first time a stream is read, written or resumed: a code-splitting bundler puts them in a
 *   chunk of their own, which a browser client fetches when it opens its first event stream.
 *
 * OpenAPI: the response is documented as text with the event codec's schema under
 * `x-itemSchema`, and the framing described in the schema's description.
 */
export class SSEFormat<E, X = { error: string }> implements Format<AsyncIterable<SSEEvent<E>>> {
  readonly contentType: string = 'text/event-stream';
  readonly codec: StreamCodec<SSEEvent<E>>;
  /** The codec of each event's data. */
  readonly eventCodec: Codec<E>;
  readonly itemCodec: Codec<unknown>;
  /** The body as text, framing described; the final error event's data under `x-errorEventSchema`. */
  readonly bodySchema: JsonSchema;
  /** Sent with every stream: no caching, no proxy buffering. */
  readonly responseHeaders: readonly (readonly [string, string])[] = [
    ['cache-control', 'no-cache'],
    ['x-accel-buffering', 'no'],
  ];
  readonly heartbeatMs: number;
  readonly openAfterMs: number;
  readonly errorEvent: SSEErrorData<X>;
  readonly maxEventChars: number;

  constructor(eventCodec: Codec<E>, options: SSEOptions<X> = {}) {
    this.eventCodec = eventCodec;
    this.itemCodec = eventCodec as Codec<unknown>;
    const envelope: ObjectCodec<never> = object({ data: eventCodec, event: optional(string()), id: optional(string()), retry: optional(int()) }) as unknown as ObjectCodec<never>;
    this.codec = stream(envelope as unknown as Codec<SSEEvent<E>>);
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.openAfterMs = options.openAfterMs ?? 200;
    this.errorEvent = options.errorEvent ?? (DEFAULT_ERROR as unknown as SSEErrorData<X>);
    this.maxEventChars = options.maxEventChars ?? 1024 * 1024;
    this.bodySchema = {
      type: 'string',
      description:
        'A stream of server-sent events (text/event-stream): each event is an optional `event:`, `id:` and `retry:` line and one `data:` line holding JSON described by `x-itemSchema`, then a blank line. Lines starting with `:` are heartbeats. When the stream fails after it opened, it ends with an `event: error` whose data `x-errorEventSchema` describes.',
      'x-errorEventSchema': this.errorEvent.codec.schema,
    };
    for (const [k, v] of [['heartbeatMs', this.heartbeatMs], ['openAfterMs', this.openAfterMs], ['maxEventChars', this.maxEventChars]] as const) {
      if (typeof v !== 'number' || !(v >= 0)) throw new TypeError(`format.sse: ${k} must be a non-negative number, got ${String(v)}`);
    }
  }

  /**
   * The stream as chunks: events, heartbeats, and on failure a final `event: error`. The writer
   * is loaded (once) when the first chunk is pulled.
   * @throws {import('@lib/codec').EncodeError} (at once) when the value is not an async iterable.
   */
  marshalStream(value: AsyncIterable<SSEEvent<E>>, signal: AbortSignal): AsyncIterable<Uint8Array> {
    this.codec.encode(value);
    return later((s) => s.writeEvents(this as SSEFormat<E, unknown>, value, signal));
  }

  /**
   * Reads an event stream as it arrives: the events, decoded and checked, lazily. Resolves once
   * the reader is loaded.
   * @throws {DecodeError} (from the iteration) for an event whose data is not JSON or fails the event codec.
   * @throws {SSEErrorEvent} (from the iteration) for the stream's final `event: error`.
   */
  async unmarshalStream(body: AsyncIterable<Uint8Array>, info: StreamInfo): Promise<AsyncIterable<SSEEvent<E>>> {
    return (await load()).readEvents(this as SSEFormat<E, unknown>, body, info.signal, KIT);
  }

  /**
   * A client's event stream that reconnects when its connection breaks (a read failure that
   * `isBreak` accepts; not a clean end, an `event: error` or an invalid event): after the
   * server's last `retry` in milliseconds (else `defaultRetryMs`), `reopen(lastEventId)` opens it
   * again from the last event id seen (sent as `Last-Event-ID`), up to `attempts` times in a row —
   * the count starts over with each event received. Aborting `signal` ends the waiting and the
   * stream with the last error. Clients call this for the `reconnect` option of a call.
   */
  resume(
    first: AsyncIterable<SSEEvent<E>>,
    reopen: (lastEventId: string | undefined) => Promise<AsyncIterable<SSEEvent<E>>>,
    attempts: number,
    isBreak: (err: unknown) => boolean,
    signal: AbortSignal | undefined,
    defaultRetryMs = 1000,
  ): AsyncGenerator<SSEEvent<E>, void, undefined> {
    return later((s) => s.resumeEvents(first, reopen, attempts, isBreak, signal, defaultRetryMs));
  }

  /** @throws {TypeError} always: an event stream is written by {@link SSEFormat.marshalStream}. */
  marshal(_value: AsyncIterable<SSEEvent<E>>): Uint8Array {
    throw new TypeError('format.sse writes through marshalStream, not marshal');
  }

  /**
   * Reads a whole event stream: its events, lazily decoded.
   * @throws {DecodeError} (from the iteration) as {@link SSEFormat.unmarshalStream}.
   */
  unmarshal(bytes: Uint8Array): AsyncIterable<SSEEvent<E>> {
    return later((s) => s.readEvents(this as SSEFormat<E, unknown>, [bytes], new AbortController().signal, KIT));
  }
}

/**
 * The `text/event-stream` format of typed events (`format.sse(userEvent, { heartbeatMs: 10_000 })`);
 * `rest.newSSERoute` uses it. See {@link SSEFormat}.
 * @throws {TypeError} for a negative option.
 */
// @__NO_SIDE_EFFECTS__
export function sse<E, X = { error: string }>(eventCodec: Codec<E>, options?: SSEOptions<X>): SSEFormat<E, X> {
  return new SSEFormat(eventCodec, options);
}
