// The reader, writer and reconnection of `format.sse`, loaded on first use (`import('./sse-stream.js')`
// in sse.ts): a browser client carries this module and its parser only once it opens an event
// stream. Only sse.ts loads it, and it imports nothing but the parser: the error classes it
// throws come from sse.ts (`Kit`). A code-splitting bundler thus puts it and the parser in one
// chunk of their own and leaves the app's entry whole (esbuild moves every module an entry and
// a lazy chunk share into a third file, which the browser would load up front).
import type { Codec, DecodeError, makeIssue } from '@lib/codec';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The classes and helpers the reader builds its errors with, handed over by sse.ts. */
export interface Kit {
  readonly DecodeError: typeof DecodeError;
  readonly makeIssue: typeof makeIssue;
  readonly SSEErrorEvent: new (data: unknown) => Error;
}

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

/** What the reader and writer need of an event-stream format (`SSEFormat` has it). */
export interface EventStreamSettings<E> {
  readonly eventCodec: Codec<E>;
  readonly errorEvent: SSEErrorData<unknown>;
  readonly heartbeatMs: number;
  readonly openAfterMs: number;
  readonly maxEventChars: number;
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');

/** A field value of the event-stream format: no CR, LF or NUL (they would end or break the line). */
function fieldValue(name: string, v: string): string {
  if (/[\r\n\0]/.test(v)) throw new TypeError(`an SSE ${name} may not contain CR, LF or NUL`);
  return v;
}

/**
 * One event as text.
 * @throws {TypeError} for a field with a line break, or the reserved type `error`.
 * @throws {import('@lib/codec').EncodeError} for data the codec refuses.
 */
export function frame<E>(f: EventStreamSettings<E>, ev: SSEEvent<E>): Uint8Array {
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
  const wire = f.eventCodec.encode(ev.data);
  text += `data: ${JSON.stringify(wire === undefined ? null : wire)}\n\n`;
  return encoder.encode(text);
}

/** The final error event for `err`. Never throws: a failing `map` gives the default data. */
function errorFrame(f: EventStreamSettings<unknown>, err: unknown): Uint8Array {
  let data: string;
  try {
    data = JSON.stringify(f.errorEvent.codec.encode(f.errorEvent.map(err)));
  } catch {
    data = JSON.stringify({ error: 'internal server error' });
  }
  return encoder.encode(`event: error\ndata: ${data}\n\n`);
}

/** The stream as chunks: events, heartbeats, and on failure a final `event: error` (see `SSEFormat.marshalStream`). */
export async function* writeEvents<E>(f: EventStreamSettings<E>, value: AsyncIterable<SSEEvent<E>>, signal: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
  const it = value[Symbol.asyncIterator]();
  let finished = false;
  let opened = false;
  let pending: Promise<IteratorResult<SSEEvent<E>>> | undefined;
  try {
    for (;;) {
      pending ??= it.next();
      const wait = opened ? f.heartbeatMs : f.openAfterMs;
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
        yield errorFrame(f, err);
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
        bytes = frame(f, next.value);
      } catch (err) {
        if (!opened) throw err;
        yield errorFrame(f, err);
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

/** The events of a body as it arrives, decoded and checked (see `SSEFormat.unmarshalStream`). */
export async function* readEvents<E>(
  f: EventStreamSettings<E>,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  signal: AbortSignal,
  { DecodeError, makeIssue, SSEErrorEvent }: Kit,
): AsyncGenerator<SSEEvent<E>, void, undefined> {
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
      if (e.type === 'max-buffer-size-exceeded') {
        failure ??= new DecodeError([makeIssue([], `body is not valid text/event-stream: an event is longer than ${f.maxEventChars} characters`, 'syntax', undefined)], { cause: e });
      }
    },
    maxBufferSize: f.maxEventChars,
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
        data = f.errorEvent.codec.decode(wire);
      } catch {
        // An error event the route does not describe is reported as it came.
      }
      throw new SSEErrorEvent(data);
    }
    let data: E;
    try {
      data = f.eventCodec.decode(wire);
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

/** A client's event stream that reconnects when its connection breaks (see `SSEFormat.resume`). */
export async function* resumeEvents<E>(
  first: AsyncIterable<SSEEvent<E>>,
  reopen: (lastEventId: string | undefined) => Promise<AsyncIterable<SSEEvent<E>>>,
  attempts: number,
  isBreak: (err: unknown) => boolean,
  signal: AbortSignal | undefined,
  defaultRetryMs: number,
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
