import { DecodeError, int, makeIssue, object, optional, string, stream, type Codec, type JsonSchema, type ObjectCodec, type StreamCodec } from '@lib/codec';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Format, StreamInfo } from './format.js';
import { syntaxError } from './internal/body-error.js';

/**
 * One server-sent event (WHATWG HTML §9.2 "Server-sent events"): `data` is the typed payload,
 * sent as one JSON `data:` line; `event` names its type (`event:`, default `message`); `id` is
 * what a reconnecting client sends back as `Last-Event-ID`; `retry` tells the client how many
 * milliseconds to wait before reconnecting.
 */
export interface SSEEvent<E> {
  data: E;
  event?: string | undefined;
  id?: string | undefined;
  retry?: number | undefined;
}

/** What the stream's final `event: error` carries when the event source fails after the stream opened. */
export interface SSEErrorData<X> {
  /** The codec of the error event's data (documented in OpenAPI). */
  readonly codec: Codec<X>;
  /** The data for a failure; must not leak internals. */
  readonly map: (err: unknown) => X;
}

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

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');
const defaultErrorCodec = object({ error: string() });
const DEFAULT_ERROR: SSEErrorData<{ error: string }> = { codec: defaultErrorCodec, map: () => ({ error: 'internal server error' }) };

/** A field value of the event-stream format: no CR, LF or NUL (they would end or break the line). */
function fieldValue(name: string, v: string): string {
  if (/[\r\n\0]/.test(v)) throw new TypeError(`an SSE ${name} may not contain CR, LF or NUL`);
  return v;
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
 *   failure after — the source throws, or yields an event the codec refuses — ends the stream
 *   with one `event: error` whose data is `errorEvent.map(err)` (by default
 *   `{"error":"internal server error"}`: the failure's own text never reaches the client). The
 *   event type `error` is reserved for it. When the client goes away the source's `return()`
 *   runs and the request's `ctx.signal` aborts.
 * - **Reading** (the client): the body is parsed as it arrives (`eventsource-parser`); the value
 *   is an `AsyncIterable` of events whose `data` is decoded by the event codec (an invalid event
 *   makes the iteration throw a `DecodeError`); a final `event: error` makes it throw an
 *   {@link SSEErrorEvent}; a `retry` field is attached to the next event.
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

  /** One event as text. @throws {TypeError} for a field with a line break, or the reserved type `error`. @throws {import('@lib/codec').EncodeError} for data the codec refuses. */
  frame(ev: SSEEvent<E>): Uint8Array {
    let text = '';
    if (ev.event !== undefined) {
      if (ev.event === 'error') throw new TypeError('the SSE event type "error" is reserved for the final error event');
      text += `event: ${fieldValue('event', ev.event)}\n`;
    }
    if (ev.id !== undefined) text += `id: ${fieldValue('id', ev.id)}\n`;
    if (ev.retry !== undefined) {
      if (!Number.isSafeInteger(ev.retry) || ev.retry < 0) throw new TypeError('an SSE retry must be a non-negative integer of milliseconds');
      text += `retry: ${ev.retry}\n`;
    }
    const wire = this.eventCodec.encode(ev.data);
    text += `data: ${JSON.stringify(wire === undefined ? null : wire)}\n\n`;
    return encoder.encode(text);
  }

  /** The final error event for `err`. Never throws: a failing `map` gives the default data. */
  #errorFrame(err: unknown): Uint8Array {
    let data: string;
    try {
      data = JSON.stringify(this.errorEvent.codec.encode(this.errorEvent.map(err)));
    } catch {
      data = JSON.stringify({ error: 'internal server error' });
    }
    return encoder.encode(`event: error\ndata: ${data}\n\n`);
  }

  /**
   * The stream as chunks: events, heartbeats, and on failure a final `event: error`.
   * @throws {import('@lib/codec').EncodeError} (at once) when the value is not an async iterable.
   */
  marshalStream(value: AsyncIterable<SSEEvent<E>>, signal: AbortSignal): AsyncIterable<Uint8Array> {
    this.codec.encode(value);
    return this.#events(value, signal);
  }

  async *#events(value: AsyncIterable<SSEEvent<E>>, signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    const it = value[Symbol.asyncIterator]();
    let finished = false;
    let opened = false;
    let pending: Promise<IteratorResult<SSEEvent<E>>> | undefined;
    try {
      for (;;) {
        pending ??= it.next();
        const wait = opened ? this.heartbeatMs : this.openAfterMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let aborted: (() => void) | undefined;
        const tick = new Promise<'tick' | 'abort'>((resolve) => {
          if (wait > 0 || !opened) timer = setTimeout(() => resolve('tick'), wait);
          aborted = () => resolve('abort');
          signal.addEventListener('abort', aborted, { once: true });
        });
        let next: IteratorResult<SSEEvent<E>> | 'tick' | 'abort';
        try {
          next = await Promise.race([pending, tick]);
        } catch (err) {
          // The source failed: before the stream opened, an ordinary handler error; after, the final error event.
          if (!opened) throw err;
          finished = true;
          yield this.#errorFrame(err);
          return;
        } finally {
          clearTimeout(timer);
          if (aborted !== undefined) signal.removeEventListener('abort', aborted);
        }
        if (next === 'abort') return;
        if (next === 'tick') {
          opened = true;
          yield HEARTBEAT;
          continue;
        }
        pending = undefined;
        if (next.done === true) {
          finished = true;
          return;
        }
        let bytes: Uint8Array;
        try {
          bytes = this.frame(next.value);
        } catch (err) {
          if (!opened) throw err;
          yield this.#errorFrame(err);
          return;
        }
        opened = true;
        yield bytes;
      }
    } finally {
      // The client went away, or the stream ended early: the source stops too.
      if (!finished) {
        pending?.catch(() => undefined);
        // Not awaited: a source suspended in an await finishes its return() only when that await
        // settles — sources should end on `ctx.signal`, which is aborted already.
        try {
          Promise.resolve(it.return?.()).catch(() => undefined);
        } catch {
          // The source's own cleanup failed; nothing is left to tell.
        }
      }
    }
  }

  /**
   * Reads an event stream as it arrives: the events, decoded and checked, lazily.
   * @throws {DecodeError} (from the iteration) for an event whose data is not JSON or fails the event codec.
   * @throws {SSEErrorEvent} (from the iteration) for the stream's final `event: error`.
   */
  unmarshalStream(body: AsyncIterable<Uint8Array>, info: StreamInfo): Promise<AsyncIterable<SSEEvent<E>>> {
    return Promise.resolve(this.#read(body, info.signal));
  }

  async *#read(body: AsyncIterable<Uint8Array>, signal: AbortSignal): AsyncGenerator<SSEEvent<E>, void, undefined> {
    const queue: EventSourceMessage[] = [];
    let retry: number | undefined;
    let failure: Error | undefined;
    const retries = new Map<EventSourceMessage, number>();
    const parser = createParser({
      onEvent: (m) => {
        if (retry !== undefined) retries.set(m, retry);
        retry = undefined;
        queue.push(m);
      },
      onRetry: (ms) => {
        retry = ms;
      },
      onError: (e) => {
        if (e.type === 'max-buffer-size-exceeded') failure ??= syntaxError('text/event-stream', `an event is longer than ${this.maxEventChars} characters`, e);
      },
      maxBufferSize: this.maxEventChars,
    });
    const decoder = new TextDecoder();
    let index = 0;
    const emit = (m: EventSourceMessage): SSEEvent<E> => {
      let wire: unknown;
      try {
        wire = JSON.parse(m.data);
      } catch (err) {
        throw new DecodeError([makeIssue([index], `event data is not valid JSON: ${err instanceof SyntaxError ? err.message : 'it could not be parsed'}`, 'syntax', undefined)], { cause: err });
      }
      if (m.event === 'error') {
        let data: unknown = wire;
        try {
          data = this.errorEvent.codec.decode(wire);
        } catch {
          // An error event the route does not describe is reported as it came.
        }
        throw new SSEErrorEvent(data);
      }
      let data: E;
      try {
        data = this.eventCodec.decode(wire);
      } catch (err) {
        if (err instanceof DecodeError) throw new DecodeError(err.issues.map((i) => makeIssue([index, 'data', ...i.path], i.message, i.constraint, i.value)), { cause: err });
        throw err;
      }
      const ev: SSEEvent<E> = { data };
      if (m.event !== undefined) ev.event = m.event;
      if (m.id !== undefined) ev.id = m.id;
      const r = retries.get(m);
      if (r !== undefined) ev.retry = r;
      index++;
      return ev;
    };
    for await (const chunk of body) {
      if (signal.aborted) return;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure !== undefined) throw failure;
      while (queue.length > 0) yield emit(queue.shift() as EventSourceMessage);
    }
    parser.feed(decoder.decode());
    while (queue.length > 0) yield emit(queue.shift() as EventSourceMessage);
  }

  /**
   * A client's event stream that reconnects when its connection breaks (a read failure that
   * `isBreak` accepts; not a clean end, an `event: error` or an invalid event): after the
   * server's last `retry` in milliseconds (else `defaultRetryMs`), `reopen(lastEventId)` opens it
   * again from the last event id seen (sent as `Last-Event-ID`), up to `attempts` times in a row —
   * the count starts over with each event received. Aborting `signal` ends the waiting and the
   * stream with the last error. Clients call this for the `reconnect` option of a call.
   */
  async *resume(
    first: AsyncIterable<SSEEvent<E>>,
    reopen: (lastEventId: string | undefined) => Promise<AsyncIterable<SSEEvent<E>>>,
    attempts: number,
    isBreak: (err: unknown) => boolean,
    signal: AbortSignal | undefined,
    defaultRetryMs = 1000,
  ): AsyncGenerator<SSEEvent<E>, void, undefined> {
    let current: AsyncIterable<SSEEvent<E>> | undefined = first;
    let lastId: string | undefined;
    let retryMs = defaultRetryMs;
    let left = attempts;
    for (;;) {
      try {
        if (current === undefined) current = await reopen(lastId);
        for await (const ev of current) {
          left = attempts;
          if (ev.id !== undefined) lastId = ev.id;
          if (ev.retry !== undefined) retryMs = ev.retry;
          yield ev;
        }
        return;
      } catch (err) {
        if (aborted(signal) || left <= 0 || !isBreak(err)) throw err;
        left--;
        current = undefined;
        await sleep(retryMs, signal);
        if (aborted(signal)) throw err; // aborted while waiting
      }
    }
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
    return this.#read(
      (async function* () {
        yield bytes;
      })(),
      new AbortController().signal,
    );
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

/** Waits `ms` milliseconds, or until `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
