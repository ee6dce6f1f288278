/**
 * Which body limit applies, over real HTTP, and what the document says of it: a limit the route
 * states (its `maxBodyBytes`, a codec's `validate.maxBytes`, a blob's `maxBytes`, a multipart
 * format's part limits) is the route's; a route that states none is bounded, multipart included,
 * by the server's `maxBodyBytes` (1 MiB by default), and the document's 413 names the limit the
 * server applies (RFC 9110 §15.5.14). And the statuses a GET documents include 304 exactly when
 * it can answer 304: the server's own (a declared `ETag`) or the handler's `rest.notModified`
 * (a declared `If-None-Match`).
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import { serveDocs } from '@lib/openapi-ui';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const MiB = 1024 * 1024;
const created = codec.object({ bytes: codec.int() });

/** A multipart upload whose file part states no limit: the server's `maxBodyBytes` bounds the body. */
const unstatedForm = codec.object({ note: codec.string(), file: codec.bytes() });
const unstatedUpload = rest.route({ method: 'POST', path: '/bl/form', body: unstatedForm, response: created, requestFormats: [format.multipart(unstatedForm)] });
/** A multipart upload whose file part states 3 MiB: read up to it, whatever the server's default. */
const statedForm = codec.object({ file: codec.bytes().refine(validate.maxBytes(3 * MiB)) });
const statedUpload = rest.route({ method: 'POST', path: '/bl/stated-form', body: statedForm, response: created, requestFormats: [format.multipart(statedForm)] });
/** A blob part (kept in a temporary file) that states 2 MiB. */
const blobForm = codec.object({ file: codec.blob({ maxBytes: 2 * MiB }) });
const blobUpload = rest.route({ method: 'POST', path: '/bl/blob-form', body: blobForm, response: created, requestFormats: [format.multipart(blobForm)] });
/** The same beside a blob part that states nothing: the form has no total of its own. */
const mixedForm = codec.object({ file: codec.optional(codec.blob({ maxBytes: 2 * MiB })), other: codec.optional(codec.blob()) });
const mixedUpload = rest.route({ method: 'POST', path: '/bl/mixed-form', body: mixedForm, response: created, requestFormats: [format.multipart(mixedForm)] });
/** A raw body without a limit of its own, and one whose codec states 2 MiB. */
const unstatedRaw = rest.route({ method: 'PUT', path: '/bl/raw', body: codec.bytes(), response: created, requestFormats: [format.binary(codec.bytes())] });
const statedBytes = codec.bytes().refine(validate.maxBytes(2 * MiB));
const statedRaw = rest.route({ method: 'PUT', path: '/bl/stated-raw', body: statedBytes, response: created, requestFormats: [format.binary(statedBytes)] });
/** A JSON body: the server's limit. */
const jsonBody = rest.route({ method: 'POST', path: '/bl/json', body: codec.object({ text: codec.string() }), response: created });

const item = codec.object({ version: codec.string() });
/** Declares an ETag: the server answers a matching If-None-Match with 304 on its own. */
const withEtag = rest.route({ method: 'GET', path: '/bl/etag', response: item, responseHeaders: { etag: rest.named('ETag', codec.string()) } });
/** Declares the If-None-Match it reads: its handler answers 304 itself, with `rest.notModified`. */
const asksIfNoneMatch = rest.route({ method: 'GET', path: '/bl/asks', headers: { ifNoneMatch: rest.named('If-None-Match', codec.optional(codec.string())) }, response: item });
/** Neither: it can never answer 304. */
const plain = rest.route({ method: 'GET', path: '/bl/plain', response: item });

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { description: string; 'x-max-body-bytes'?: number }> }>> };

/** One server: the routes above, and the document served over HTTP (`serveDocs`). */
async function serve(adapter: AdapterUnderTest, options: rest.Options | undefined): Promise<{ base: string; doc: Doc; stop(): Promise<void> }> {
  const api = options === undefined ? rest.newServer({ title: 'Limits', version: '1.0.0' }) : rest.newServer({ title: 'Limits', version: '1.0.0' }, rest.withDefaultOptions(options));
  unstatedUpload.withHandler((_ctx, r) => ({ bytes: r.file.byteLength })).register(api);
  statedUpload.withHandler((_ctx, r) => ({ bytes: r.file.byteLength })).register(api);
  blobUpload.withHandler((_ctx, r) => ({ bytes: r.file.size })).register(api);
  mixedUpload.withHandler((_ctx, r) => ({ bytes: (r.file?.size ?? 0) + (r.other?.size ?? 0) })).register(api);
  unstatedRaw.withHandler((_ctx, r) => ({ bytes: r.body.byteLength })).register(api);
  statedRaw.withHandler((_ctx, r) => ({ bytes: r.body.byteLength })).register(api);
  jsonBody.withHandler((_ctx, r) => ({ bytes: r.text.length })).register(api);
  withEtag.withHandler(() => ({ version: 'v1', etag: '"v1"' })).register(api);
  asksIfNoneMatch.withHandler((_ctx, r) => (r.ifNoneMatch === '"v1"' ? rest.notModified({ etag: '"v1"' }) : { version: 'v1' })).register(api);
  plain.withHandler(() => ({ version: 'v1' })).register(api);
  serveDocs(api);
  const served = await adapter.serve(api);
  const res = await fetch(`${served.baseURL}/openapi.json`);
  expect(res.status).toBe(200);
  return { base: served.baseURL, doc: (await res.json()) as Doc, stop: served.stop };
}

