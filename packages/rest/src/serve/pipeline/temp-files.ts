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
   * client left or the server shut down, whichever comes first. Resolves once the files written
   * so far are deleted (a write still running deletes its own file as it fails). Idempotent;
   * never throws or rejects.
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
 * open or on disk once {@link TempFileStore.close} ran and the writes settled.
 */
export function newTempFileStore(fs: TempFileSystem, dir: () => string): TempFileStore {
  const paths = new Set<string>();
  let closed: Promise<void> | undefined;
  const remove = (path: string): Promise<void> => {
    paths.delete(path);
    return fs.promises.rm(path, { force: true }).catch(() => undefined);
  };
  const ended = (): FileStoreError => new FileStoreError(new Error('the request is over: its uploaded files were deleted'));
  return {
    async write(chunks, type, name) {
      if (closed !== undefined) throw ended();
      let path: string;
      let file: TempFileHandle;
      try {
        path = `${dir()}/lib-upload-${crypto.randomUUID()}`;
        file = await fs.promises.open(path, 'wx', 0o600);
      } catch (err) {
        throw new FileStoreError(err);
      }
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
      closed ??= Promise.all([...paths].map(remove)).then(() => undefined);
      return closed;
    },
  };
}
