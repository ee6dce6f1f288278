import * as codec from '@lib/codec';
import type { JsonSchema } from '@lib/codec';
import * as format from '@lib/format';
import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from '@lib/openapi';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import { prepareRoute, type PipelineRequest } from '../pipeline.js';

/*
 * What the document says each route answers must be what the pipeline sends (pipeline/prepare.ts):
 * these tests pin the descriptor's side; tests/conformance/src/openapi-contract.ts checks real
 * responses against the rendered document.
 */

class BadId extends Error {}
class Gone extends Error {}
class Conflict extends Error {}
const badIdBody = codec.object({ error: codec.string(), id: codec.string() }).withName('BadId');
const goneBody = codec.object({ gone: codec.boolean() }).withName('GoneBody');
const problem = codec
  .object({ type: codec.string(), title: codec.string(), status: codec.int() })
  .withName('Problem');
const problemHandler: rest.ErrorHandler = (_ctx, err, status) => ({ body: { type: 'about:blank', title: err instanceof Error ? err.message : 'error', status } });

interface ItemReq {
  id: number;
  limit: number;
}
const idParam = rest.newPathParam('id', codec.intString().refine(validate.min(1)), (r: ItemReq) => r.id, (r, v) => {
  r.id = v;
});
const item = codec.object({ id: codec.int() }).withName('Item');

const ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };
const PROBLEM = { $ref: '#/components/schemas/Problem' };

function render(...routes: rest.Route<never, never>[]): OpenAPIObject {
  return renderWith(rest.newServer({ title: 't', version: '1' }), ...routes);
}
function renderWith(api: rest.Server, ...routes: rest.Route<never, never>[]): OpenAPIObject {
  for (const r of routes) (r as unknown as rest.Route<unknown, unknown>).withHandler(() => undefined).register(api);
  return JSON.parse(api.openAPISpec().marshalJSON()) as OpenAPIObject;
}
function op(doc: OpenAPIObject, path: string, method: 'get' | 'post' | 'put' | 'delete'): OperationObject {
  return doc.paths[path]?.[method] as OperationObject;
}
function bodyOf(o: OperationObject, status: string): JsonSchema | undefined {
  return (o.responses?.[status] as ResponseObject | undefined)?.content?.['application/json']?.schema;
}
const as = <T>(r: unknown): rest.Route<never, never> => r as T & rest.Route<never, never>;

describe('describeRoute: a 400 pattern beside validation (item 1)', () => {
  it('documents the pattern body and the envelope a failed validation sends', () => {
    const doc = render(as(rest.newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam, rest.errorPattern(BadId, 400, badIdBody, (e) => ({ error: e.message, id: '?' })).withDescription('The id is refused.'))));
    const o = op(doc, '/items/{id}', 'get');
    expect(bodyOf(o, '400')).toEqual({ anyOf: [{ $ref: '#/components/schemas/BadId' }, ENVELOPE] });
    expect((o.responses?.['400'] as ResponseObject).description).toBe('The id is refused.\n\nOr: The request is invalid: a parameter or the body failed validation.');
  });

  it('keeps the pattern body alone when the pattern takes every validation failure', () => {
    const doc = render(as(rest.newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam, rest.errorPattern(rest.ParamError, 400, badIdBody, (e) => ({ error: e.message, id: e.paramName })))));
    expect(bodyOf(op(doc, '/items/{id}', 'get'), '400')).toEqual({ $ref: '#/components/schemas/BadId' });
  });

  it('adds no envelope where nothing is validated', () => {
    const doc = render(as(rest.newRoute('GET', '/items', codec.empty<object>(), item, rest.errorPattern(BadId, 400, badIdBody, () => ({ error: 'x', id: 'y' })))));
    expect(bodyOf(op(doc, '/items', 'get'), '400')).toEqual({ $ref: '#/components/schemas/BadId' });
  });
});

