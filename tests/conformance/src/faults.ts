/**
 * Hostile conditions, for one adapter: uploads cut at any byte (FIN or RST), temporary storage
 * that fails, handlers that never settle, clients that vanish from streams, early refusals of
 * large bodies, and shutdown with paused, half-sent and streaming connections. Every case asserts
 * no crash (an unhandled rejection fails the run), no hang (every complete request is answered
 * within a bound), and nothing left behind: the temporary directory empty and the process's
 * descriptor count back to its baseline.
 */
import { spawn } from 'node:child_process';
import { EventEmitter, on } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, readReply, type RawReply } from './raw-socket.js';
import { ndjson, row, rows } from './ndjson-rows.js';
import type { AdapterUnderTest } from './suite.js';

/** A constraint whose test throws: a bug in the server's own code, never the client's fault. */
const throwing: codec.Constraint<string> = {
  name: 'throwing',
  test: (v) => {
    if (v === 'boom') throw new Error('SECRET /srv/app/refine.js');
    return true;
  },
  message: () => 'never',
};
const guarded = codec.string().refine(throwing);

const upload = codec.object({
  a: codec.blob(),
  b: codec.optional(codec.blob()),
  c: codec.optional(codec.blob()),
  t: codec.optional(guarded),
});
const sizes = codec.object({ a: codec.int(), b: codec.int(), c: codec.int(), t: codec.string() });
const multipart = format.multipart(upload);
/** Three blob parts and a text field; the handler reads every blob back from its file. */
const uploadRoute = rest.route({ method: 'POST', path: '/upload', body: upload, response: sizes, requestFormats: [multipart] });
/** The same upload, to a handler that never settles. */
const stuckRoute = rest.route({ method: 'POST', path: '/stuck', body: upload, response: sizes, requestFormats: [multipart] });
/** Secured: a request without a bearer token is refused (401) before its body is read. */
const guardedRoute = rest.route({
  method: 'POST',
  path: '/guarded',
  body: upload,
  response: sizes,
  requestFormats: [multipart, format.json(upload)],
  meta: { security: [{ bearerAuth: [] }] },
});
/** A small body limit: larger bodies are refused with 413. */
const smallRoute = rest.route({ method: 'POST', path: '/small', body: codec.object({ x: codec.string() }), response: codec.object({ x: codec.string() }) });
/** A route that reads no body and waits until released. */
const waitRoute = rest.route({ method: 'GET', path: '/wait', response: codec.object({ ok: codec.boolean() }) });
/** A throwing constraint on every slot. */
const slotsRoute = rest.newRoute(
  'POST',
  '/slots/{p}',
  codec.object({ b: codec.optional(guarded) }) as codec.Codec<{ b?: string; p?: string; q?: string; h?: string; k?: string }>,
  codec.object({ ok: codec.boolean() }),
  rest.newPathParam('p', guarded, (r) => r.p ?? '', (r, v) => {
    r.p = v;
  }),
  rest.newOptionalQueryParam('q', guarded, (r) => r.q, (r, v) => {
    r.q = v;
  }),
  rest.newOptionalHeaderParam('X-H', guarded, (r) => r.h, (r, v) => {
    r.h = v;
  }),
  rest.newOptionalCookieParam('k', guarded, (r) => r.k, (r, v) => {
    r.k = v;
  }),
);
/** Events from an emitter; the source never looks at `ctx.signal`. */
const sseRoute = rest.newSSERoute('GET', '/events', codec.empty<object>(), row);
/** NDJSON lines from an emitter; the source never looks at `ctx.signal`. */
const ndjsonRoute = rest.newRoute('GET', '/lines', codec.empty<object>(), rows, rest.formats(ndjson));
/** NDJSON lines from a generator on a timer; it never looks at `ctx.signal`. */
const timedRoute = rest.newRoute('GET', '/timed', codec.empty<object>(), rows, rest.formats(ndjson));

/**
 * The `tick` events of `emitter` as an async iterator object that never looks at `ctx.signal`:
 * it waits for the next event until its `return()` is called, which removes its listener.
 */
