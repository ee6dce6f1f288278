/**
 * `source` as an async iterable that ends when `signal` aborts (the client went away), even
 * while the source is waiting for its next item and never looks at `ctx.signal` itself: the
 * pending `next()` then resolves as done, and the source's `return()` is called at once. An
 * iterator object (a channel, `events.on`, a stream reader) lets go of its resources there; an
 * async generator suspended in an `await` finishes its `return()` when that `await` settles,
 * which no caller can make sooner. A failure of the source after the abort is dropped (nobody
 * reads it); before, it is the iteration's.
 */
export function untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<T> => {
      const it = source[Symbol.asyncIterator]();
      const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
      let stopped = false;
      let abort: () => void = () => undefined;
      const aborted = new Promise<IteratorResult<T>>((resolve) => {
        abort = () => {
          resolve(done);
          stop(true);
        };
      });
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
          const next = it.next();
          next.then(
            (r) => {
              if (r.done === true) stop(false);
            },
            () => stop(false),
          );
          return Promise.race([next, aborted]);
        },
        return: (): Promise<IteratorResult<T>> => {
          stop(true);
          return Promise.resolve(done);
        },
      };
    },
  };
}