describe('describeRoute: Options.errorBody (item 2)', () => {
  const route = (): rest.Route<never, never> =>
    as(rest.newRoute('POST', '/items', codec.object({ name: codec.string() }), item, rest.errorStatus(Conflict, 409)));

  it("documents the route's errorBody for every pipeline status and errorStatus rule", () => {
    const doc = render(as((route() as unknown as rest.Route<unknown, unknown>).withOptions({ errorHandler: problemHandler, errorBody: problem })));
    const o = op(doc, '/items', 'post');
    for (const s of ['400', '406', '409', '413', '415']) expect(bodyOf(o, s)).toEqual(PROBLEM);
    // 500: the errorHandler's body, or the default envelope when the errorHandler itself fails.
    expect(bodyOf(o, '500')).toEqual({ anyOf: [PROBLEM, ENVELOPE] });
  });

  it('takes errorBody from the builder (withDefaultOptions)', () => {
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ errorHandler: problemHandler, errorBody: problem }));
    const o = op(renderWith(api, route()), '/items', 'post');
    for (const s of ['400', '409', '413']) expect(bodyOf(o, s)).toEqual(PROBLEM);
  });

  it('defaults to the ErrorEnvelope', () => {
    const o = op(render(route()), '/items', 'post');
    for (const s of ['400', '406', '409', '413', '415', '500']) expect(bodyOf(o, s)).toEqual(ENVELOPE);
  });
});

describe('describeRoute: ErrorHandle and ErrorLog patterns (item 3)', () => {
  it("documents the errorHandler's body, with the pattern's description; ErrorRespond keeps its own", () => {
    const doc = render(
      as(rest.newRoute('GET', '/a', codec.empty<object>(), item, rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })).withAction(rest.ErrorHandle).withDescription('It is gone.'))),
      as(rest.newRoute('GET', '/b', codec.empty<object>(), item, rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })).withAction(rest.ErrorLog))),
      as(rest.newRoute('GET', '/c', codec.empty<object>(), item, rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })))),
    );
    expect(bodyOf(op(doc, '/a', 'get'), '410')).toEqual(ENVELOPE);
    expect((op(doc, '/a', 'get').responses?.['410'] as ResponseObject).description).toBe('It is gone.');
    expect(bodyOf(op(doc, '/b', 'get'), '410')).toEqual(ENVELOPE);
    expect(bodyOf(op(doc, '/c', 'get'), '410')).toEqual({ $ref: '#/components/schemas/GoneBody' });
  });

  it('documents errorBody for them when one is set', () => {
    const r = rest.newRoute('GET', '/a', codec.empty<object>(), item, rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })).withAction(rest.ErrorHandle));
    const doc = render(as(r.withOptions({ errorHandler: problemHandler, errorBody: problem })));
    expect(bodyOf(op(doc, '/a', 'get'), '410')).toEqual(PROBLEM);
  });
});

