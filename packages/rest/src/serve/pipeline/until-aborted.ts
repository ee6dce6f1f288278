/**
 * `source` as an async iterable that ends when `signal` aborts (the client went away), even
 * while the source is waiting for its next item and never looks at `ctx.signal` itself: the
 * pending `next()` then resolves as done, and the source's `return()` is called at once. An
 * iterator object (a channel, `events.on`, a stream reader) lets go of its resources there; an
 * async generator suspended in an `await` finishes its `return()` when that `await` settles,
 * which no caller can make sooner. A failure of the source after the abort is dropped (nobody
 * reads it); before, it is the iteration's.
 *
 * Each item costs nothing once it is passed on: only the `next()` calls still pending are
 * remembered for the abort (racing every item against one promise of the abort would keep a
 * reaction per item on it, for as long as the stream lasts).
 */
export function untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<T> => {
      const it = source[Symbol.asyncIterator]();
      const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
      let stopped = false;
      /** The `next()` calls not settled yet: the abort resolves them as done. */
      const pending = new Set<(r: IteratorResult<T>) => void>();
      const abort = (): void => {
        for (const resolve of pending) resolve(done);
        pending.clear();
        stop(true);
      };
      const stop = (returning: boolean): void => {
        if (stopped) return;
        stopped = true;
        signal.removeEventListener('abort', abort);
        if (!returning) return;
        try {
          Promise.resolve(it.return?.()).catch(() => undefined);
        } catch {
          // The source's own cleanup failed: nothing is left to tell.
        }
      };
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      return {
        next: (): Promise<IteratorResult<T>> => {
          if (stopped) return Promise.resolve(done);
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            pending.add(resolve);
            let next: Promise<IteratorResult<T>>;
            try {
              next = Promise.resolve(it.next());
            } catch (err) {
              next = Promise.reject(err);
            }
            next.then(
              (r) => {
                pending.delete(resolve);
                if (r.done === true) stop(false);
                // After the abort, `resolve` already settled the call as done: this is a no-op.
                resolve(r);
              },
              (err: unknown) => {
                pending.delete(resolve);
                stop(false);
                // Dropped after the abort (the call is settled as done already).
                reject(err);
              },
            );
          });
        },
        return: (): Promise<IteratorResult<T>> => {
          stop(true);
          return Promise.resolve(done);
        },
      };
    },
  };
}
