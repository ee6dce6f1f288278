/**
 * A server in its own process, for the lifetime of uploads' temporary files, run by
 * `temp-files-lifetime.ts` as `node --conditions=lib-source --import tsx temp-files-server.ts
 * <adapter>` with `TMPDIR` set to a directory of the test's own (the server keeps `codec.blob()`
 * multipart parts in `lib-upload-*` files there). Prints `READY <baseURL>` once listening.
 * - `POST /t/upload`: a multipart form of two blobs `a` and `b`; answers their sizes and how
 *   many `lib-upload-*` files the directory holds while the handler runs;
 * - `POST /t/echo`: the same form; answers (streamed, `application/octet-stream`) the bytes of
 *   `a`, then of `b`, read from their files, then zeros until the client is gone.
 * When stdin ends: `stop.abort(); await served` (shutdown timeout 300 ms), then prints
 * `LEFT <JSON list of the lib-upload-* files still there>` and exits 0 at once, as a process
 * that shuts down does.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import type { AdapterUnderTest } from './suite.js';

const adapters: Record<string, () => Promise<AdapterUnderTest>> = {
  'node-http': async () => (await import('./node-http-adapter.js')).nodeHttpAdapter,
  'router-adapter': async () => (await import('./router-adapter-adapter.js')).routerAdapter,
};

/** The `lib-upload-*` files in the temporary directory. */
function uploads(): string[] {
  return readdirSync(tmpdir()).filter((f) => f.startsWith('lib-upload-'));
}

const form = codec.object({ a: codec.blob(), b: codec.blob() });
const api = rest.newServer({ title: 'temp files', version: '1.0.0' });
const upload = rest.newRoute('POST', '/t/upload', form, codec.object({ a: codec.int(), b: codec.int(), during: codec.int() }), rest.requestFormats(format.multipart(form)));
upload.withHandler((_ctx, u) => ({ a: u.a.size, b: u.b.size, during: uploads().length })).register(api);

const ZEROS = new Uint8Array(64 * 1024);
const echoed = format.newStreamed(
  form,
  async (v, w) => {
    for (const part of [v.a, v.b]) for await (const chunk of part.stream() as unknown as AsyncIterable<Uint8Array>) await w.write(chunk);
    for (;;) await w.write(ZEROS);
  },
  () => {
    throw new TypeError('not read here');
  },
  'application/octet-stream',
);
const echo = rest.newRoute('POST', '/t/echo', form, form, rest.requestFormats(format.multipart(form)), rest.formats(echoed));
echo.withHandler((_ctx, u) => u).register(api);

const name = process.argv[2] ?? 'node-http';
const adapter = await adapters[name]?.();
if (adapter === undefined) {
  console.error(`unknown adapter ${name}`);
  process.exit(2);
}
const served = await adapter.serve(api, { shutdownTimeout: 300 });
process.stdout.write(`READY ${served.baseURL}\n`);
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => {
  void served.stop().then(() => {
    process.stdout.write(`LEFT ${JSON.stringify(uploads())}\n`);
    process.exit(0);
  });
});