describe('describeRoute: the pipeline statuses each route can send (item 4)', () => {
  it('500 everywhere; 406 with a response body; 503 where the handler may answer nothing; 400 when validating; 413 and 415 with a request body', () => {
    const doc = render(
      as(rest.newRoute('GET', '/plain', codec.empty<object>(), item)),
      as(rest.newRoute('GET', '/maybe', codec.empty<object>(), codec.optional(item))),
      as(rest.newRoute('GET', '/names/{name}', codec.empty<{ name: string }>(), item, rest.newPathParam('name', codec.string(), (r: { name: string }) => r.name, (r, v) => void (r.name = v)))),
      as(rest.newRoute('DELETE', '/items/{id}', codec.empty<ItemReq>(), codec.empty<object>(), idParam)),
      as(rest.newRoute('PUT', '/items/{id}', codec.object({ name: codec.string(), id: codec.int(), limit: codec.int() }), item, idParam)),
    );
    const keys = (path: string, m: 'get' | 'put' | 'delete'): string[] => Object.keys(op(doc, path, m).responses ?? {});
    expect(keys('/plain', 'get')).toEqual(['200', '406', '500']);
    expect(keys('/maybe', 'get')).toEqual(['200', '406', '500', '503']);
    // A path of plain strings cannot fail validation: no 400.
    expect(keys('/names/{name}', 'get')).toEqual(['200', '406', '500']);
    expect(keys('/items/{id}', 'delete')).toEqual(['200', '400', '500']);
    expect(keys('/items/{id}', 'put')).toEqual(['200', '400', '406', '413', '415', '500']);
    expect((op(doc, '/plain', 'get').responses?.['406'] as ResponseObject).description).toBe("No response media type matches the request's Accept header.");
  });

  it('never overrides a status the route declares; a rule that takes every error of a pipeline status replaces it', () => {
    class Boom extends Error {}
    const doc = render(
      as(rest.newRoute('GET', '/meta', codec.empty<object>(), item, rest.responseMeta({ status: 500, description: 'Our own 500.' }))),
      as(rest.newRoute('POST', '/remap', codec.object({ name: codec.string() }), item, rest.errorStatus(rest.BodyTooLargeError, 400))),
      as(rest.newRoute('GET', '/p500', codec.empty<object>(), item, rest.errorPattern(Boom, 500, goneBody, () => ({ gone: false })).withDescription('Boom.'))),
    );
    expect(op(doc, '/meta', 'get').responses?.['500']).toEqual({ description: 'Our own 500.' });
    expect(Object.keys(op(doc, '/remap', 'post').responses ?? {})).not.toContain('413');
    // A 500 pattern takes Boom; any other error still gets the errorHandler's 500.
    expect(bodyOf(op(doc, '/p500', 'get'), '500')).toEqual({ anyOf: [{ $ref: '#/components/schemas/GoneBody' }, ENVELOPE] });
  });
});

describe('describeRoute: parameters (items 5 and 7)', () => {
  interface ListReq {
    limit: number;
    rid: string;
  }
  const list = rest.newRoute(
    'GET',
    '/list',
    codec.empty<ListReq>(),
    item,
    rest.newOptionalQueryParam('limit', codec.defaulted(codec.intString(), 20), (r: ListReq) => r.limit, (r, v) => {
      r.limit = v;
    }),
    rest.newRequiredHeaderParam('X-Request-ID', codec.string().withDescription('A caller-chosen id.'), (r: ListReq) => r.rid, (r, v) => {
      r.rid = v;
    }),
  );

  it('documents a defaulted integer parameter with a numeric default', () => {
    const p = op(render(as(list)), '/list', 'get').parameters?.find((x) => (x as ParameterObject).name === 'limit') as ParameterObject;
    expect(p.schema).toEqual({ type: 'integer', format: 'double-int', default: 20 });
  });

  it("puts a codec's description on the parameter object", () => {
    const p = op(render(as(list)), '/list', 'get').parameters?.find((x) => (x as ParameterObject).name === 'X-Request-ID') as ParameterObject;
    expect(p).toEqual({ name: 'X-Request-ID', in: 'header', description: 'A caller-chosen id.', required: true, schema: { type: 'string' } });
  });
});

describe('describeRoute: a tagged-union variant sent alone (item 6)', () => {
  it('keeps the variant without its tag, and maps the tag to a tagged definition', () => {
    const card = codec.object({ last4: codec.string() }).withName('Card');
    const payment = codec.taggedUnion('kind', { card, bank: codec.object({ iban: codec.string() }).withName('Bank') }).withName('Payment');
    const doc = render(as(rest.newRoute('GET', '/payment', codec.empty<object>(), payment)), as(rest.newRoute('GET', '/card', codec.empty<object>(), card)));
    expect(bodyOf(op(doc, '/card', 'get'), '200')).toEqual({ $ref: '#/components/schemas/Card' });
    expect(doc.components?.schemas?.['Card']).toEqual({ type: 'object', properties: { last4: { type: 'string' } }, required: ['last4'] });
    expect(doc.components?.schemas?.['Payment']?.discriminator).toEqual({
      propertyName: 'kind',
      mapping: { card: '#/components/schemas/CardVariant', bank: '#/components/schemas/BankVariant' },
    });
  });
});

