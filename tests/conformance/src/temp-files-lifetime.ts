/**
 * The temporary files of uploads do not outlive `serve()`: a server in its own process
 * (`temp-files-server.ts`, `TMPDIR` a directory of the test's own) takes uploads of two
 * `codec.blob()` parts each, kept in temporary files; then its serve signal is aborted, and right
 * after `await served` (the process exits at once) none of the files is left. One upload is
 * answered whole before the abort; the other's handler returned a stream its client stopped
 * reading, so the shutdown ends it at the deadline by cutting the connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { open } from './raw-socket.js';

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
function line(child: ChildProcess, output: { text: string }, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const m = pattern.exec(output.text);
      if (m === null) return false;
      child.stdout?.off('data', check);
      child.off('exit', exited);
      resolve(m);
      return true;
    };
    const exited = (code: number | null): void => {
      if (check()) return;
      child.stdout?.off('data', check);
      reject(new Error(`temp-files server exited with ${String(code)} before ${String(pattern)}: ${output.text}`));
    };
    if (check()) return;
    child.stdout?.on('data', check);
    child.once('exit', exited);
  });
}

const A = 256 * 1024;
const B = 128 * 1024;

/** A multipart form of two blob parts, `a` (A bytes of `a`) and `b` (B bytes of `b`). */
function twoBlobs(): FormData {
  const body = new FormData();
  body.append('a', new Blob([new Uint8Array(A).fill(0x61)], { type: 'application/octet-stream' }), 'a.bin');
  body.append('b', new Blob([new Uint8Array(B).fill(0x62)], { type: 'application/octet-stream' }), 'b.bin');
  return body;
}

/**
 * Posts `twoBlobs()` to `/t/echo` on a raw connection, reads until the first bytes of `b` came
 * back (both parts were stored, the handler returned, the stream is under way), then stops
 * reading: the connection stays open with the rest of the answer unread.
 */
async function parkedEcho(base: string): Promise<Socket> {
  const request = new Request(`${base}/t/echo`, { method: 'POST', body: twoBlobs() });
  const body = Buffer.from(await request.arrayBuffer());
  const socket = await open(base);
  // The server cuts the connection at its shutdown deadline: a reset is expected, not a failure.
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    let seen = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      seen = Buffer.concat([seen, d]);
      if (seen.includes('bbbb')) {
        socket.pause();
        socket.removeAllListeners('data');
        resolve();
      }
    });
    socket.once('close', () => reject(new Error(`the echo ended early: ${seen.subarray(0, 200).toString('latin1')}`)));
    socket.write(`POST /t/echo HTTP/1.1\r\nHost: x\r\nContent-Type: ${request.headers.get('content-type') as string}\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
  });
  socket.removeAllListeners('close');
  return socket;
}

export function tempFilesLifetimeSuite(adapter: string): void {
  describe(`temporary files: ${adapter}`, () => {
    it('deletes the temporary files of every request before serve() resolves', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lib-temp-lifetime-'));
      const script = fileURLToPath(new URL('./temp-files-server.ts', import.meta.url));
      const child = spawn(process.execPath, ['--conditions=lib-source', '--import', 'tsx', script, adapter], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, TMPDIR: dir },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const output = { text: '' };
      child.stdout?.on('data', (d: Buffer) => {
        output.text += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let parked: Socket | undefined;
      try {
        const base = (await line(child, output, /READY (\S+)/))[1] as string;
        // Answered whole: the two parts were in temporary files of that directory while the handler ran.
        const res = await fetch(`${base}/t/upload`, { method: 'POST', body: twoBlobs() });
        expect(await res.json()).toEqual({ a: A, b: B, during: 2 });
        // Answered by a stream the client stops reading: its two files are still in use.
        parked = await parkedEcho(base);
        // stop.abort(); await served; then the process exits at once.
        child.stdin?.end();
        const left = JSON.parse((await line(child, output, /LEFT (.*)\n/))[1] as string) as string[];
        expect(await exited).toBe(0);
        console.log(`temp files (${adapter}): ${left.length} left right after await served`);
        expect(left).toEqual([]);
        expect(readdirSync(dir).filter((f) => f.startsWith('lib-upload-'))).toEqual([]);
      } finally {
        parked?.destroy();
        child.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 30_000);
  });
}
