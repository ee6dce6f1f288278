/**
 * The OpenAPI contract, over real HTTP: what the document says a route answers is what the server
 * sends. Every test provokes a response from a served builder and checks that its status is
 * documented for the operation and that its body validates (Ajv, JSON Schema 2020-12, formats
 * checked) against the schema the document gives for that status and media type, `$ref`s resolved
 * into `components.schemas`.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { makeAjv as makeOracle } from '@lib/oracle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

/** An OpenAPI document as parsed JSON. */
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Schema = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; description?: string; schema?: Schema }[];
  responses?: Record<string, { description: string; headers?: Record<string, { description?: string; schema?: Schema }>; content?: Record<string, { schema?: Schema }> }>;
}

interface Reply {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  readonly headers: Headers;
}

const REF_PREFIX = '#/components/schemas/';

/**
 * A copy of `node` with `$ref`s into `components.schemas` pointed at `$defs`, for Ajv. With
 * `generatorView`, every schema a `discriminator.mapping` names also requires the discriminator
 * property with its mapped value — how code generators read it (openapi-typescript adds that
 * required property to the mapped type), so a body valid only without the tag fails.
 */
function standalone(doc: Doc, schema: Schema, generatorView: boolean): Schema {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      const value = k === '$ref' && typeof v === 'string' ? v.replace(REF_PREFIX, '#/$defs/') : rewrite(v);
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const defs = rewrite(doc.components?.schemas ?? {}) as Record<string, Schema>;
  if (generatorView) {
    for (const [name, tag] of mappingTargets(doc)) {
      const def = defs[name];
      if (def !== undefined) defs[name] = { allOf: [def, { type: 'object', properties: { [tag.property]: { const: tag.value } }, required: [tag.property] }] };
    }
  }
  return { ...(rewrite(schema) as Schema), $defs: defs };
}

/** Component name → the discriminator property and value a `discriminator.mapping` gives it. */
function mappingTargets(doc: Doc): Map<string, { property: string; value: string }> {
  const out = new Map<string, { property: string; value: string }>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const d = (node as { discriminator?: { propertyName: string; mapping?: Record<string, string> } }).discriminator;
    for (const [value, ref] of Object.entries(d?.mapping ?? {})) {
      out.set(decodeURIComponent(ref.replace(REF_PREFIX, '')), { property: d?.propertyName ?? '', value });
    }
    Object.values(node).forEach(visit);
  };
  visit(doc);
  return out;
}

/** The oracle, reporting every error. */
const makeAjv = (): ReturnType<typeof makeOracle> => makeOracle({ allErrors: true });

/** The response a document gives for `status`: the code, else its range, else `default`. */
function documented(doc: Doc, method: string, template: string, status: number): NonNullable<Operation['responses']>[string] {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (op === undefined) expect.fail(`the document has no ${method} ${template}`);
  const responses = op.responses ?? {};
  const r = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
  if (r === undefined) expect.fail(`${method} ${template} answered ${status}, which its document does not list (${Object.keys(responses).join(', ')})`);
  return r;
}

/**
 * Fails unless `reply`'s status is documented for the operation and its body validates against
 * the schema documented for that status and media type. Returns the parsed body.
 */
