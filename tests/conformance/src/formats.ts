/**
 * Body formats over real HTTP: every format both ways, content negotiation (RFC 9110 §12.5.1
 * q-values, wildcards, specificity; 406 and 415), typed error bodies in the negotiated format,
 * per-call overrides, client-side validation of binary bodies, and streamed responses
 * (backpressure, disconnects, failures after the first byte, memory).
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

const row = codec.object({ name: codec.string(), n: codec.int() });
const report = codec.object({ title: codec.string(), rows: codec.array(row) });
type Report = codec.Infer<typeof report>;
const missing = codec.object({ error: codec.string(), title: codec.string() });
class MissingReport extends Error {
  constructor(readonly title: string) {
    super(`no report ${title}`);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** CSV through newTyped: `name,n` lines after a `title` line. */
const csv = format.newTyped(
  report,
  (r) => encoder.encode([r.title, ...r.rows.map((x) => `${x.name},${x.n}`)].join('\n') + '\n'),
  (bytes) => {
    const [title = '', ...lines] = decoder.decode(bytes).trimEnd().split('\n');
    return {
      title,
      rows: lines.map((l) => {
        const [name = '', n = ''] = l.split(',');
        return { name, n: Number(n) };
      }),
    };
  },
  'text/csv; charset=utf-8',
);
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = format.html(report, (r) => `<h1>${escapeHtml(r.title)}</h1><ul>${r.rows.map((x) => `<li>${escapeHtml(x.name)}: ${x.n}</li>`).join('')}</ul>`);

const RESPONSE_FORMATS = [format.json(report), format.yaml(report), format.toml(report), format.cbor(report), csv, html] as const;
const REQUEST_FORMATS = [format.json(report), format.yaml(report), format.toml(report), format.cbor(report), csv] as const;

/** The echo route: any request format in, any response format out. */
const echoReport = rest.newRoute('POST', '/f/report', report, report, rest.requestFormats(...REQUEST_FORMATS), rest.formats(...RESPONSE_FORMATS));
/** A report by title, 404 with a typed body when missing. */
const getReport = rest.newRoute(
  'GET',
  '/f/report/{title}',
  codec.empty<{ title: string }>(),
  report,
  rest.newPathParam('title', codec.string(), (r) => r.title, (r, v) => {
    r.title = v;
  }),
  rest.formats(...RESPONSE_FORMATS),
  rest.errorPattern(MissingReport, 404, missing, (e) => ({ error: e.message, title: e.title })),
);
const patch = codec.object({ title: codec.optional(codec.string()) });
/** A `+json` request type (RFC 7396 merge patch), declared through the JSON format. */
const patchReport = rest.newRoute('PATCH', '/f/report', patch, report, rest.requestFormats(format.json(patch).withContentType('application/merge-patch+json')));

const pngBytes = (size: number): Uint8Array => {
  const b = new Uint8Array(size);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return b;
};
const png = codec.bytes().refine(validate.png, validate.maxBytes(64 * 1024));
const pngFormat = format.binary(png).withContentType('image/png');
/** Raw PNG upload, echoed back. */
const uploadPng = rest.newRoute('PUT', '/f/avatar', png, png, rest.requestFormats(pngFormat), rest.formats(pngFormat));
/** The same path as a lax route (any bytes under image/png): what a misbehaving server would send. */
const laxBytes = format.binary(codec.bytes()).withContentType('image/png');
const laxAvatar = rest.newRoute('GET', '/f/lax-avatar', codec.empty<object>(), codec.bytes(), rest.formats(laxBytes));
const strictAvatar = rest.newRoute('GET', '/f/lax-avatar', codec.empty<object>(), png, rest.formats(pngFormat));