describe('describeRoute: formats', () => {
  it('lists a typed error body under JSON and every response format that can carry it, not under csv or html', () => {
    const csv = format.newTyped(item, () => new Uint8Array(), () => ({ id: 1 }), 'text/csv').withBodySchema({ type: 'string' });
    const route = rest.newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam,
      rest.formats(format.json(item), format.yaml(item), csv, format.html(item, () => ''), format.cbor(item)),
      rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' })),
    );
    const o = op(render(as(route)), '/items/{id}', 'get');
    const content = (o.responses?.['404'] as ResponseObject).content ?? {};
    expect(Object.keys(content)).toEqual(['application/json', 'application/yaml', 'application/cbor']);
    for (const m of Object.values(content)) expect(m.schema).toEqual({ $ref: '#/components/schemas/BadId' });
    // Envelope answers stay JSON.
    expect(Object.keys((o.responses?.['406'] as ResponseObject).content ?? {})).toEqual(['application/json']);
    const ok = (o.responses?.['200'] as ResponseObject).content ?? {};
    expect(ok['text/html; charset=utf-8']?.schema).toEqual({ type: 'string', contentMediaType: 'text/html' });
  });

  it('documents a streamed sequence as text with x-itemSchema, and multipart file fields with encoding', () => {
    const rows = codec.stream(item);
    const ndjson = format.newStreamed(rows, () => undefined, async function* () {}, 'application/x-ndjson');
    const upload = codec.object({ caption: codec.string(), photo: codec.bytes().refine(validate.png) });
    const stream = rest.newRoute('POST', '/export', upload, rows, rest.requestFormats(format.multipart(upload)), rest.formats(ndjson));
    const o = op(render(as(stream)), '/export', 'post');
    expect((o.responses?.['201'] as ResponseObject).content?.['application/x-ndjson']).toEqual({ schema: { type: 'string' }, 'x-itemSchema': { $ref: '#/components/schemas/Item' } });
    const body = (o.requestBody as { content: Record<string, { schema: JsonSchema; encoding?: unknown }> }).content['multipart/form-data'];
    expect(body?.encoding).toEqual({ photo: { contentType: 'image/png' } });
    expect(body?.schema).toEqual({ type: 'object', properties: { caption: { type: 'string' }, photo: { type: 'string', contentMediaType: 'image/png' } }, required: ['caption', 'photo'] });
  });
});

describe('describeRoute: server-sent events', () => {
  it('documents an SSE route: Last-Event-ID, text/event-stream with x-itemSchema and the error event schema', () => {
    const route = rest.newSSERoute('GET', '/feed', codec.empty<object>(), item);
    expect(rest.isSSERoute(route as unknown as rest.Route<unknown, unknown>)).toBe(true);
    const o = op(render(as(route)), '/feed', 'get');
    expect((o.parameters as ParameterObject[]).map((p) => [p.name, p.in, p.required ?? false])).toEqual([['Last-Event-ID', 'header', false]]);
    const media = (o.responses?.['200'] as ResponseObject).content?.['text/event-stream'] as { schema: JsonSchema; 'x-itemSchema': JsonSchema };
    expect(media['x-itemSchema']).toEqual({ $ref: '#/components/schemas/Item' });
    expect(media.schema).toMatchObject({ type: 'string', 'x-errorEventSchema': { type: 'object', required: ['error'] } });
    expect(() => rest.newSSERoute('GET', '/feed', codec.empty<object>(), item, rest.formats())).toThrow(rest.RouteDeclarationError);
  });
});