function expectDocumented(doc: Doc, method: string, template: string, reply: Reply, options: { generatorView?: boolean } = {}): unknown {
  const r = documented(doc, method, template, reply.status);
  const type = (reply.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const media = r.content?.[type];
  if (media === undefined) expect.fail(`${method} ${template} ${reply.status}: media type "${type}" is not documented (${Object.keys(r.content ?? {}).join(', ') || 'no content'})`);
  const body: unknown = JSON.parse(reply.text);
  const validator = makeAjv().compile(standalone(doc, media.schema ?? {}, options.generatorView === true));
  if (validator(body) !== true) {
    expect.fail(`${method} ${template} ${reply.status}: the body ${reply.text} does not match the documented schema ${JSON.stringify(media.schema)}: ${makeAjv().errorsText(validator.errors)}`);
  }
  return body;
}

// --- the routes -------------------------------------------------------------------------------

class BadItemError extends Error {}
class ConflictError extends Error {}
class GoneError extends Error {}

/** A problem-details body (RFC 9457), the errorBody of a custom errorHandler. */
const problem = codec
  .object({ type: codec.string(), title: codec.string(), status: codec.int().refine(validate.min(400), validate.max(599)) })
  .strict()
  .withName('Problem');
const problemHandler: rest.ErrorHandler = (_ctx, err, status) => ({
  body: { type: 'about:blank', title: status >= 500 ? 'Internal Server Error' : err instanceof Error ? err.message : 'error', status },
});

interface ItemReq {
  id: number;
}
const idParam = rest.newPathParam('id', codec.intString().refine(validate.min(1)).withDescription('The item number, from 1.'), (r: ItemReq) => r.id, (r, v) => {
  r.id = v;
});
const item = codec.object({ id: codec.int(), name: codec.string() }).withName('Item');
const badItem = codec.object({ error: codec.string(), reason: codec.string() }).withName('BadItem');
const gone = codec.object({ goneSince: codec.string() }).withName('GoneInfo');

interface ListReq {
  limit: number;
  requestId: string;
}
interface ListResp {
  limit: number;
  requestId?: string;
}

const card = codec.object({ last4: codec.string().refine(validate.minLength(4), validate.maxLength(4)) }).withName('Card');
const bank = codec.object({ iban: codec.string() }).withName('Bank');
const payment = codec.taggedUnion('kind', { card, bank }).withName('Payment');

function defaultApi(): rest.Server {
  const api = rest.newServer({ title: 'Contract', version: '1.0.0' });
  // Item 1: a 400 pattern on a route that validates a parameter.
  rest
    .newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam,
      rest.errorPattern(BadItemError, 400, badItem, (e) => ({ error: e.message, reason: 'refused' })).withDescription('The item is refused.'))
    .withHandler((_ctx, req) => {
      if (req.id === 13) throw new BadItemError('item 13 is unlucky');
      if (req.id === 500) throw new Error('the database password is hunter2');
      if (req.id === 501) return { id: 501, name: 7 } as unknown as { id: number; name: string };
      return { id: req.id, name: `item ${req.id}` };
    })
    .register(api);
  // Item 2, route level: a custom errorHandler with its errorBody.
  rest
    .newRoute('POST', '/problems', codec.object({ name: codec.string().refine(validate.minLength(1)) }), item, rest.errorStatus(ConflictError, 409))
    .withOptions({ errorHandler: problemHandler, errorBody: problem })
    .withHandler((_ctx, req) => {
      if (req.name === 'taken') throw new ConflictError('the name is taken');
      if (req.name === 'boom') throw new Error('secret');
      return { id: 1, name: req.name };
    })
    .register(api);
  // Item 3: ErrorHandle and ErrorLog patterns answer through the errorHandler.
  for (const [path, action] of [['/gone-handle', rest.ErrorHandle], ['/gone-log', rest.ErrorLog]] as const) {
    rest
      .newRoute('GET', path, codec.empty<object>(), item, rest.errorPattern(GoneError, 410, gone, () => ({ goneSince: '2020-01-01' })).withAction(action))
      .withHandler(() => {
        throw new GoneError('it is gone');
      })
      .register(api);
  }
  // Item 4: 406, 500, 503.
  rest
    .newRoute('GET', '/silent', codec.empty<object>(), codec.optional(item))
    .withHandler(() => undefined)
    .register(api);
  // Item 5 and 7: a defaulted integer query parameter; descriptions on parameters and response headers.
  rest
    .newRoute('GET', '/list', codec.empty<ListReq>(), codec.object({ limit: codec.int() }) as unknown as codec.Codec<ListResp>,
      rest.newOptionalQueryParam('limit', codec.defaulted(codec.intString().refine(validate.min(1), validate.max(100)), 20), (r: ListReq) => r.limit, (r, v) => {
        r.limit = v;
      }),
      rest.newRequiredHeaderParam('X-Request-ID', codec.string().refine(validate.minLength(8)).withDescription('A caller-chosen id, echoed back.'), (r: ListReq) => r.requestId, (r, v) => {
        r.requestId = v;
      }),
      rest.newOptionalResponseHeaderParam('X-Request-ID', codec.string().withDescription('The request id that was sent.'), (r: ListResp) => r.requestId, (r, v) => {
        r.requestId = v;
      }))
    .withHandler((_ctx, req) => ({ limit: req.limit, requestId: req.requestId }))
    .register(api);
  // Item 6: a tagged union and one of its named variants alone.
  rest.newRoute('GET', '/payment', codec.empty<object>(), payment).withHandler(() => ({ kind: 'card' as const, last4: '4242' })).register(api);
  rest.newRoute('GET', '/card', codec.empty<object>(), card).withHandler(() => ({ last4: '4242' })).register(api);
  return api;
}