/** NDJSON through newStreamed. */
const rows = codec.stream(row);
const ndjson = format.newStreamed(
  rows,
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(row.encode(r))}\n`);
  },
  async function* (body) {
    for await (const line of format.lines(body)) if (line !== '') yield JSON.parse(line) as codec.Infer<typeof row>;
  },
  'application/x-ndjson',
);
interface ExportReq {
  n: number;
  failAt?: number;
  size?: number;
}
const exportRows = rest.newRoute(
  'GET',
  '/f/export',
  codec.empty<ExportReq>(),
  rows,
  rest.newRequiredQueryParam('n', codec.intString(), (r) => r.n, (r, v) => {
    r.n = v;
  }),
  rest.newOptionalQueryParam('failAt', codec.intString(), (r) => r.failAt, (r, v) => {
    r.failAt = v;
  }),
  rest.newOptionalQueryParam('size', codec.intString(), (r) => r.size, (r, v) => {
    r.size = v;
  }),
  rest.formats(ndjson),
);
/** A lax export (any JSON lines) and a strict client-side view of the same path. */
const laxRow = codec.object({ name: codec.string(), n: codec.any() });
const laxRows = codec.stream(laxRow);
const laxNdjson = format.newStreamed(
  laxRows,
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(r)}\n`);
  },
  () => {
    throw new Error('not read');
  },
  'application/x-ndjson',
);
const laxExport = rest.newRoute('GET', '/f/lax-export', codec.empty<object>(), laxRows, rest.formats(laxNdjson));
const strictExport = rest.newRoute('GET', '/f/lax-export', codec.empty<object>(), rows, rest.formats(ndjson));

/** An NDJSON upload the handler reads as it arrives. */
const importRows = rest.newRoute('POST', '/f/import', rows, codec.object({ count: codec.int(), sum: codec.int() }), rest.requestFormats(ndjson)).withOptions({ maxBodyBytes: 64 * 1024 });

/** An HTML form post (`application/x-www-form-urlencoded`), answered as a form too. */
const login = codec.object({ user: codec.string(), remember: codec.boolean(), age: codec.optional(codec.int()), roles: codec.array(codec.string()) });
const postLogin = rest.newRoute('POST', '/f/login', login, login, rest.requestFormats(format.form(login), format.json(login)), rest.formats(format.json(login), format.form(login)));

/** Formats set on the handles after registration, on both sides. */
const handleFormats = rest.newRoute('POST', '/f/handle-formats', report, report);

/** A multipart upload: a PNG avatar (bytes), a large attachment (blob, kept in a temporary file) and text fields. */
const uploadForm = codec.object({
  caption: codec.string().refine(validate.maxLength(50)),
  tags: codec.array(codec.string()),
  avatar: png,
  attachment: codec.optional(codec.blob({ maxBytes: 4 * 1024 * 1024 })),
});
const uploadMultipart = format.multipart(uploadForm, { maxFileBytes: 64 * 1024, maxFieldBytes: 1024, maxParts: 50 });
const uploadResult = codec.object({ caption: codec.string(), tags: codec.array(codec.string()), avatarBytes: codec.int(), attachmentBytes: codec.int(), attachmentName: codec.string(), attachmentStart: codec.string() });
const postUpload = rest.newRoute('POST', '/f/upload', uploadForm, uploadResult, rest.requestFormats(uploadMultipart)).withOptions({ maxBodyBytes: 8 * 1024 * 1024 });

/** A note in plain text or JSON, both ways. */
const noteText = codec.string().refine(validate.maxLength(20));
const postNote = rest.newRoute('POST', '/f/note', noteText, noteText, rest.requestFormats(format.text(noteText), format.json(noteText)), rest.formats(format.text(noteText), format.json(noteText)));

/** A multipart body with JSON parts: an object and a list of objects beside a file part. */
const place = codec.object({ lat: codec.number(), lon: codec.number() });
const geoForm = codec.object({ photo: codec.bytes(), place, stops: codec.optional(codec.array(place)) });
const postGeo = rest.newRoute('POST', '/f/geo', geoForm, codec.object({ bytes: codec.int(), lat: codec.number(), stops: codec.int() }), rest.requestFormats(format.multipart(geoForm)));

const sample: Report = { title: 'Q3 & "more"', rows: [{ name: 'apples', n: 3 }, { name: 'pears', n: -7 }] };

/** How many rows the export producers wrote, and whether each one ended. */
interface Producer {
  written: number;
  ended: boolean;
  aborted: boolean;
}