describe('describeRoute: typed error bodies in the negotiated format', () => {
  const keys = (o: OperationObject, status: string): string[] => Object.keys((o.responses?.[status] as ResponseObject).content ?? {});
  const schemaAt = (o: OperationObject, status: string, media: string): JsonSchema | undefined => (o.responses?.[status] as ResponseObject).content?.[media]?.schema;
  const BAD_ID = { $ref: '#/components/schemas/BadId' };

  it("keeps a JSON format's own media type (application/problem+json) after application/json", () => {
    const route = rest.newRoute('GET', '/items', codec.empty<object>(), item,
      rest.formats(format.json(item).withContentType('application/problem+json'), format.yaml(item)),
      rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' })),
    );
    const o = op(render(as(route)), '/items', 'get');
    expect(keys(o, '404')).toEqual(['application/json', 'application/problem+json', 'application/yaml']);
    for (const m of keys(o, '404')) expect(schemaAt(o, '404', m)).toEqual(BAD_ID);
  });

  it('adds the other media types for the pattern bodies only: envelopes, errorStatus rules and ErrorHandle patterns stay JSON', () => {
    const route = rest.newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam,
      rest.formats(format.json(item), format.yaml(item), format.cbor(item)),
      rest.errorPattern(BadId, 400, badIdBody, (e) => ({ error: e.message, id: '?' })),
      rest.errorStatus(Conflict, 409),
      rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })).withAction(rest.ErrorHandle),
    );
    const o = op(render(as(route)), '/items/{id}', 'get');
    // 400: the pattern's body or the envelope of a failed validation in JSON; only the pattern's body elsewhere.
    expect(keys(o, '400')).toEqual(['application/json', 'application/yaml', 'application/cbor']);
    expect(schemaAt(o, '400', 'application/json')).toEqual({ anyOf: [BAD_ID, ENVELOPE] });
    expect(schemaAt(o, '400', 'application/yaml')).toEqual(BAD_ID);
    expect(schemaAt(o, '400', 'application/cbor')).toEqual(BAD_ID);
    for (const s of ['406', '409', '410', '500']) expect(keys(o, s)).toEqual(['application/json']);
  });

  it('keeps them JSON for a route without a response body, which negotiates nothing', () => {
    const none = codec.empty<object>();
    const route = rest.newRoute('DELETE', '/items', none, none, rest.formats(format.yaml(none), format.json(none)), rest.errorPattern(Gone, 410, goneBody, () => ({ gone: true })));
    const o = op(render(as(route)), '/items', 'delete');
    expect(keys(o, '410')).toEqual(['application/json']);
    expect(keys(o, '500')).toEqual(['application/json']);
  });

  it('documents the media type and body the server sends for every Accept', async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    const csv = format.newTyped(item, () => new TextEncoder().encode('id\n1\n'), () => ({ id: 1 }), 'text/csv').withBodySchema({ type: 'string' });
    const none = codec.empty<object>();
    const routes = [
      rest.newRoute('GET', '/items', codec.empty<object>(), item,
        rest.formats(format.json(item), format.yaml(item), format.toml(item), csv, format.html(item, () => ''), format.cbor(item)),
        rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' }))),
      rest.newRoute('DELETE', '/items', none, none, rest.formats(format.yaml(none), format.json(none)), rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' }))),
    ];
    for (const r of routes) (r as unknown as rest.Route<unknown, unknown>).withHandler(() => { throw new BadId('no such item'); }).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as OpenAPIObject;
    const accepts = [undefined, '*/*', 'application/json', 'application/yaml', 'application/toml', 'application/cbor', 'text/csv', 'text/html', 'application/cbor;q=0.5, application/yaml'];
    for (const h of api.handles()) {
      const documented = keys(op(doc, h.route.path, h.route.method.toLowerCase() as 'get' | 'delete'), '404').map(format.mediaTypeOf);
      const run = prepareRoute(h);
      for (const accept of accepts) {
        const res = await run.run(pipelineRequest(h.route.method, accept));
        const contentType = res.headers.find(([k]) => k === 'content-type')?.[1] ?? '';
        expect(res.status, `${h.route.method} Accept: ${accept}`).toBe(404);
        expect(documented, `${h.route.method} Accept: ${accept}`).toContain(format.mediaTypeOf(contentType));
        // The body is the pattern's, in that media type.
        expect(h.decodeErrorFor(404, res.body as Uint8Array, contentType)?.value).toEqual({ error: 'no such item', id: '?' });
      }
    }
  });
});