function ticksOf<T>(emitter: EventEmitter, item: (n: number) => T): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      const events = on(emitter, 'tick') as AsyncIterator<[number]>;
      return {
        next: async () => {
          const r = await events.next();
          return r.done === true ? { done: true, value: undefined } : { done: false, value: item(r.value[0]) };
        },
        return: async () => {
          await events.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

const MiB = 1024 * 1024;
const BOUNDARY = 'faults-boundary-7d1e';

/** A `multipart/form-data` body with the boundary {@link BOUNDARY}. */
function multipartBody(parts: readonly { readonly name: string; readonly file?: string; readonly data: Buffer | string }[]): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.file === undefined ? '' : `; filename="${p.file}"`}`;
    out.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.file === undefined ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n`));
    out.push(typeof p.data === 'string' ? Buffer.from(p.data) : p.data);
    out.push(Buffer.from('\r\n'));
  }
  out.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(out);
}

/** The head of a raw POST with a body of `length` bytes (or chunked without one). */
function postHead(path: string, contentType: string, length: number | undefined, extra = ''): string {
  const framing = length === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\n${framing}\r\n${extra}\r\n`;
}

const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
/** The system's temporary directory, before this suite points `TMPDIR` at its own. */
const SYSTEM_TMP = tmpdir();

/** A deterministic generator of numbers in [0, 1) (mulberry32), so a failing offset can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
async function eventually(what: () => string, check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`still not so after ${ms} ms: ${what()}`);
    await sleep(20);
  }
}

/** Open descriptors of this process (Linux), or `undefined` where `/proc` is not there. */
function openDescriptors(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/**
 * Sends `body` (declared whole) and cuts the connection after `cutAt` bytes of it: with a FIN
 * (`end`) or a reset (`RST`). Resolves once the socket is closed.
 */
async function cutUpload(base: string, path: string, body: Buffer, cutAt: number, rst: boolean): Promise<void> {
  const s = await open(base);
  s.on('error', () => undefined);
  s.on('data', () => undefined);
  s.write(postHead(path, MULTIPART_TYPE, body.length));
  if (cutAt > 0) s.write(body.subarray(0, cutAt));
  // Let the server read what was sent before the connection goes.
  await new Promise<void>((r) => setImmediate(r));
  if (rst) s.resetAndDestroy();
  else s.end();
  await Promise.race([new Promise<void>((r) => s.once('close', () => r())), sleep(2000)]);
  s.destroy();
}

/** Sends a whole multipart upload on a connection of its own and reads the answer. */
async function sendWhole(base: string, path: string, body: Buffer, extraHead = ''): Promise<RawReply> {
  const s = await open(base);
  s.on('error', () => undefined);
  s.write(postHead(path, MULTIPART_TYPE, body.length, extraHead));
  s.write(body);
  try {
    return await readReply(s, 10_000);
  } finally {
    s.destroy();
  }
}

/** Runs `jobs` with at most `width` at a time. */
async function pool(jobs: readonly (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) await (jobs[next++] as () => Promise<void>)();
    }),
  );
}

/** A request with `fetch`, failing the test (not hanging it) after `ms`. */
async function fetchWithin(url: string, init: RequestInit, ms = 10_000): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
}

export function faults(adapter: AdapterUnderTest): void {
  describe(`faults: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let dir = '';
    const savedTmp = process.env.TMPDIR;
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    /** Timed sources running now. */
    const timed = { running: 0 };
    const stuck = { calls: 0 };
    const files = (): string[] => readdirSync(dir);

    beforeAll(async () => {
      // Every temporary file of this suite goes here, so what is left is seen.
      dir = mkdtempSync(join(tmpdir(), 'lib-faults-'));
      process.env.TMPDIR = dir;
      const api = rest.newServer({ title: 'Faults', version: '1.0.0' }, rest.withDefaultOptions({ securityFunc: () => undefined }));
      api.addSecurityScheme('bearerAuth', rest.bearerScheme());
      const big = { maxBodyBytes: 64 * MiB };
      uploadRoute
        .withHandler(async (_ctx, r) => {
          // Read every part back from its file, as a handler storing it would.
          const read = async (b: Blob | undefined): Promise<number> => (b === undefined ? 0 : (await b.arrayBuffer()).byteLength);
          return { a: await read(r.a), b: await read(r.b), c: await read(r.c), t: r.t ?? '' };
        })
        .withOptions(big)
        .register(api);
      stuckRoute
        .withHandler(() => {
          stuck.calls++;
          return new Promise<never>(() => undefined);
        })
        .withOptions(big)
        .register(api);
      guardedRoute.withHandler(() => ({ a: 0, b: 0, c: 0, t: '' })).withOptions(big).register(api);
      smallRoute.withHandler((_ctx, r) => r).withOptions({ maxBodyBytes: 1024 }).register(api);
      slotsRoute.withHandler(() => ({ ok: true })).register(api);
      sseRoute.withHandler(() => ticksOf(emitter, (n) => ({ data: { n } }))).register(api);
      ndjsonRoute.withHandler(() => ticksOf(emitter, (n) => ({ n }))).register(api);
      timedRoute
        .withHandler(async function* () {
          timed.running++;
          try {
            for (let n = 0; ; n++) {
              yield { n };
              await sleep(100);
            }
          } finally {
            timed.running--;
          }
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(async () => {
      await stop();
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      rmSync(dir, { recursive: true, force: true });
    });

    describe('uploads', () => {
      it('completes a blob part followed by a large one, sent by fetch in many reads', async () => {
        const fd = new FormData();
        fd.append('a', new Blob([new Uint8Array(10)]));
        fd.append('b', new Blob([new Uint8Array(MiB).fill(7)]));
        fd.append('c', new Blob([new Uint8Array(3 * MiB + 5)]));
        const res = await fetchWithin(`${base}/upload`, { method: 'POST', body: fd });
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ a: 10, b: MiB, c: 3 * MiB + 5, t: '' });
        await eventually(() => files().join(), () => files().length === 0);
      });

      it('completes a blob part followed by a text field that arrives 50 ms later', async () => {
        const body = multipartBody([
          { name: 'a', file: 'a.bin', data: Buffer.alloc(1000, 1) },
          { name: 't', data: 'hello' },
        ]);
        const s = await open(base);
        s.write(postHead('/upload', MULTIPART_TYPE, body.length));
        s.write(body.subarray(0, 1100));
        await sleep(50);
        s.write(body.subarray(1100));
        const reply = await readReply(s, 10_000);
        s.destroy();
        expect(reply.status).toBe(201);
        expect(JSON.parse(reply.body)).toEqual({ a: 1000, b: 0, c: 0, t: 'hello' });
      });

      it('answers 500 without a crash when the temporary directory is missing, then serves again', async () => {
        process.env.TMPDIR = join(dir, 'missing', 'nested');
        try {
          const fd = new FormData();
          fd.append('a', new Blob([new Uint8Array(10)]));
          fd.append('b', new Blob([new Uint8Array(2 * MiB)]));
          const res = await fetchWithin(`${base}/upload`, { method: 'POST', body: fd });
          expect(res.status).toBe(500);
          const text = await res.text();
          expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
          expect(text).not.toMatch(/missing|ENOENT|lib-upload/);
        } finally {
          process.env.TMPDIR = dir;
        }
        const fd = new FormData();
        fd.append('a', new Blob([new Uint8Array(10)]));
        const ok = await fetchWithin(`${base}/upload`, { method: 'POST', body: fd });
        expect(ok.status).toBe(201);
      });

      it('answers 500 without a crash when the temporary directory is a file', async () => {
        const notADir = join(dir, 'not-a-dir');
        rmSync(notADir, { force: true });
        const { writeFileSync } = await import('node:fs');
        writeFileSync(notADir, '');
        process.env.TMPDIR = notADir;
        try {
          const body = multipartBody([
            { name: 'a', file: 'a', data: Buffer.alloc(100) },
            { name: 'b', file: 'b', data: Buffer.alloc(300_000) },
            { name: 'c', file: 'c', data: Buffer.alloc(300_000) },
          ]);
          const reply = await sendWhole(base, '/upload', body);
          expect(reply.status).toBe(500);
        } finally {
          process.env.TMPDIR = dir;
          rmSync(notADir, { force: true });
        }
      });

      it('leaves no file or descriptor behind after uploads cut at any offset, with FIN or RST', async () => {
        const body = multipartBody([
          { name: 'a', file: 'a.bin', data: Buffer.alloc(64 * 1024, 1) },
          { name: 'b', file: 'b.bin', data: Buffer.alloc(128 * 1024, 2) },
          { name: 'c', file: 'c.bin', data: Buffer.alloc(96 * 1024, 3) },
          { name: 't', data: 'tail' },
        ]);
        // Every part boundary, and random offsets (seeded: a failure names its offset).
        const boundaries: number[] = [];
        for (let i = body.indexOf(`--${BOUNDARY}`); i !== -1; i = body.indexOf(`--${BOUNDARY}`, i + 1)) boundaries.push(i, i + 10, i + BOUNDARY.length + 60);
        const rnd = random(24);
        const offsets = [...boundaries, ...Array.from({ length: 120 }, () => Math.floor(rnd() * body.length))];
        const jobs = offsets.flatMap((at) => [() => cutUpload(base, '/upload', body, at, false), () => cutUpload(base, '/upload', body, at, true)]);
        await pool(jobs, 8);
        // The server still answers a whole upload.
        const reply = await sendWhole(base, '/upload', body);
        expect(reply.status).toBe(201);
        expect(JSON.parse(reply.body)).toEqual({ a: 64 * 1024, b: 128 * 1024, c: 96 * 1024, t: 'tail' });
        await eventually(() => `left: ${files().join(', ')}`, () => files().length === 0);
      });

      it('removes the files of a handler that never settles once its client leaves', async () => {
        const before = stuck.calls;
        const body = multipartBody([
          { name: 'a', file: 'a.bin', data: Buffer.alloc(10_000, 1) },
          { name: 'b', file: 'b.bin', data: Buffer.alloc(20_000, 2) },
        ]);
        const sockets: Socket[] = [];
        for (let i = 0; i < 5; i++) {
          const s = await open(base);
          s.on('error', () => undefined);
          s.write(postHead('/stuck', MULTIPART_TYPE, body.length));
          s.write(body);
          sockets.push(s);
        }
        await eventually(() => `handler calls ${stuck.calls - before}`, () => stuck.calls - before === 5);
        expect(files().length).toBe(10);
        for (const s of sockets) s.destroy();
        await eventually(() => `left: ${files().join(', ')}`, () => files().length === 0);
      });
    });

    describe('early refusals', () => {
      const big = multipartBody([{ name: 'a', file: 'a.bin', data: Buffer.alloc(6 * MiB, 1) }]);
      const json = Buffer.from(JSON.stringify({ a: 'x'.repeat(4 * MiB) }));
      const chunked = (bytes: Buffer): ReadableStream<Uint8Array> => {
        let at = 0;
        return new ReadableStream({
          pull(c) {
            if (at >= bytes.length) return c.close();
            c.enqueue(bytes.subarray(at, at + 64 * 1024));
            at += 64 * 1024;
          },
        });
      };
      const cases: [string, string, string, Buffer, number][] = [
        ['401 multipart', '/guarded', MULTIPART_TYPE, big, 401],
        ['401 json', '/guarded', 'application/json', json, 401],
        ['413 json', '/small', 'application/json', json, 413],
        ['415 multipart', '/small', MULTIPART_TYPE, big, 415],
      ];
      for (const [name, path, type, bytes, status] of cases) {
        it(`lets fetch read a ${name} answered while it is still sending, fixed-length and chunked`, async () => {
          const seen: (number | string)[] = [];
          for (let i = 0; i < 6; i++) {
            for (const streamed of [false, true]) {
              const init: RequestInit & { duplex?: 'half' } = streamed ? { body: chunked(bytes), duplex: 'half' } : { body: bytes };
              const res = await fetchWithin(`${base}${path}`, { method: 'POST', headers: { 'content-type': type }, ...init }).then(
                async (r) => {
                  await r.arrayBuffer();
                  return r.status;
                },
                (err: unknown) => `${String(err)} ${String((err as { cause?: unknown }).cause)}`,
              );
              seen.push(res);
            }
          }
          expect(seen).toEqual(seen.map(() => status));
        });
      }

      it('reads and drops the rest of a refused upload before closing, so the client sees a FIN, not a reset', async () => {
        for (const [path, status] of [['/guarded', 401], ['/small', 413], ['/small', 415]] as const) {
          const s = await open(base);
          const errors: string[] = [];
          s.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
          const replied = readReply(s, 10_000, true);
          s.write(postHead(path, status === 415 ? MULTIPART_TYPE : 'application/json', big.length));
          s.write(big);
          // A client busy elsewhere reads its answer late.
          const until = Date.now() + 200;
          while (Date.now() < until);
          const reply = await replied;
          // The rest of the upload goes out, read by the server, and the connection ends cleanly.
          await Promise.race([new Promise((r) => s.once('close', r)), sleep(5000)]);
          s.destroy();
          expect(reply.status).toBe(status);
          expect(reply.closedByServer).toBe(true);
          expect(errors).toEqual([]);
        }
      });
    });

    describe('streams', () => {
      it('returns an SSE or NDJSON source that ignores ctx.signal when its client vanishes', async () => {
        for (const path of ['/events', '/lines']) {
          for (let i = 0; i < 5; i++) {
            const controller = new AbortController();
            const responded = fetch(`${base}${path}`, { signal: controller.signal });
            await eventually(() => `listeners ${emitter.listenerCount('tick')}`, () => emitter.listenerCount('tick') > 0, 5000);
            emitter.emit('tick', i);
            const res = await responded;
            expect(res.status).toBe(200);
            const reader = (res.body as ReadableStream<Uint8Array>).getReader();
            await reader.read();
            controller.abort();
            await eventually(() => `${path}: listeners ${emitter.listenerCount('tick')}`, () => emitter.listenerCount('tick') === 0, 5000);
          }
        }
      });

      it('ends a timed source that ignores ctx.signal when its client vanishes', async () => {
        for (let i = 0; i < 5; i++) {
          const s = await open(base);
          s.on('error', () => undefined);
          s.write('GET /timed HTTP/1.1\r\nHost: x\r\n\r\n');
          await new Promise((r) => s.once('data', r));
          expect(timed.running).toBe(1);
          if (i % 2 === 0) s.resetAndDestroy();
          else s.destroy();
          await eventually(() => `running ${timed.running}`, () => timed.running === 0, 5000);
        }
      });
    });

    describe('server faults in user code', () => {
      it('answers a throwing constraint with 500 and no text, on every slot', async () => {
        const send = (path: string, headers: Record<string, string>, body = '{}'): Promise<Response> =>
          fetchWithin(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
        const answers = await Promise.all([
          send('/slots/boom', {}),
          send('/slots/x?q=boom', {}),
          send('/slots/x', { 'x-h': 'boom' }),
          send('/slots/x', { cookie: 'k=boom' }),
          send('/slots/x', {}, '{"b":"boom"}'),
        ]);
        for (const res of answers) {
          expect(res.status).toBe(500);
          expect(await res.text()).toBe('{"error":"internal server error"}');
        }
        const ok = await send('/slots/x?q=fine', { 'x-h': 'fine', cookie: 'k=fine' }, '{"b":"fine"}');
        expect(ok.status).toBe(201);
        // A multipart text field too.
        const fd = new FormData();
        fd.append('a', new Blob([new Uint8Array(1)]));
        fd.append('t', 'boom');
        const mp = await fetchWithin(`${base}/upload`, { method: 'POST', body: fd });
        expect(mp.status).toBe(500);
        expect(await mp.text()).toBe('{"error":"internal server error"}');
      });
    });

    describe('churn', () => {
      it(`leaves the temporary directory empty and descriptors at their baseline after ${CHURN} aborted and whole uploads`, async () => {
        const body = multipartBody([
          { name: 'a', file: 'a.bin', data: Buffer.alloc(8 * 1024, 1) },
          { name: 'b', file: 'b.bin', data: Buffer.alloc(16 * 1024, 2) },
          { name: 't', data: 'churn' },
        ]);
        // Pooled fetch connections close within their keep-alive time; wait for a quiet count.
        await sleep(100);
        const baseline = openDescriptors();
        const rnd = random(5000);
        let answered = 0;
        const whole = async (): Promise<void> => {
          if ((await sendWhole(base, '/upload', body, 'Connection: close\r\n')).status === 201) answered++;
        };
        const jobs = Array.from({ length: CHURN }, (_, i) => (i % 10 === 0 ? whole : () => cutUpload(base, '/upload', body, Math.floor(rnd() * body.length), rnd() < 0.5)));
        await pool(jobs, 16);
        expect(answered).toBe(Math.ceil(CHURN / 10));
        await eventually(() => `left: ${files().length} files`, () => files().length === 0);
        if (baseline !== undefined) await eventually(() => `descriptors ${openDescriptors()} > ${baseline}`, () => (openDescriptors() ?? 0) <= baseline);
      }, 120_000);
    });

    describe('shutdown', () => {
      /** A server of its own for one shutdown case. */
      async function serveOne(shutdownTimeout: number): Promise<{ base: string; stop: () => Promise<void>; released: () => void }> {
        const api = rest.newServer({ title: 'Shutdown', version: '1.0.0' });
        let releaseWait: () => void = () => undefined;
        waitRoute
          .withHandler(
            () =>
              new Promise((resolve) => {
                releaseWait = () => resolve({ ok: true });
              }),
          )
          .register(api);
        uploadRoute
          .withHandler(async (_ctx, r) => ({ a: r.a.size, b: r.b?.size ?? 0, c: r.c?.size ?? 0, t: r.t ?? '' }))
          .withOptions({ maxBodyBytes: 64 * MiB })
          .register(api);
        sseRoute.withHandler(() => ticksOf(emitter, (n) => ({ data: { n } }))).register(api);
        const served = await adapter.serve(api, { shutdownTimeout });
        return { base: served.baseURL, stop: served.stop, released: () => releaseWait() };
      }

      const timed = async (p: Promise<void>): Promise<number> => {
        const started = Date.now();
        await p;
        return Date.now() - started;
      };

      it('resolves by its deadline with a handler that never settles and a paused, unread 8 MiB body', async () => {
        const one = await serveOne(800);
        const s = await open(one.base);
        s.on('error', () => undefined);
        s.write(`GET /wait HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${8 * MiB}\r\n\r\n`);
        s.write(Buffer.alloc(8 * MiB));
        await sleep(100);
        const took = await timed(one.stop());
        expect(took).toBeLessThan(3000);
        s.destroy();
      });

      it('resolves in a process of its own whose only connection is paused by an unread body', async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--conditions', 'lib-source', fileURLToPath(new URL('./shutdown-child.ts', import.meta.url)), adapter.name.replace('@lib/', '')], {
          cwd: fileURLToPath(new URL('..', import.meta.url)),
          // The child's own temporary files (tsx's cache) stay out of this suite's directory.
          env: { ...process.env, TMPDIR: SYSTEM_TMP },
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise<number | null>((r) => child.once('exit', r));
        await eventually(() => `child said ${JSON.stringify(out)}`, () => /port \d+/.test(out), 20_000);
        const port = Number(/port (\d+)/.exec(out)?.[1]);
        const s = await open(`http://127.0.0.1:${port}`);
        s.on('error', () => undefined);
        s.write(`GET /wait HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${8 * MiB}\r\n\r\n`);
        s.write(Buffer.alloc(8 * MiB));
        await sleep(200);
        child.stdin.end();
        const code = await Promise.race([exited, sleep(10_000).then(() => 'still running')]);
        s.destroy();
        child.kill();
        expect({ code, out: out.trim().split('\n').at(-1) }).toEqual({ code: 0, out: 'served' });
      }, 40_000);

      it('closes a connection still sending its upload at once, and resolves well before the deadline', async () => {
        const one = await serveOne(5000);
        const s = await open(one.base);
        let closed = false;
        s.on('error', () => undefined);
        s.on('close', () => (closed = true));
        const body = multipartBody([{ name: 'a', file: 'a', data: Buffer.alloc(MiB) }]);
        s.write(postHead('/upload', MULTIPART_TYPE, body.length));
        s.write(body.subarray(0, 1000));
        const trickle = setInterval(() => {
          if (!s.destroyed) s.write(Buffer.alloc(10));
        }, 20);
        await sleep(100);
        const took = await timed(one.stop());
        clearInterval(trickle);
        expect(took).toBeLessThan(2000);
        await eventually(() => 'socket open', () => closed || s.readableEnded, 2000);
        s.destroy();
        await eventually(() => `left: ${files().join(', ')}`, () => files().length === 0);
      });

      it('answers a request in flight at the signal, with Connection: close, then resolves', async () => {
        const one = await serveOne(5000);
        const s = await open(one.base);
        s.write('GET /wait HTTP/1.1\r\nHost: x\r\n\r\n');
        await sleep(100);
        const stopping = one.stop();
        setTimeout(() => one.released(), 100);
        const reply = await readReply(s, 5000);
        expect(reply.status).toBe(200);
        expect(reply.headers.connection).toBe('close');
        await stopping;
        s.destroy();
      });

      it('resolves by its deadline with parked event streams', async () => {
        const one = await serveOne(600);
        const streams = await Promise.all([0, 1, 2].map(() => fetch(`${one.base}/events`)));
        for (const r of streams) expect(r.status).toBe(200);
        const took = await timed(one.stop());
        expect(took).toBeLessThan(2500);
        for (const r of streams) await r.body?.cancel().catch(() => undefined);
        await eventually(() => `listeners ${emitter.listenerCount('tick')}`, () => emitter.listenerCount('tick') === 0, 5000);
      });
    });
  });
}

/** Requests of the churn case (`FAULTS_CHURN`; default 5000). */
const CHURN = Number(process.env.FAULTS_CHURN ?? 5000);