/** Item 2, builder level: `withDefaultOptions({ errorHandler, errorBody })` reaches every route. */
function problemApi(): rest.Server {
  const api = rest.newServer({ title: 'Problems', version: '1.0.0' }, rest.withDefaultOptions({ errorHandler: problemHandler, errorBody: problem }));
  rest
    .newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item, idParam, rest.errorPattern(GoneError, 410, gone, () => ({ goneSince: 'now' })).withAction(rest.ErrorHandle))
    .withHandler((_ctx, req) => {
      if (req.id === 410) throw new GoneError('gone');
      if (req.id === 500) throw new Error('secret');
      return { id: req.id, name: 'x' };
    })
    .register(api);
  return api;
}

export function openapiContract(adapter: AdapterUnderTest): void {
  describe(`OpenAPI contract: ${adapter.name}`, () => {
    const servers: { base: string; stop: () => Promise<void>; doc: Doc }[] = [];
    const docOf = (i: number): Doc => (servers[i] as { doc: Doc }).doc;

    beforeAll(async () => {
      for (const api of [defaultApi(), problemApi()]) {
        const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Doc;
        const { baseURL, stop } = await adapter.serve(api);
        servers.push({ base: baseURL, stop, doc });
      }
    });
    afterAll(async () => {
      for (const s of servers) await s.stop();
    });

    async function send(i: number, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
      const res = await fetch(`${(servers[i] as { base: string }).base}${path}`, { method, ...init });
      return { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text: await res.text(), headers: res.headers };
    }
    const json = { 'content-type': 'application/json' };

    describe('item 1: a 400 pattern and a failed validation share the status', () => {
      it('a bad parameter sends the envelope, which the documented 400 admits', async () => {
        const reply = await send(0, 'GET', '/items/abc');
        expect(reply.status).toBe(400);
        expect(expectDocumented(docOf(0), 'GET', '/items/{id}', reply)).toMatchObject({ error: expect.stringContaining('id') as string });
      });

      it("the pattern's own body is documented too", async () => {
        const reply = await send(0, 'GET', '/items/13');
        expect(reply.status).toBe(400);
        expect(expectDocumented(docOf(0), 'GET', '/items/{id}', reply)).toEqual({ error: 'item 13 is unlucky', reason: 'refused' });
      });
    });

    describe('item 2: a custom errorHandler is documented by its errorBody', () => {
      it('route level: 400, 409, 415, 406 and 500 send the Problem body the document gives', async () => {
        const replies = [
          await send(0, 'POST', '/problems', { headers: json, body: '{"name":""}' }),
          await send(0, 'POST', '/problems', { headers: json, body: '{"name":"taken"}' }),
          await send(0, 'POST', '/problems', { headers: { 'content-type': 'text/plain' }, body: 'x' }),
          await send(0, 'POST', '/problems', { headers: { ...json, accept: 'application/xml' }, body: '{"name":"a"}' }),
          await send(0, 'POST', '/problems', { headers: json, body: '{"name":"boom"}' }),
        ];
        expect(replies.map((r) => r.status)).toEqual([400, 409, 415, 406, 500]);
        for (const reply of replies) expect(expectDocumented(docOf(0), 'POST', '/problems', reply)).toMatchObject({ type: 'about:blank', status: reply.status });
      });

      it('builder level (withDefaultOptions): 400, 410 (ErrorHandle) and 500 send the Problem body the document gives', async () => {
        const replies = [await send(1, 'GET', '/items/0'), await send(1, 'GET', '/items/410'), await send(1, 'GET', '/items/500')];
        expect(replies.map((r) => r.status)).toEqual([400, 410, 500]);
        for (const reply of replies) expect(expectDocumented(docOf(1), 'GET', '/items/{id}', reply)).toMatchObject({ type: 'about:blank', status: reply.status });
      });
    });

    describe("item 3: ErrorHandle and ErrorLog patterns send the errorHandler's body", () => {
      for (const path of ['/gone-handle', '/gone-log']) {
        it(`${path}: the 410 envelope matches the document`, async () => {
          const reply = await send(0, 'GET', path);
          expect(reply.status).toBe(410);
          expect(expectDocumented(docOf(0), 'GET', path, reply)).toEqual({ error: 'it is gone' });
        });
      }
    });

    describe("item 4: the pipeline's own statuses are documented on the routes that send them", () => {
      it('406 for an Accept no response format matches', async () => {
        const reply = await send(0, 'GET', '/items/1', { headers: { accept: 'application/xml' } });
        expect(reply.status).toBe(406);
        expectDocumented(docOf(0), 'GET', '/items/{id}', reply);
      });

      it('500 for a handler that throws, and for a response that breaks the contract', async () => {
        for (const id of [500, 501]) {
          const reply = await send(0, 'GET', `/items/${id}`);
          expect(reply.status).toBe(500);
          expect(expectDocumented(docOf(0), 'GET', '/items/{id}', reply)).toEqual({ error: 'internal server error' });
        }
      });

      it('503 for a handler that returns no value', async () => {
        const reply = await send(0, 'GET', '/silent');
        expect(reply.status).toBe(503);
        expectDocumented(docOf(0), 'GET', '/silent', reply);
      });

      it('the success responses match too', async () => {
        expectDocumented(docOf(0), 'GET', '/items/{id}', await send(0, 'GET', '/items/2'));
        expectDocumented(docOf(0), 'POST', '/problems', await send(0, 'POST', '/problems', { headers: json, body: '{"name":"a"}' }));
      });
    });

    describe('item 5: a defaulted integer parameter documents its default as an integer', () => {
      it('default: 20 is valid for the parameter schema, and the server takes it', async () => {
        const param = docOf(0).paths['/list']?.['get']?.parameters?.find((p) => p.name === 'limit');
        const schema = param?.schema ?? {};
        expect(schema['default']).toBe(20);
        expect(makeAjv().validate(standalone(docOf(0), schema, false), schema['default'])).toBe(true);
        // Leaving the parameter out gives the handler the documented default.
        const reply = await send(0, 'GET', '/list', { headers: { 'x-request-id': 'req-00000001' } });
        expect(reply.status).toBe(200);
        expect(expectDocumented(docOf(0), 'GET', '/list', reply)).toEqual({ limit: schema['default'] });
      });
    });

    describe('item 6: a named variant sent alone is typed without the tag', () => {
      it('the bare variant and the union both match the document as code generators read it', async () => {
        const union = await send(0, 'GET', '/payment');
        expect(expectDocumented(docOf(0), 'GET', '/payment', union, { generatorView: true })).toEqual({ kind: 'card', last4: '4242' });
        const bare = await send(0, 'GET', '/card');
        expect(expectDocumented(docOf(0), 'GET', '/card', bare, { generatorView: true })).toEqual({ last4: '4242' });
      });
    });

    describe('item 7: descriptions sit on the parameter and header objects', () => {
      it("the codec's text documents the parameter (not its schema), and names the parameter a 400 is about", async () => {
        const op = docOf(0).paths['/items/{id}']?.['get'];
        const id = op?.parameters?.find((p) => p.name === 'id');
        expect(id?.description).toBe('The item number, from 1.');
        expect(id?.schema).not.toHaveProperty('description');
        const list = docOf(0).paths['/list']?.['get'];
        const header = list?.parameters?.find((p) => p.name === 'X-Request-ID');
        expect(header?.description).toBe('A caller-chosen id, echoed back.');
        expect(header?.schema).not.toHaveProperty('description');
        const reply = await send(0, 'GET', '/items/0');
        expect(reply.status).toBe(400);
        expect(expectDocumented(docOf(0), 'GET', '/items/{id}', reply)).toMatchObject({ error: expect.stringContaining('"id"') as string });
      });

      it('a response header is described on the header object, and its value matches its schema', async () => {
        const reply = await send(0, 'GET', '/list?limit=5', { headers: { 'x-request-id': 'req-00000002' } });
        expect(reply.status).toBe(200);
        const h = documented(docOf(0), 'GET', '/list', reply.status).headers?.['X-Request-ID'];
        expect(h?.description).toBe('The request id that was sent.');
        expect(h?.schema).not.toHaveProperty('description');
        expect(makeAjv().validate(h?.schema ?? {}, reply.headers.get('x-request-id'))).toBe(true);
      });
    });
  });
}