describe('describeRoute: response-only formats', () => {
  it('documents html as a response media type with its bodySchema, never for the request or a typed error', () => {
    const page = codec.object({ title: codec.string() }).withName('Page');
    const post = rest.newRoute('POST', '/pages', page, page, rest.formats(format.json(page), format.html(page, (p) => `<h1>${p.title}</h1>`)), rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' })));
    const only = rest.newRoute('GET', '/pages', codec.empty<object>(), page, rest.formats(format.html(page, (p) => `<h1>${p.title}</h1>`)), rest.errorPattern(BadId, 404, badIdBody, (e) => ({ error: e.message, id: '?' })));
    const doc = render(as(post), as(only));
    const p = op(doc, '/pages', 'post');
    const html = { schema: { type: 'string', contentMediaType: 'text/html' } };
    expect((p.responses?.['201'] as ResponseObject).content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Page' } }, 'text/html; charset=utf-8': html });
    expect(Object.keys((p.requestBody as { content: Record<string, unknown> }).content)).toEqual(['application/json']);
    expect(Object.keys((p.responses?.['404'] as ResponseObject).content ?? {})).toEqual(['application/json']);
    const g = op(doc, '/pages', 'get');
    expect((g.responses?.['200'] as ResponseObject).content).toEqual({ 'text/html; charset=utf-8': html });
    expect(Object.keys((g.responses?.['404'] as ResponseObject).content ?? {})).toEqual(['application/json']);
  });
});

describe('describeRoute: 304 exactly where a route can send it', () => {
  const version = codec.object({ v: codec.string() });
  const ifNoneMatch = { ifNoneMatch: rest.named('If-None-Match', codec.optional(codec.string())) };
  const since = new Date(0);
  type Doc304 = { responses: Record<string, { headers?: Record<string, { required?: boolean }> }>; parameters?: { name: string }[] };
  const doc304 = (doc: OpenAPIObject, path: string, method: 'get' | 'put'): Doc304 => op(doc, path, method) as unknown as Doc304;

  it("lists the 304 of a GET that declares a validator or reads If-None-Match / If-Modified-Since (the handler's rest.notModified), and no other", async () => {
    const api = rest.newServer({ title: 't', version: '1' });
    // The handler compares the validator the route reads and answers 304 itself.
    rest.route({ method: 'GET', path: '/asks', headers: ifNoneMatch, response: version })
      .withHandler((_ctx, r) => (r.ifNoneMatch === '"1"' ? rest.notModified({ etag: '"1"' }) : { v: '1' }))
      .register(api);
    rest.route({ method: 'GET', path: '/since', headers: { since: rest.named('If-Modified-Since', codec.optional(codec.string())) }, response: version })
      .withHandler((_ctx, r) => (r.since !== undefined ? rest.notModified({ lastModified: since }) : { v: '1' }))
      .register(api);
    // The server compares the declared ETag on its own.
    rest.route({ method: 'GET', path: '/etag', response: version, responseHeaders: { etag: rest.named('ETag', codec.string()) } })
      .withHandler(() => ({ v: '1', etag: '"1"' }))
      .register(api);
    // Neither: no 304, whatever the request sends; nor on a write that reads If-None-Match (412, RFC 9110 §13.1.2).
    rest.route({ method: 'GET', path: '/plain', response: version }).withHandler(() => ({ v: '1' })).register(api);
    rest.route({ method: 'PUT', path: '/write', headers: ifNoneMatch, body: version, response: version }).withHandler((_ctx, r) => ({ v: r.v })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as OpenAPIObject;
    const validators = { 'if-none-match': '"1"', 'if-modified-since': since.toUTCString(), 'content-type': 'application/json' };
    const sent: Record<string, boolean> = {};
    for (const h of api.handles()) {
      const method = h.route.method.toLowerCase() as 'get' | 'put';
      const res = await prepareRoute(h).run(conditionalRequest(h.route.method, validators));
      const documented = Object.keys(doc304(doc, h.route.path, method).responses);
      sent[h.route.path] = res.status === 304;
      expect([h.route.path, documented.includes('304')]).toEqual([h.route.path, res.status === 304]);
      expect([h.route.path, documented.includes(String(res.status))]).toEqual([h.route.path, true]);
    }
    expect(sent).toEqual({ '/asks': true, '/since': true, '/etag': true, '/plain': false, '/write': false });
    // The validators rest.notModified may name, optional where the route declares none; the route's own parameters only.
    const asks = doc304(doc, '/asks', 'get');
    expect(Object.entries(asks.responses['304']?.headers ?? {}).map(([k, v]) => [k, v.required ?? false])).toEqual([['ETag', false], ['Last-Modified', false]]);
    expect(asks.parameters?.map((p) => p.name)).toEqual(['If-None-Match']);
    const etag = doc304(doc, '/etag', 'get');
    expect(Object.keys(etag.responses['304']?.headers ?? {})).toEqual(['ETag', 'Last-Modified']);
    expect(etag.parameters?.map((p) => p.name)).toEqual(['If-None-Match', 'If-Modified-Since']);
  });

  it('lists it for a GET whose middleware reads If-None-Match', () => {
    const cache = rest.newMiddleware(rest.declaration('cache', codec.empty<{ tag?: string }>(), codec.empty<{ tag?: string }>())).withRequestHeader(
      rest.newOptionalHeaderParam('If-None-Match', codec.string(), (i: { tag?: string }) => i.tag, (i, v) => {
        i.tag = v;
      }),
    );
    const api = rest.newServer({ title: 't', version: '1' });
    api.use(cache.withReceive((_ctx, input) => input));
    const doc = renderWith(api, as(rest.route({ method: 'GET', path: '/cached', response: version })));
    expect(Object.keys(doc304(doc, '/cached', 'get').responses)).toContain('304');
  });
});

describe('describeRoute: the body limit a 413 states', () => {
  const MiB = 1024 * 1024;
  const unstated = codec.object({ note: codec.string(), file: codec.bytes() });
  const stated = codec.object({ file: codec.bytes().refine(validate.maxBytes(3 * MiB)) });
  const upload = (path: string, c: typeof unstated | typeof stated, options?: format.MultipartOptions): rest.Route<never, never> =>
    as(rest.route({ method: 'POST', path, body: c, response: item, requestFormats: [format.multipart(c as typeof unstated, options)] }));
  const limit = (doc: OpenAPIObject, path: string): { description: string; max: unknown } => {
    const r = op(doc, path, 'post').responses?.['413'] as ResponseObject & { 'x-max-body-bytes'?: unknown };
    return { description: r.description, max: r['x-max-body-bytes'] };
  };

  it("states the server's maxBodyBytes for a multipart body whose parts state no limit, never a format's default", () => {
    const byDefault = render(upload('/form', unstated));
    expect(limit(byDefault, '/form')).toEqual({ description: 'The request body is larger than the server accepts: at most 1048576 bytes (1 MiB).', max: MiB });
    const small = renderWith(rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ maxBodyBytes: 1000 })), upload('/form', unstated));
    expect(limit(small, '/form')).toEqual({ description: 'The request body is larger than the server accepts: at most 1000 bytes.', max: 1000 });
  });

  it('states what the route states: its parts, its format, its own maxBodyBytes — over the server default either way', () => {
    const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ maxBodyBytes: 1000 }));
    const doc = renderWith(
      api,
      upload('/stated', stated),
      upload('/max-file', unstated, { maxFileBytes: 2048 }),
      upload('/total', unstated, { maxTotalBytes: 5000 }),
      as((upload('/own', unstated) as unknown as rest.Route<unknown, unknown>).withOptions({ maxBodyBytes: 4 * MiB })),
    );
    // 1 KiB for the closing boundary, 1 KiB per part for its boundary and headers, each part's limit (64 KiB per text field).
    expect(limit(doc, '/stated').max).toBe(3 * MiB + 2048);
    expect(limit(doc, '/max-file').max).toBe(1024 + (1024 + 64 * 1024) + (1024 + 2048));
    expect(limit(doc, '/total').max).toBe(5000);
    expect(limit(doc, '/own')).toEqual({ description: 'The request body is larger than the server accepts: at most 4194304 bytes (4 MiB).', max: 4 * MiB });
  });
});

