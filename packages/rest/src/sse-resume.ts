/**
 * What the client needs of server-sent events: recognising an event-stream route and resuming a
 * broken stream. Kept apart from the declaration (sse.ts) so that a client without SSE routes
 * does not carry the event-stream parser.
 */
import { mediaTypeOf, type SSEEvent } from '@lib/format';
import type { Route } from './route.js';
import type { EventStream } from './sse.js';

/** True for a route declared with {@link newSSERoute}: its one response format is an event stream. */
export function isSSERoute(route: Route<unknown, unknown>): boolean {
  const f = route.responseFormats;
  return f !== undefined && f.length === 1 && f[0] !== undefined && mediaTypeOf(f[0].contentType) === 'text/event-stream';
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Waits `ms`, or until `signal` aborts. */
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

/**
 * An event stream that reconnects when the connection breaks (a read failure, not a clean end,
 * not an `event: error`, not an invalid event): after the server's last `retry` (else
 * `defaultRetryMs`), `reopen(lastEventId)` opens it again from the last event id seen, up to
 * `attempts` times in a row (the count starts over with each event received).
 */
export async function* resumable<E>(
  first: EventStream<E>,
  reopen: (lastEventId: string | undefined) => Promise<EventStream<E>>,
  attempts: number,
  isBreak: (err: unknown) => boolean,
  signal: AbortSignal | undefined,
  defaultRetryMs = 1000,
): AsyncGenerator<SSEEvent<E>, void, undefined> {
  let current: EventStream<E> | undefined = first;
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
      if (aborted(signal)) throw err;
    }
  }
}