/** A multipart body: a `note` field when given, and a file part of `size` bytes named `name`. */
function form(size: number, note?: string, name = 'file'): FormData {
  const fd = new FormData();
  if (note !== undefined) fd.set('note', note);
  fd.set(name, new Blob([new Uint8Array(size).fill(0x61)]), 'f.bin');
  return fd;
}

/** The same body as bytes, with its Content-Type, to send chunked (no Content-Length). */
async function chunkedForm(size: number, note: string): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
  const r = new Response(form(size, note));
  const bytes = new Uint8Array(await r.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(at, at + 512));
      at += 512;
    },
  });
  return { body, contentType: r.headers.get('content-type') as string };
}

/** The status and `error` message of an answer. */
async function answer(res: Response): Promise<{ status: number; error?: string }> {
  const body = (await res.json()) as { error?: string };
  return res.status < 400 ? { status: res.status } : { status: res.status, ...(body.error !== undefined && { error: body.error }) };
}

export function bodyLimits(adapter: AdapterUnderTest): void {
  describe(`body limits and documented statuses: ${adapter.name}`, () => {
    describe('a server with the default limit (1 MiB)', () => {
      let s: Awaited<ReturnType<typeof serve>> | undefined;
      const url = (path: string): string => `${s?.base ?? ''}${path}`;
      const doc = (): Doc => s?.doc as Doc;
      beforeAll(async () => {
        s = await serve(adapter, undefined);
      });
      afterAll(() => s?.stop());

      it('bounds a multipart body whose parts state no limit by 1 MiB, and says so in the 413 and the document', async () => {
        const under = await fetch(url('/bl/form'), { method: 'POST', body: form(MiB - 4096, 'n') });
        expect(await answer(under)).toEqual({ status: 201 });
        const over = await fetch(url('/bl/form'), { method: 'POST', body: form(MiB + 1, 'n') });
        expect(await answer(over)).toEqual({ status: 413, error: 'request body exceeds 1048576 bytes' });
        const three = await fetch(url('/bl/form'), { method: 'POST', body: form(3 * MiB, 'n') });
        expect((await answer(three)).status).toBe(413);
        const documented = doc().paths['/bl/form']?.post?.responses['413'];
        expect(documented?.['x-max-body-bytes']).toBe(MiB);
        expect(documented?.description).toContain('at most 1048576 bytes (1 MiB)');
      });

      it('reads a multipart part up to the limit its codec states, larger than the default', async () => {
        const full = await fetch(url('/bl/stated-form'), { method: 'POST', body: form(3 * MiB) });
        expect(await answer(full)).toEqual({ status: 201 });
        const over = await fetch(url('/bl/stated-form'), { method: 'POST', body: form(3 * MiB + 1) });
        expect(await answer(over)).toEqual({ status: 413, error: 'a file part exceeds 3145728 bytes' });
        // The body holds the part and, for it and the closing boundary, 1 KiB each of boundary and headers.
        expect(doc().paths['/bl/stated-form']?.post?.responses['413']?.['x-max-body-bytes']).toBe(3 * MiB + 2048);
        // The derived total is named with the limit it comes from, as it was written, in the document and in the 413.
        expect(doc().paths['/bl/stated-form']?.post?.responses['413']?.description).toContain('(the file part "file" of at most 3145728 bytes, with 1 KiB of boundary and headers each)');
        const declaredOver = await fetch(url('/bl/stated-form'), { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(4 * MiB) }, body: new Uint8Array(4 * MiB) });
        expect(await answer(declaredOver)).toEqual({ status: 413, error: `request body exceeds ${3 * MiB + 2048} bytes: the file part "file" of at most 3145728 bytes, with 1 KiB of boundary and headers each` });
      });

      it("reads a blob part up to its codec's maxBytes, unless another file part states nothing", async () => {
        const full = await fetch(url('/bl/blob-form'), { method: 'POST', body: form(2 * MiB) });
        expect(await answer(full)).toEqual({ status: 201 });
        const over = await fetch(url('/bl/blob-form'), { method: 'POST', body: form(2 * MiB + 1) });
        expect(await answer(over)).toEqual({ status: 413, error: 'a file part exceeds 2097152 bytes' });
        expect(doc().paths['/bl/blob-form']?.post?.responses['413']?.['x-max-body-bytes']).toBe(2 * MiB + 2048);
        // A form with a file part that states nothing has no total of its own: the server's 1 MiB.
        const mixed = await fetch(url('/bl/mixed-form'), { method: 'POST', body: form(2 * MiB) });
        expect(await answer(mixed)).toEqual({ status: 413, error: 'request body exceeds 1048576 bytes' });
        expect(doc().paths['/bl/mixed-form']?.post?.responses['413']?.['x-max-body-bytes']).toBe(MiB);
      });

      it('keeps raw binary and JSON bodies as they were: 1 MiB, or what the codec states', async () => {
        const cases: [string, string, string, Uint8Array<ArrayBuffer> | string, number][] = [
          ['raw 1 MiB', '/bl/raw', 'application/octet-stream', new Uint8Array(MiB), 200],
          ['raw 1 MiB + 1', '/bl/raw', 'application/octet-stream', new Uint8Array(MiB + 1), 413],
          ['stated raw 2 MiB', '/bl/stated-raw', 'application/octet-stream', new Uint8Array(2 * MiB), 200],
          ['stated raw 2 MiB + 1', '/bl/stated-raw', 'application/octet-stream', new Uint8Array(2 * MiB + 1), 413],
          ['json under', '/bl/json', 'application/json', JSON.stringify({ text: 'x'.repeat(MiB - 100) }), 201],
          ['json over', '/bl/json', 'application/json', JSON.stringify({ text: 'x'.repeat(MiB) }), 413],
        ];
        for (const [label, path, type, body, status] of cases) {
          const res = await fetch(url(path), { method: path === '/bl/json' ? 'POST' : 'PUT', headers: { 'content-type': type }, body });
          expect([label, res.status], label).toEqual([label, status]);
          await res.arrayBuffer();
        }
        expect(doc().paths['/bl/raw']?.put?.responses['413']?.['x-max-body-bytes']).toBe(MiB);
        expect(doc().paths['/bl/stated-raw']?.put?.responses['413']?.['x-max-body-bytes']).toBe(2 * MiB);
        expect(doc().paths['/bl/json']?.post?.responses['413']?.['x-max-body-bytes']).toBe(MiB);
      });

      it('documents 304 exactly on the GET routes that can answer it', async () => {
        for (const path of ['/bl/etag', '/bl/asks', '/bl/plain']) {
          const res = await fetch(url(path), { headers: { 'if-none-match': '"v1"' } });
          await res.arrayBuffer();
          const documented = Object.keys(doc().paths[path]?.get?.responses ?? {});
          expect([path, documented.includes('304')], path).toEqual([path, res.status === 304]);
          expect([path, documented.includes(String(res.status))], path).toEqual([path, true]);
        }
        // The handler's 304 is the only one /bl/asks sends; without the validator it answers 200.
        const status = async (path: string, headers: Record<string, string> = {}): Promise<number> => {
          const res = await fetch(url(path), { headers });
          await res.arrayBuffer();
          return res.status;
        };
        expect(await status('/bl/asks')).toBe(200);
        expect(await status('/bl/asks', { 'if-none-match': '"v1"' })).toBe(304);
        expect(await status('/bl/plain', { 'if-none-match': '*' })).toBe(200);
      });
    });

    describe('a server whose maxBodyBytes is 1000', () => {
      let s: Awaited<ReturnType<typeof serve>> | undefined;
      const url = (path: string): string => `${s?.base ?? ''}${path}`;
      const doc = (): Doc => s?.doc as Doc;
      beforeAll(async () => {
        s = await serve(adapter, { maxBodyBytes: 1000 });
      });
      afterAll(() => s?.stop());

      it('bounds a multipart body whose parts state no limit by 1000 bytes, fixed-length and chunked', async () => {
        const small = await fetch(url('/bl/form'), { method: 'POST', body: form(100, 'n') });
        expect(await answer(small)).toEqual({ status: 201 });
        const over = await fetch(url('/bl/form'), { method: 'POST', body: form(5000, 'n') });
        expect(await answer(over)).toEqual({ status: 413, error: 'request body exceeds 1000 bytes' });
        const { body, contentType } = await chunkedForm(5000, 'n');
        const chunked = await fetch(url('/bl/form'), { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' } as RequestInit);
        expect(await answer(chunked)).toEqual({ status: 413, error: 'request body exceeds 1000 bytes' });
      });

      it('documents the operator\'s limit as the 413 of every route that states none', () => {
        for (const [path, method] of [['/bl/form', 'post'], ['/bl/raw', 'put'], ['/bl/json', 'post']] as const) {
          const documented = doc().paths[path]?.[method]?.responses['413'];
          expect([path, documented?.['x-max-body-bytes']]).toEqual([path, 1000]);
          expect(documented?.description).toContain('at most 1000 bytes.');
        }
      });

      it('still reads what a route states itself, above the server\'s default', async () => {
        const part = await fetch(url('/bl/stated-form'), { method: 'POST', body: form(4000) });
        expect(await answer(part)).toEqual({ status: 201 });
        const raw = await fetch(url('/bl/stated-raw'), { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(4000) });
        expect(await answer(raw)).toEqual({ status: 200 });
        const json = await fetch(url('/bl/json'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(5000) }) });
        expect(await answer(json)).toEqual({ status: 413, error: 'request body exceeds 1000 bytes' });
      });
    });
  });
}
