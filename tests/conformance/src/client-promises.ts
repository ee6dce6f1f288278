/**
 * Promises of the typed client over real HTTP, each with both client transports (fetch and
 * undici): a request that follows a refused upload on the same client is never lost; a 304 is
 * a result only for a call that sent a validator; a header that cannot be sent is refused before
 * sending, named; an empty optional query value is left out; `callEach`'s `vars` fixes exactly
 * the parameters it names.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const LIMIT = 256 * 1024;
/** The body limit of both uploads, stated once in the codec. */
const file = codec.bytes().refine(validate.maxBytes(LIMIT));
const putUpload = rest.route({
  method: 'PUT',
  path: '/cp/uploads/{name}',
  pathParams: { name: codec.string() },
  body: file,
  requestFormats: [format.binary(file)],
  response: codec.object({ bytes: codec.int() }),
  meta: { operationId: 'cpPutUpload' },
});
const postForm = rest.route({
  method: 'POST',
  path: '/cp/forms',
  body: codec.object({ file, note: codec.string() }),
  requestFormats: [format.multipart(codec.object({ file, note: codec.string() }))],
  response: codec.object({ bytes: codec.int() }),
  meta: { operationId: 'cpPostForm' },
});
const getCount = rest.route({ method: 'GET', path: '/cp/count', response: codec.object({ n: codec.int() }), meta: { operationId: 'cpGetCount' } });
const getNote = rest.route({
  method: 'GET',
  path: '/cp/notes/{id}',
  pathParams: { id: codec.string() },
  query: { q: codec.optional(codec.string()), page: codec.optional(codec.intString()) },
  headers: { note: rest.named('X-Note', codec.optional(codec.string())) },
  response: codec.object({ id: codec.string(), q: codec.string(), page: codec.string(), note: codec.string() }),
  meta: { operationId: 'cpGetNote' },
});

/** What the server saw of an optional value: `absent`, or `present:` and the value. */
const seen = (v: unknown): string => (v === undefined ? 'absent' : `present:${String(v)}`);

/** The two client transports, or only undici when the suite runs with `CONFORMANCE_CLIENT=undici`. */
const TRANSPORTS: readonly (readonly [string, (baseURL: string) => rest.ClientTransport & { close?(): Promise<void> }])[] =
  process.env['CONFORMANCE_CLIENT'] === 'undici'
    ? [['undici', (baseURL) => nodeHttp.newUndiciClientTransport({ baseURL })]]
    : [
        ['fetch', (baseURL) => nodeHttp.newClientTransport({ baseURL })],
        ['undici', (baseURL) => nodeHttp.newUndiciClientTransport({ baseURL })],
      ];

/** A body of `n` bytes. */
const bytesOf = (n: number): Uint8Array => new Uint8Array(n).fill(7);

