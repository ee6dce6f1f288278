import * as fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { BodyTooLargeError } from '@lib/rest';
import { newTempFileStore, type TempFileStore } from '@lib/rest/pipeline';
import type { FileStore } from '@lib/format';

/**
 * The request body as chunks, pulled as the reader asks (node:http pauses the socket between
 * pulls). A declared `Content-Length` over `limit` fails at the first pull, before reading; past
 * the limit the iteration throws, leaving the rest unread (the response then closes the
 * connection). Stopping early never destroys the request: the answer can still be written.
 * @throws {BodyTooLargeError}
 */
export async function* bodyStream(req: IncomingMessage, limit: number): AsyncGenerator<Uint8Array, void, undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.pause();
      throw new BodyTooLargeError(limit);
    }
    yield chunk;
  }
}

/**
 * Temporary files for the uploads of one request, in the system's temporary directory
 * (`os.tmpdir()`), deleted when the response has been sent or the connection closed — the
 * client leaving, or the server destroying the connection at shutdown. The store is in `live`
 * until its files are deleted (see {@link closeFileStores}).
 */
export function requestFileStore(res: ServerResponse, live?: Set<TempFileStore>): FileStore {
  const store = newTempFileStore(fs, tmpdir, live);
  if (res.destroyed) void store.close();
  else res.once('close', () => void store.close());
  return store;
}

/**
 * Closes every store in `live` (a server's stores, from `newTempFileStore(fs, dir, live)`) and
 * resolves once their files are deleted, stores added meanwhile included: what a server awaits
 * at the end of its shutdown, so that no request's temporary files outlive it. Never rejects.
 */
export async function closeFileStores(live: Set<TempFileStore>): Promise<void> {
  while (live.size > 0) await Promise.all([...live].map((s) => s.close()));
}

/**
 * Writes a streamed body: each chunk is pulled after the previous one was flushed to the socket
 * (`drain`), so a fast producer never outruns a slow client. When the client goes away the
 * iteration is ended (`return()`); when the producer fails after the head was sent, the
 * connection is destroyed, so the client sees an incomplete body rather than a short one that
 * looks whole. For `HEAD` nothing is pulled. Never rejects.
 */
export async function pipeBody(res: ServerResponse, body: AsyncIterable<Uint8Array>, head: boolean): Promise<void> {
  const it = body[Symbol.asyncIterator]();
  let gone = false;
  const onClose = (): void => {
    if (res.writableFinished) return;
    gone = true;
  };
  res.once('close', onClose);
  try {
    if (!head) {
      for (;;) {
        const next = await it.next();
        if (next.done === true || gone) break;
        if (!res.write(next.value)) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
          if (gone) break;
        }
      }
    }
    if (gone) res.destroy();
    else res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', onClose);
    // Ends the producer when the loop stopped early (client gone, HEAD); a no-op after the end.
    try {
      await it.return?.();
    } catch {
      // The producer's cleanup failed: nothing is left to tell.
    }
  }
}