/** A request with the given (lower-case) headers and no body. */
function conditionalRequest(method: string, headers: Readonly<Record<string, string>>): PipelineRequest {
  return {
    method,
    pathParams: {},
    rawQuery: '',
    header: (name) => headers[name],
    readBody: () => Promise.resolve(new TextEncoder().encode('{"v":"1"}')),
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

function pipelineRequest(method: string, accept: string | undefined): PipelineRequest {
  return {
    method,
    pathParams: {},
    rawQuery: '',
    header: (name) => (name === 'accept' ? accept : undefined),
    readBody: () => Promise.resolve(new Uint8Array()),
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

describe('describeRoute: deprecated parameters', () => {
  it('marks a parameter deprecated where it is declared so, in the object form, as a merge parameter and as a plain one', () => {
    const r = rest.route({
      method: 'GET',
      path: '/orders',
      query: { status: codec.optional(codec.string()), state: rest.named('state', codec.optional(codec.string())).withDescription('Use status.').withDeprecated() },
      headers: { token: rest.named('X-Legacy-Token', codec.optional(codec.string())).withDeprecated() },
      response: codec.object({ n: codec.int() }),
    });
    interface Req {
      page?: number;
    }
    const merged = rest.newRoute<Req, { n: number }>('GET', '/pages', codec.empty<Req>(), codec.object({ n: codec.int() }), rest.newOptionalQueryParam('page', codec.intString(), (q: Req) => q.page, (q, v) => void (q.page = v)).withDeprecated(), rest.queryParam({ name: 'legacy', deprecated: true }));
    const doc = render(as(r), as(merged));
    const params = (path: string): [string, boolean, string | undefined][] => ((op(doc, path, 'get').parameters ?? []) as ParameterObject[]).map((p) => [p.name, p.deprecated ?? false, p.description]);
    expect(params('/orders')).toEqual([['status', false, undefined], ['state', true, 'Use status.'], ['X-Legacy-Token', true, undefined]]);
    expect(params('/pages')).toEqual([['page', true, undefined], ['legacy', true, undefined]]);
  });
});

describe('describeRoute: multipart parts of named codecs', () => {
  it('references their components, recursion included, for a required and an optional body', () => {
    const node: codec.Codec<{ name: string; parent?: unknown }> = codec.object({ name: codec.string(), parent: codec.optional(codec.lazy(() => node)) }).withName('TreeNode');
    const upload = codec.object({ node, file: codec.bytes() });
    const required = rest.route({ method: 'POST', path: '/trees', body: upload, requestFormats: [format.multipart(upload)], response: codec.object({ ok: codec.boolean() }) });
    const optional = rest.route({ method: 'PUT', path: '/trees', body: codec.optional(upload), requestFormats: [format.multipart(upload)], response: codec.object({ ok: codec.boolean() }) });
    const doc = render(as(required), as(optional));
    for (const method of ['post', 'put'] as const) {
      const schema = op(doc, '/trees', method).requestBody as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      expect(schema.content['multipart/form-data']?.schema.properties['node']).toEqual({ $ref: '#/components/schemas/TreeNode' });
    }
    expect(doc.components?.schemas?.['TreeNode']).toEqual({ type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#/components/schemas/TreeNode' } }, required: ['name'] });
  });
});

describe('describeRoute: the success response description', () => {
  it('is the declared one, an empty one too, and the reason phrase when none is declared', () => {
    const declared = (respDescription: string | undefined): rest.Route<never, never> =>
      as(rest.route({ method: 'POST', path: `/notes/${respDescription === undefined ? 'none' : respDescription === '' ? 'empty' : 'text'}`, response: codec.object({ id: codec.int() }), successes: { 202: rest.success(null, { description: '' }) }, meta: { respStatus: 200, ...(respDescription !== undefined && { respDescription }) } }));
    const doc = render(declared(undefined), declared(''), declared('The note.'));
    const description = (path: string, status: string): string | undefined => (op(doc, path, 'post').responses?.[status] as ResponseObject).description;
    expect([description('/notes/none', '200'), description('/notes/empty', '200'), description('/notes/text', '200')]).toEqual(['OK', '', 'The note.']);
    expect(description('/notes/empty', '202')).toBe('');
  });
});