export function formatsSuite(adapter: AdapterUnderTest): void {
  describe(`formats: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    const client = rest.newClient();
    const producers: Producer[] = [];
    let api: rest.Server;

    beforeAll(async () => {
      api = rest.newServer({ title: 'Formats', version: '1.0.0' });
      echoReport.withHandler((_ctx, r) => r).register(api);
      getReport
        .withHandler((_ctx, r) => {
          if (r.title !== sample.title) throw new MissingReport(r.title);
          return sample;
        })
        .register(api);
      patchReport.withHandler((_ctx, r) => ({ title: r.title ?? 'untitled', rows: [] })).register(api);
      uploadPng.withHandler((_ctx, b) => b).register(api);
      laxAvatar.withHandler(() => encoder.encode('GIF89a, not a PNG')).register(api);
      exportRows
        .withHandler((ctx, r) => {
          const p: Producer = { written: 0, ended: false, aborted: false };
          producers.push(p);
          const pad = 'x'.repeat(r.size ?? 0);
          const signal = ctx.signal;
          return (async function* () {
            try {
              for (let i = 0; i < r.n; i++) {
                if (i === r.failAt) throw new Error('the database went away');
                p.written++;
                yield { name: `row ${i}${pad}`, n: i };
              }
            } finally {
              p.ended = true;
              p.aborted = signal.aborted;
            }
          })();
        })
        .register(api);
      laxExport
        .withHandler(() =>
          (async function* () {
            yield { name: 'ok', n: 1 };
            yield { name: 'bad', n: 'two' };
          })(),
        )
        .register(api);
      importRows
        .withHandler(async (_ctx, items) => {
          let count = 0;
          let sum = 0;
          for await (const r of items) {
            count++;
            sum += r.n;
          }
          return { count, sum };
        })
        .register(api);
      postUpload
        .withHandler(async (_ctx, u) => ({
          caption: u.caption,
          tags: u.tags,
          avatarBytes: u.avatar.byteLength,
          attachmentBytes: u.attachment?.size ?? 0,
          attachmentName: u.attachment instanceof File ? u.attachment.name : '',
          attachmentStart: u.attachment === undefined ? '' : new TextDecoder().decode(new Uint8Array(await u.attachment.slice(0, 5).arrayBuffer())),
        }))
        .register(api);
      postNote.withHandler((_ctx, n) => n.toUpperCase()).register(api);
      postGeo.withHandler((_ctx, g) => ({ bytes: g.photo.byteLength, lat: g.place.lat, stops: g.stops?.length ?? 0 })).register(api);
      postLogin.withHandler((_ctx, r) => r).register(api);
      handleFormats.withHandler((_ctx, r) => r).registerHandle(api).withRequestFormats(format.toml(report)).withFormats(format.yaml(report), format.json(report));
      const served = await adapter.serve(api);
      base = served.baseURL;
      stop = served.stop;
      client.attach(clientTransport({ baseURL: base }));
    });

    afterAll(() => stop());

    const post = (contentType: string, body: string | Uint8Array, accept?: string): Promise<Response> =>
      fetch(`${base}/f/report`, { method: 'POST', headers: { 'content-type': contentType, ...(accept !== undefined && { accept }) }, body });

    describe('every format both ways', () => {
      for (const req of REQUEST_FORMATS) {
        for (const resp of RESPONSE_FORMATS) {
          if ((resp as format.AnyFormat).responseOnly === true) continue;
          it(`sends ${req.contentType} and reads ${resp.contentType} through the client (per-call formats)`, async () => {
            const out = await client.call(echoReport, sample, { requestFormats: [req as format.AnyFormat], responseFormats: [resp as format.AnyFormat] });
            expect(out).toEqual(sample);
          });
        }
      }

      it('reads and writes HTML forms', async () => {
        const res = await fetch(`${base}/f/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/x-www-form-urlencoded' }, body: 'user=ada+l&remember=true&roles=a&roles=b' });
        expect(res.status).toBe(201);
        expect(await res.text()).toBe('user=ada+l&remember=true&roles=a&roles=b');
        const bad = await fetch(`${base}/f/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user=x&remember=maybe&age=%zz' });
        expect(bad.status).toBe(400);
        const v = { user: 'grace', remember: false, age: 40, roles: [] };
        expect(await client.call(postLogin, v, { requestFormats: [format.form(login) as format.AnyFormat], responseFormats: [format.form(login) as format.AnyFormat] })).toEqual(v);
      });

      it('serves html by Accept, escaped by the render function; the client does not offer it', async () => {
        const res = await fetch(`${base}/f/report/${encodeURIComponent(sample.title)}`, { headers: { accept: 'text/html' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await res.text()).toBe('<h1>Q3 &#38; &#34;more&#34;</h1><ul><li>apples: 3</li><li>pears: -7</li></ul>');
        const seen: string[] = [];
        const spy = rest.newClient();
        spy.attach(nodeHttp.newClientTransport({ baseURL: base, httpClient: (input, init) => (seen.push(new Headers(init.headers).get('accept') ?? ''), fetch(input, init)) }));
        await spy.call(getReport, { title: sample.title });
        expect(seen).toEqual(['application/json, application/yaml;q=0.9, application/toml;q=0.8, application/cbor;q=0.7, text/csv;q=0.6']);
      });

      it('answers a YAML, TOML or CBOR syntax error with 400 constraint syntax, never 500', async () => {
        for (const [type, body] of [
          ['application/yaml', 'title: [unclosed'],
          ['application/toml', 'title = = 1'],
          ['application/cbor', new Uint8Array([0xbf, 0x61])],
        ] as const) {
          const res = await post(type, body as string | Uint8Array);
          expect(res.status, type).toBe(400);
          expect(((await res.json()) as { error: string }).error, type).toMatch(/^invalid request body: body is not valid/);
        }
      });

      it('names the same paths whatever the format', async () => {
        const bad = { title: 'x', rows: [{ name: 'a', n: 1.5 }] };
        const messages: string[] = [];
        for (const [type, body] of [
          ['application/json', JSON.stringify(bad)],
          ['application/yaml', 'title: x\nrows:\n  - name: a\n    n: 1.5\n'],
          ['application/toml', 'title = "x"\n[[rows]]\nname = "a"\nn = 1.5\n'],
        ] as const) {
          const res = await post(type, body);
          expect(res.status, type).toBe(400);
          messages.push(((await res.json()) as { error: string }).error);
        }
        expect(messages[0]).toContain('rows[0].n');
        expect(new Set(messages).size).toBe(1);
      });
    });

    describe('negotiation', () => {
      const get = (accept: string): Promise<Response> => fetch(`${base}/f/report/${encodeURIComponent(sample.title)}`, { headers: { accept } });

      it('picks by q-value, then specificity, then declaration order, and says Vary: Accept', async () => {
        const cases: [string, string][] = [
          ['application/yaml;q=0.5, application/cbor;q=0.9', 'application/cbor'],
          ['text/*', 'text/csv; charset=utf-8'],
          ['text/*;q=0.5, text/html', 'text/html; charset=utf-8'],
          ['application/*;q=0.2, text/csv;q=0.1', 'application/json'],
          ['application/json;q=0, */*', 'application/yaml'],
          ['*/*', 'application/json'],
          ['APPLICATION/TOML', 'application/toml'],
        ];
        for (const [accept, expected] of cases) {
          const res = await get(accept);
          expect(res.status, accept).toBe(200);
          expect(res.headers.get('content-type'), accept).toBe(expected);
          expect(res.headers.get('vary'), accept).toBe('Accept');
          await res.arrayBuffer();
        }
      });

      it('answers 406 naming what Accept asked and what is served, before the handler', async () => {
        for (const accept of ['application/xml', 'application/json;q=0, application/yaml;q=0, application/toml;q=0, application/cbor;q=0, text/*;q=0']) {
          const res = await get(accept);
          expect(res.status, accept).toBe(406);
          expect(res.headers.get('content-type')).toBe('application/json');
          expect(res.headers.get('vary')).toBe('Accept');
          const body = (await res.json()) as { error: string };
          expect(body.error).toContain('application/yaml');
        }
      });

      it('matches Content-Type ignoring parameters and case; 415 names the supported types', async () => {
        const ok = await post('Application/YAML; charset=utf-8', 'title: t\nrows: []\n', 'application/json');
        expect(ok.status).toBe(201);
        expect(await ok.json()).toEqual({ title: 't', rows: [] });
        const bad = await post('application/xml', '<r/>');
        expect(bad.status).toBe(415);
        const msg = ((await bad.json()) as { error: string }).error;
        for (const t of ['application/json', 'application/yaml', 'application/toml', 'application/cbor', 'text/csv']) expect(msg).toContain(t);
      });

      it('serves the formats set on the handle after registration, and the client uses its handle\'s', async () => {
        const toml = await fetch(`${base}/f/handle-formats`, { method: 'POST', headers: { 'content-type': 'application/toml' }, body: 'title = "t"\nrows = []\n' });
        expect(toml.status).toBe(201);
        expect(toml.headers.get('content-type')).toBe('application/yaml');
        const json = await fetch(`${base}/f/handle-formats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"t","rows":[]}' });
        expect(json.status).toBe(415);
        const transport = clientTransport({ baseURL: base });
        const handle = handleFormats.clientHandle().withRequestFormats(format.toml(report)).withFormats(format.cbor(report), format.yaml(report));
        expect(await rest.callWithTransport(transport, handle, sample)).toEqual(sample);
      });

      it('takes a declared +json type and refuses plain JSON where only it is declared', async () => {
        const merge = await fetch(`${base}/f/report`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"title":"new"}' });
        expect(merge.status).toBe(200);
        expect(await merge.json()).toEqual({ title: 'new', rows: [] });
        const plain = await fetch(`${base}/f/report`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"title":"new"}' });
        expect(plain.status).toBe(415);
        expect(await client.call(patchReport, { title: 'via client' })).toEqual({ title: 'via client', rows: [] });
      });

      it('writes typed error bodies in the negotiated format when it can carry them, else JSON; the client reads both', async () => {
        const yaml = await fetch(`${base}/f/report/none`, { headers: { accept: 'application/yaml' } });
        expect(yaml.status).toBe(404);
        expect(yaml.headers.get('content-type')).toBe('application/yaml');
        expect(await yaml.text()).toBe('error: no report none\ntitle: none\n');
        const fromHtml = await fetch(`${base}/f/report/none`, { headers: { accept: 'text/html' } });
        expect(fromHtml.headers.get('content-type')).toBe('application/json');
        expect(await fromHtml.json()).toEqual({ error: 'no report none', title: 'none' });
        for (const f of [format.yaml(report), format.cbor(report), format.toml(report), csv]) {
          const err = await client.call(getReport, { title: 'none' }, { responseFormats: [f as format.AnyFormat] }).catch((e: unknown) => e);
          expect(err, f.contentType).toBeInstanceOf(rest.ErrorPatternResponse);
          expect((err as rest.ErrorPatternResponse).value, f.contentType).toEqual({ error: 'no report none', title: 'none' });
        }
      });
    });

    describe('binary bodies', () => {
      it('takes and serves raw image/png, checked by magic bytes and size', async () => {
        const img = pngBytes(1000);
        const out = await client.call(uploadPng, img);
        expect(out).toEqual(img);
        const notPng = await fetch(`${base}/f/avatar`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: 'GIF89a' });
        expect(notPng.status).toBe(400);
        // The codec's maxBytes is the body limit: read no further, 413 (not a 400 after reading it all).
        const big = await fetch(`${base}/f/avatar`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: pngBytes(65 * 1024) });
        expect(big.status).toBe(413);
      });

      it('refuses on the client, before sending, an upload that is not a PNG', async () => {
        await expect(client.call(uploadPng, encoder.encode('GIF89a'))).rejects.toBeInstanceOf(rest.RequestBuildError);
      });

      it('fails client-side validation of a download that is not what the route declares', async () => {
        expect(decoder.decode(await client.call(laxAvatar, {}))).toBe('GIF89a, not a PNG');
        const err = await client.call(strictAvatar, {}).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(rest.ResponseBodyError);
        expect(String((err as Error).cause)).toContain('PNG');
      });
    });

    it('reads and writes plain text beside JSON, by Content-Type and Accept', async () => {
      const res = await fetch(`${base}/f/note`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'héllo' });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('HÉLLO');
      const asJson = await fetch(`${base}/f/note`, { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json' }, body: 'hi' });
      expect(await asJson.json()).toBe('HI');
      expect((await fetch(`${base}/f/note`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(21) })).status).toBe(400);
      expect((await fetch(`${base}/f/note`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: new Uint8Array([0xff, 0xfe]) })).status).toBe(400);
      expect(await client.call(postNote, 'typed')).toBe('TYPED');
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>> };
      expect(doc.paths['/f/note']?.post?.requestBody.content['text/plain; charset=utf-8']?.schema).toEqual({ type: 'string', maxLength: 20 });
    });

    describe('multipart uploads', () => {
      const formData = (over: { caption?: string; avatar?: Uint8Array; attachment?: Uint8Array; tags?: string[] } = {}): FormData => {
        const fd = new FormData();
        fd.set('caption', over.caption ?? 'hello');
        for (const t of over.tags ?? ['a', 'b']) fd.append('tags', t);
        fd.set('avatar', new Blob([(over.avatar ?? pngBytes(2000)) as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'avatar.png');
        if (over.attachment !== undefined) fd.set('attachment', new Blob([over.attachment as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'doc.pdf');
        return fd;
      };
      const send = (fd: FormData): Promise<Response> => fetch(`${base}/f/upload`, { method: 'POST', body: fd });

      it('takes a browser-encoded form: text fields, repeated keys, a PNG part and a large file part', async () => {
        const attachment = new Uint8Array(3 * 1024 * 1024).fill(0x41);
        attachment.set(encoder.encode('%PDF-'));
        const res = await send(formData({ attachment }));
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ caption: 'hello', tags: ['a', 'b'], avatarBytes: 2000, attachmentBytes: attachment.length, attachmentName: 'doc.pdf', attachmentStart: '%PDF-' });
      });

      it('sends the same upload through the typed client, with a File it holds', async () => {
        const out = await client.call(postUpload, { caption: 'typed', tags: [], avatar: pngBytes(100), attachment: new File([encoder.encode('%PDF-1.7 ...')], 'typed.pdf') });
        expect(out).toEqual({ caption: 'typed', tags: [], avatarBytes: 100, attachmentBytes: 12, attachmentName: 'typed.pdf', attachmentStart: '%PDF-' });
      });

      it('carries objects as JSON parts: from a browser form, from the typed client, refused at the field when not JSON', async () => {
        const fd = new FormData();
        fd.set('photo', new Blob([new Uint8Array([1, 2, 3])]), 'p.jpg');
        fd.set('place', '{"lat":52.5,"lon":13.4}');
        const res = await fetch(`${base}/f/geo`, { method: 'POST', body: fd });
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ bytes: 3, lat: 52.5, stops: 0 });
        expect(await client.call(postGeo, { photo: new Uint8Array([9]), place: { lat: 1, lon: 2 }, stops: [{ lat: 3, lon: 4 }, { lat: 5, lon: 6 }] })).toEqual({ bytes: 1, lat: 1, stops: 2 });
        fd.set('place', 'Berlin');
        const bad = await fetch(`${base}/f/geo`, { method: 'POST', body: fd });
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { error: string }).error).toContain('place');
      });

      it('answers 400 naming the field for a part its codec refuses', async () => {
        const notPng = await send(formData({ avatar: encoder.encode('GIF89a...') }));
        expect(notPng.status).toBe(400);
        expect(((await notPng.json()) as { error: string }).error).toContain('avatar');
        const long = await send(formData({ caption: 'x'.repeat(60) }));
        expect(long.status).toBe(400);
        expect(((await long.json()) as { error: string }).error).toContain('caption');
        const broken = await fetch(`${base}/f/upload`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zzz' }, body: '--zzz\r\nContent-Disposition: form-data; name="caption"\r\n\r\nunterminated' });
        expect(broken.status).toBe(400);
        expect(((await broken.json()) as { error: string }).error).toContain('body is not valid multipart/form-data');
        const noBoundary = await fetch(`${base}/f/upload`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
        expect(noBoundary.status).toBe(400);
      });

      it('answers 413 for a part, a field, too many parts or a body past its limits, without reading the rest', async () => {
        const cases: [string, FormData][] = [
          ['file part', formData({ avatar: pngBytes(65 * 1024) })],
          ['blob part', formData({ attachment: new Uint8Array(4 * 1024 * 1024 + 1) })],
          ['text field', formData({ caption: 'x'.repeat(2000) })],
          ['parts', formData({ tags: Array.from({ length: 60 }, (_, i) => `t${i}`) })],
        ];
        for (const [label, fd] of cases) {
          const res = await send(fd);
          expect(res.status, label).toBe(413);
          expect(res.headers.get('connection'), label).toBe('close');
        }
        const whole = await send(formData({ attachment: new Uint8Array(9 * 1024 * 1024) }));
        expect(whole.status).toBe(413);
      });
    });

    describe('streamed responses', () => {
      it('streams NDJSON chunked and the client iterates typed rows as they arrive', async () => {
        const res = await fetch(`${base}/f/export?n=3`);
        expect(res.headers.get('transfer-encoding')).toBe('chunked');
        expect(res.headers.get('content-length')).toBeNull();
        expect(await res.text()).toBe('{"name":"row 0","n":0}\n{"name":"row 1","n":1}\n{"name":"row 2","n":2}\n');
        const got: number[] = [];
        for await (const r of await client.call(exportRows, { n: 10_000 })) got.push(r.n);
        expect(got.length).toBe(10_000);
        expect(got[9_999]).toBe(9_999);
      });

      it('cuts the connection when the producer fails after the first byte; the client iteration throws', async () => {
        const got: number[] = [];
        const err = await (async () => {
          for await (const r of await client.call(exportRows, { n: 100_000, failAt: 50_000 })) got.push(r.n);
        })().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(rest.ResponseBodyError);
        expect(got.length).toBeLessThan(50_001);
        expect(got.length).toBeGreaterThan(0);
      });

      it('fails the client iteration on an item the route does not declare, naming its index', async () => {
        const got: string[] = [];
        const err = await (async () => {
          for await (const r of await client.call(strictExport, {})) got.push(r.name);
        })().catch((e: unknown) => e);
        expect(got).toEqual(['ok']);
        expect(err).toBeInstanceOf(codec.DecodeError);
        expect((err as codec.DecodeError).issues[0]?.path).toEqual([1, 'n']);
      });

      it('does not let the producer run ahead of a client that stops reading, and stops it when the client goes away', async () => {
        const before = producers.length;
        const controller = new AbortController();
        const rowsOut = await client.call(exportRows, { n: 1_000_000, size: 1000 }, { signal: controller.signal });
        const it = rowsOut[Symbol.asyncIterator]();
        for (let i = 0; i < 10; i++) await it.next();
        await new Promise((r) => setTimeout(r, 300));
        const p = producers[before] as Producer;
        console.log(`formats: a paused client let the producer write ${p.written} rows of about 1 KB`);
        // About 1 KB per row: whatever the socket buffers hold, far from the million rows asked for.
        expect(p.written).toBeLessThan(50_000);
        expect(p.ended).toBe(false);
        controller.abort();
        await it.return?.();
        for (let i = 0; i < 50 && !p.ended; i++) await new Promise((r) => setTimeout(r, 20));
        expect(p.ended).toBe(true);
        expect(p.aborted).toBe(true);
        expect(p.written).toBeLessThan(50_000);
      });

      it('sends the head of a streamed route to HEAD without running the producer to its end', async () => {
        const before = producers.length;
        const res = await fetch(`${base}/f/export?n=1000000`, { method: 'HEAD' });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/x-ndjson');
        expect(await res.text()).toBe('');
        for (let i = 0; i < 50 && producers[before]?.ended !== true; i++) await new Promise((r) => setTimeout(r, 20));
        expect(producers[before]?.written ?? 0).toBeLessThan(1_000_000);
      });

      it('hands a streamed request body to the handler as it arrives: bad items are 400, too much is 413', async () => {
        const body = (n: number): string => Array.from({ length: n }, (_, i) => JSON.stringify({ name: `r${i}`, n: i })).join('\n');
        expect(await client.call(importRows, (async function* () {
          yield { name: 'a', n: 1 };
          yield { name: 'b', n: 2 };
        })())).toEqual({ count: 2, sum: 3 });
        const ok = await fetch(`${base}/f/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: body(100) });
        expect(ok.status).toBe(201);
        expect(await ok.json()).toEqual({ count: 100, sum: 4950 });
        const bad = await fetch(`${base}/f/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${body(3)}\n{"name":"x","n":"seven"}\n` });
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { error: string }).error).toContain('[3].n');
        // Chunked, so that the limit is found while reading, not from Content-Length.
        const big = body(5000);
        const tooMuch = await fetch(`${base}/f/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson' },
          body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(big)), c.close()) }),
          duplex: 'half',
        } as RequestInit);
        expect(tooMuch.status).toBe(413);
      });
    });
  });
}
