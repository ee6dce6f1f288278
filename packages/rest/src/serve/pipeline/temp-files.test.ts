import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStoreError } from '@lib/format';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { builtinStatus } from './prepare.js';
import { newTempFileStore, type TempFileStore } from './temp-files.js';

const dir = mkdtempSync(join(tmpdir(), 'lib-temp-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Chunks pushed by the test, read by the store. */
function pushed(): { readonly chunks: AsyncIterable<Uint8Array>; push(c: Uint8Array): void; end(): void } {
  const queue: (Uint8Array | null)[] = [];
  let wake: (() => void) | undefined;
  return {
    chunks: (async function* () {
      for (;;) {
        const next = queue.shift();
        if (next === null) return;
        if (next !== undefined) yield next;
        else await new Promise<void>((r) => (wake = r));
      }
    })(),
    push: (c) => {
      queue.push(c);
      wake?.();
    },
    end: () => {
      queue.push(null);
      wake?.();
    },
  };
}

describe('newTempFileStore', () => {
  it('writes a file per part and reads it back as a Blob or File, deleting every file on close', async () => {
    const store = newTempFileStore(fs, () => dir);
    const blob = await store.write((async function* () {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    })(), 'application/x-a');
    const file = await store.write((async function* () {
      yield new Uint8Array([9]);
    })(), 'text/plain', 'n.txt');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(blob.type).toBe('application/x-a');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('n.txt');
    expect(readdirSync(dir).filter((f) => f.startsWith('lib-upload-'))).toHaveLength(2);
    const closing = store.close();
    expect(store.close()).toBe(closing);
    await closing;
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails a write still running at close with a FileStoreError, and deletes its file', async () => {
    const store = newTempFileStore(fs, () => dir);
    const body = pushed();
    const writing = store.write(body.chunks, 'application/octet-stream');
    body.push(new Uint8Array(100));
    await vi.waitFor(() => expect(readdirSync(dir)).toHaveLength(1));
    const closing = store.close();
    body.push(new Uint8Array(100));
    body.end();
    await expect(writing).rejects.toBeInstanceOf(FileStoreError);
    await closing;
    expect(readdirSync(dir)).toEqual([]);
    await expect(store.write(pushed().chunks, 'x')).rejects.toBeInstanceOf(FileStoreError);
  });

  it('deletes at close a file still being created, and leaves the live set once its files are gone', async () => {
    const live = new Set<TempFileStore>();
    const store = newTempFileStore(fs, () => dir, live);
    expect([...live]).toEqual([store]);
    const body = pushed();
    // Closed while the file is being opened, its first chunk not sent yet.
    const writing = store.write(body.chunks, 'application/octet-stream');
    const closing = store.close();
    expect(live.has(store)).toBe(true);
    await closing;
    expect(live.size).toBe(0);
    // The open has long finished: the file it made is gone although its write still waits for a chunk.
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(dir)).toEqual([]);
    body.end();
    await expect(writing).rejects.toBeInstanceOf(FileStoreError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rejects with a FileStoreError for a directory that is missing or a file, and with the upload\'s own error', async () => {
    const missing = newTempFileStore(fs, () => join(dir, 'missing'));
    const err = await missing.write(pushed().chunks, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileStoreError);
    expect((err as FileStoreError).code).toBe('ENOENT');
    expect((err as FileStoreError).insufficientStorage).toBe(false);
    expect((err as Error).message).not.toContain(dir);
    writeFileSync(join(dir, 'plain'), '');
    const notDir = await newTempFileStore(fs, () => join(dir, 'plain')).write(pushed().chunks, 'x').catch((e: unknown) => e);
    expect((notDir as FileStoreError).code).toBe('ENOTDIR');
    rmSync(join(dir, 'plain'));
    const cut = new Error('the client went away');
    const store = newTempFileStore(fs, () => dir);
    const failed = await store.write((async function* () {
      yield new Uint8Array(10);
      throw cut;
    })(), 'x').catch((e: unknown) => e);
    expect(failed).toBe(cut);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('FileStoreError', () => {
  it('is a 507 for a full device and a 500 otherwise', () => {
    let full: unknown;
    try {
      // A real ENOSPC: /dev/full refuses every write.
      writeFileSync('/dev/full', 'x');
    } catch (err) {
      full = err;
    }
    if (full !== undefined) {
      expect(new FileStoreError(full).insufficientStorage).toBe(true);
      expect(builtinStatus(new FileStoreError(full))).toBe(507);
    }
    expect(builtinStatus(new FileStoreError(Object.assign(new Error('x'), { code: 'EACCES' })))).toBe(500);
  });
});
