import { FileStoreError, type FileStore } from '@lib/format';

/** The file handle {@link newTempFileStore} writes through: Node's `FileHandle`, as Bun and Deno have it too. */
export interface TempFileHandle {
  write(data: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
}

/** The parts of Node's `fs` module a temporary-file store uses (the module itself has them, as Bun's and Deno's do). */
export interface TempFileSystem {
  readonly promises: {
    open(path: string, flags: string, mode: number): Promise<TempFileHandle>;
    rm(path: string, options: { readonly force: boolean }): Promise<void>;
  };
  openAsBlob(path: string, options: { readonly type: string }): Promise<Blob>;
}

/** A {@link FileStore} of one request's uploads, closed when the request is over. */
export interface TempFileStore extends FileStore {
  /**
   * Deletes every file written, and makes every write still running (or started later) fail with
   * a `FileStoreError` and delete its own file: call it when the response has been sent, the
   * client left or the server shut down, whichever comes first. Resolves once every file created
   * so far, or being created at the call, is deleted (a write still running then closes its
   * descriptor as it fails). Idempotent (the same promise each time); never throws or rejects.
   */
  close(): Promise<void>;
}

/**
 * Temporary files for the uploads of one request (`codec.blob()` multipart parts), in the
 * directory `dir()` names when a file is created (the system's temporary directory, read each
 * time so that a changed `TMPDIR` applies). Files are created exclusively with mode `0600` under
 * random names (`lib-upload-<uuid>`). Each chunk is written before the next is taken, so a slow
 * disk slows the upload instead of growing memory. Every failure of the file system rejects the
 * write with a {@link FileStoreError}, its descriptor closed and its file deleted; nothing is left
 * on disk once {@link TempFileStore.close} resolved (a file still being written is unlinked then;
 * its descriptor is closed when its write fails).
 *
 * `live`, when given, is the set of a server's stores that may still have files: the store is in
 * it from its creation until `close()` resolved. A server that shuts down closes every store left
 * in it and awaits them, so that no request's files outlive the server.
 */
export function newTempFileStore(fs: TempFileSystem, dir: () => string, live?: Set<TempFileStore>): TempFileStore {
  const paths = new Set<string>();
  /** Files being created: their paths are not in `paths` yet, so `close` waits for them. */
  const opening = new Set<Promise<unknown>>();
  let closed: Promise<void> | undefined;
  const remove = (path: string): Promise<void> => {
    paths.delete(path);
    return fs.promises.rm(path, { force: true }).catch(() => undefined);
  };
  const ended = (): FileStoreError => new FileStoreError(new Error('the request is over: its uploaded files were deleted'));
  const store: TempFileStore = {
    async write(chunks, type, name) {
      if (closed !== undefined) throw ended();
      let path: string;
      let file: TempFileHandle;
      let opened: Promise<TempFileHandle> | undefined;
      try {
        path = `${dir()}/lib-upload-${crypto.randomUUID()}`;
        opened = fs.promises.open(path, 'wx', 0o600);
        opening.add(opened);
        file = await opened;
      } catch (err) {
        throw new FileStoreError(err);
      } finally {
        if (opened !== undefined) opening.delete(opened);
      }
      // Before any `close` waiting for the open goes on: it then deletes this file too.
      paths.add(path);
      try {
        try {
          for await (const chunk of chunks) {
            if (closed !== undefined) throw ended();
            try {
              await file.write(chunk);
            } catch (err) {
              throw new FileStoreError(err);
            }
          }
        } finally {
          await file.close().catch(() => undefined);
        }
        if (closed !== undefined) throw ended();
        let blob: Blob;
        try {
          blob = await fs.openAsBlob(path, { type });
        } catch (err) {
          throw new FileStoreError(err);
        }
        if (closed !== undefined) throw ended();
        return name === undefined ? blob : new File([blob], name, { type });
      } catch (err) {
        await remove(path);
        throw err;
      }
    },
    close() {
      closed ??= (async () => {
        await Promise.allSettled([...opening]);
        await Promise.all([...paths].map(remove));
        live?.delete(store);
      })();
      return closed;
    },
  };
  live?.add(store);
  return store;
}