export function clientPromises(adapter: AdapterUnderTest): void {
  describe(`client promises: ${adapter.name}`, () => {
    let server: { readonly baseURL: string; stop(): Promise<void> };
    let requests = 0;

    beforeAll(async () => {
      const api = rest.newServer({ title: 'client promises', version: '1' });
      putUpload.withHandler((_ctx, req) => ({ bytes: req.body.byteLength })).register(api);
      postForm.withHandler((_ctx, req) => ({ bytes: req.file.byteLength })).register(api);
      // Answers 304 though the request carries no validator: only the client can tell.
      getCount
        .withHandler(() => {
          requests++;
          return rest.notModified();
        })
        .register(api);
      getNote
        .withHandler((_ctx, req) => {
          requests++;
          return { id: req.id, q: seen(req.q), page: seen(req.page), note: seen(req.note) };
        })
        .register(api);
      server = await adapter.serve(api);
    });
    afterAll(() => server.stop());

    for (const [name, make] of TRANSPORTS) {
      describe(`through the ${name} transport`, () => {
        let transport: ReturnType<typeof make>;
        let client: rest.Client;
        beforeAll(() => {
          transport = make(server.baseURL);
          client = rest.newClient();
          client.attach(transport);
        });
        afterAll(() => transport.close?.());

        it('sends 200 times "oversized upload → 413 → valid upload" on one client, with no failure', async () => {
          const failures: string[] = [];
          const oversized = bytesOf(4 * LIMIT);
          for (let i = 0; i < 200; i++) {
            // The client refuses an oversized body itself; the transport sends it as a client that checks nothing would.
            const refused = await transport.exchange({ method: 'PUT', path: '/cp/uploads/big', query: [], headers: [['content-type', 'application/octet-stream']], body: oversized, signal: undefined });
            if (refused.status !== 413) failures.push(`#${i}: oversized upload answered ${refused.status}`);
            const valid = bytesOf(LIMIT);
            const sent = i % 2 === 0 ? client.safeCall(putUpload, { name: 'ok', body: valid }) : client.safeCall(postForm, { file: valid, note: `#${i}` });
            const r = await sent;
            if (!r.ok) failures.push(`#${i}: ${String(r.error)}`);
            else if (r.value.bytes !== LIMIT) failures.push(`#${i}: stored ${r.value.bytes} bytes`);
          }
          expect(failures).toEqual([]);
        }, 180_000);

        it('rejects a 304 the call did not ask for as an unexpected status; with a validator it is NotModified', async () => {
          const plain = await client.call(getCount, {}).then(
            (v) => v,
            (e: unknown) => e,
          );
          expect(plain).toBeInstanceOf(rest.UnexpectedStatusError);
          expect((plain as rest.UnexpectedStatusError).statusCode).toBe(304);
          const safe = await client.safeCall(getCount, {});
          expect(safe.ok).toBe(false);
          expect(safe.status).toBeUndefined();
          const asked = await client.call(getCount, {}, { ifNoneMatch: '"v1"' });
          expect(asked).toBeInstanceOf(rest.NotModified);
          const askedSafe = await client.safeCall(getCount, {}, { ifModifiedSince: new Date(0) });
          expect(askedSafe).toMatchObject({ ok: true, status: 304 });
          // A validator sent as an explicit header counts as one too.
          expect(await client.call(getCount, {}, { headerParams: { 'If-None-Match': '*' } })).toBeInstanceOf(rest.NotModified);
        });

        it('refuses a header it cannot send before sending, naming the field (RequestBuildError)', async () => {
          const before = requests;
          const cases: [string, Promise<unknown>][] = [
            ['X-Note', client.call(getNote, { id: 'a', note: 'two\nlines' })],
            ['X-Extra', client.call(getNote, { id: 'a' }, { headerParams: { 'X-Extra': 'bad\r\nInjected: yes' } })],
            ['Bad Name', client.call(getNote, { id: 'a' }, { headerParams: { 'Bad Name': 'x' } })],
            ['If-None-Match', client.call(getCount, {}, { ifNoneMatch: '"v1"\nX-Injected: 1' })],
          ];
          for (const [field, call] of cases) {
            const err = await call.then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(err, field).toBeInstanceOf(rest.RequestBuildError);
            expect(String((err as Error).message), field).toContain(JSON.stringify(field));
          }
          expect(requests).toBe(before);
        });

        it('leaves an empty optional query or header value out, so the server reads it as absent', async () => {
          expect(await client.call(getNote, { id: 'a', q: '', note: '' })).toEqual({ id: 'a', q: 'absent', page: 'absent', note: 'absent' });
          expect(await client.call(getNote, { id: 'a', q: 'x', page: 2, note: 'n' })).toEqual({ id: 'a', q: 'present:x', page: 'present:2', note: 'present:n' });
          // What another client sends as `?q=` is read as present and empty, as sent.
          const raw = await fetch(`${server.baseURL}/cp/notes/a?q=`);
          expect(await raw.json()).toMatchObject({ q: 'present:' });
        });

        it("callEach's vars fixes exactly the parameters it names; the others come from each item", async () => {
          const items = [
            { id: 'one', q: 'first' },
            { id: 'two', q: 'second' },
          ];
          const collect = async (it: AsyncIterable<{ id: string; q: string }>): Promise<string[]> => {
            const out: string[] = [];
            for await (const r of it) out.push(`${r.id} ${r.q}`);
            return out;
          };
          expect(await collect(client.callEach(getNote, items, { vars: {} }))).toEqual(['one present:first', 'two present:second']);
          expect(await collect(client.callEach(getNote, items, { vars: { id: 'fixed' } }))).toEqual(['fixed present:first', 'fixed present:second']);
          expect(await collect(client.callEach(getNote, items, { vars: { q: 'same', 'x-note': 'n' } }))).toEqual(['one present:same', 'two present:same']);
          const before = requests;
          await expect(collect(client.callEach(getNote, items, { vars: { nope: 'x' } }))).rejects.toThrow(rest.RequestBuildError);
          expect(requests).toBe(before);
        });
      });
    }
  });
}
