// Imported routes over real HTTP: a module generated from a document, type-checked, served on
// 127.0.0.1 with handlers, and called with fetch — what the document says is what the server takes.
import { pathToFileURL } from 'node:url';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { expect, test } from 'vitest';
import { diffDocuments } from '../src/index.js';
import { generate, type RoundTrip } from './roundtrip.js';

/** Serves `api` on 127.0.0.1 port 0 with node:http for the length of `use`, then stops it. */
async function served(api: rest.Server, use: (base: string) => Promise<void>): Promise<void> {
  const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  try {
    const { host, port } = await transport.listening();
    await use(`http://${host}:${port}`);
  } finally {
    stop.abort();
    await done;
  }
}

/** The module generated from `doc`, type-checked without errors and imported, and a server named as the document. */
async function imported<M = { routes: Record<string, rest.Route<any, any>> }>(name: string, doc: { info: { title: string; version: string } }): Promise<{ r: RoundTrip; mod: M; api: rest.Server }> {
  const [r] = generate([{ name, doc }]);
  expect(r?.typeErrors).toEqual([]);
  const mod = (await import(pathToFileURL(r!.file).href)) as M;
  return { r: r!, mod, api: rest.newServer({ title: doc.info.title, version: doc.info.version }) };
}

/** The status of a POST of `body` as JSON to `url`. */
function postJson(url: string, body: object): Promise<number> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) => res.status);
}

const upload = {
  openapi: '3.0.3',
  info: { title: 'Uploads', version: '1' },
  paths: {
    '/documents': {
      post: {
        operationId: 'uploadDocument',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { orderId: { type: 'integer' }, meta: { type: 'object', properties: { author: { type: 'string' } } }, file: { type: 'string', format: 'binary' } } } } } },
        responses: { '201': { description: 'Stored', content: { 'application/json': { schema: { type: 'object', properties: { size: { type: 'integer' }, orderId: { type: 'integer' }, author: { type: 'string' } } } } } } },
      },
    },
  },
};

test('a multipart body is read with its file parts as bytes, its text parts by their types and its object parts as JSON', async () => {
  const { mod, api } = await imported('served-multipart', upload);
  // An object body's fields are the request's fields.
  (mod.routes.uploadDocument as rest.Route<{ orderId?: number; meta?: { author?: string }; file: Uint8Array }, { size?: number; orderId?: number; author?: string }>)
    .withHandler((_ctx, req) => ({ size: req.file.byteLength, ...(req.orderId !== undefined && { orderId: req.orderId }), ...(req.meta?.author !== undefined && { author: req.meta.author }) }))
    .register(api);
  await served(api, async (base) => {
    const form = new FormData();
    form.set('orderId', '42');
    form.set('meta', JSON.stringify({ author: 'ann' }));
    form.set('file', new Blob([new Uint8Array([1, 2, 3, 4])]), 'a.bin');
    const res = await fetch(`${base}/documents`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ size: 4, orderId: 42, author: 'ann' });
    const bad = new FormData();
    bad.set('orderId', 'many');
    bad.set('file', new Blob([new Uint8Array([1])]), 'a.bin');
    expect((await fetch(`${base}/documents`, { method: 'POST', body: bad })).status).toBe(400);
  });
}, 60_000);

const pets = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pet': {
      post: {
        operationId: 'addPet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } }, 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'OK', content: { 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } }, 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: { type: 'object', required: ['name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, photoUrls: { type: 'array', xml: { wrapped: true }, items: { type: 'string', xml: { name: 'photoUrl' } } } }, xml: { name: 'pet' } },
    },
  },
};

test('an XML body is read and written as the document lays it out (OpenAPI XML Object)', async () => {
  const { mod, api } = await imported('served-xml', pets);
  (mod.routes.addPet as rest.Route<{ id?: number; name: string; photoUrls?: string[] }, { id?: number; name: string; photoUrls?: string[] }>)
    .withHandler((_ctx, req) => ({ ...req, id: 7 }))
    .register(api);
  await served(api, async (base) => {
    const res = await fetch(`${base}/pet`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
      body: '<pet><name>Rex</name><photoUrls><photoUrl>a.png</photoUrl></photoUrls></pet>',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml');
    const body = await res.text();
    expect(body).toContain('<pet><id>7</id><name>Rex</name><photoUrls><photoUrl>a.png</photoUrl></photoUrls></pet>');
    expect((await fetch(`${base}/pet`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<pet><id>x</id></pet>' })).status).toBe(400);
  });
}, 60_000);

const limits = {
  openapi: '3.1.0',
  info: { title: 'Limits', version: '1' },
  paths: {
    '/stations': {
      get: {
        operationId: 'getStations',
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
          '429': {
            description: 'Too Many Requests',
            headers: { 'Retry-After': { required: true, schema: { type: 'integer' } }, RateLimit: { description: 'The quota policy.', schema: { type: 'string' } } },
            content: { 'application/problem+json': { schema: { type: 'object', properties: { title: { type: 'string' } } } } },
          },
        },
      },
    },
  },
};

test('headers of an error response are sent with it, read by the typed client, and documented as given', async () => {
  const { r, mod, api } = await imported<{ routes: Record<string, rest.Route<any, any>>; ResponseError: new (status: number, body?: unknown, mediaType?: string, headers?: Record<string, unknown>) => Error }>('served-error-headers', limits);
  expect(r.refused.map((x) => x.kind)).not.toContain('error-headers');
  mod.routes.getStations!.withHandler(() => {
    throw new mod.ResponseError(429, { title: 'Slow down' }, undefined, { retryAfter: 120, rateLimit: 'limit=10, remaining=0, reset=120' });
  }).register(api);
  await served(api, async (base) => {
    const res = await fetch(`${base}/stations`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.headers.get('ratelimit')).toBe('limit=10, remaining=0, reset=120');
    const client = rest.newClient();
    client.attach(nodeHttp.newClientTransport({ baseURL: base }));
    const got = (await client.safeCall(mod.routes.getStations!, {})) as { ok: boolean; status?: number; headers?: unknown };
    expect(got).toMatchObject({ ok: false, status: 429, headers: { retryAfter: 120, rateLimit: 'limit=10, remaining=0, reset=120' } });
  });
  expect(diffDocuments(limits, JSON.parse(api.openAPISpec().marshalJSON()) as object)).toEqual([]);
}, 60_000);

const pages = {
  openapi: '3.0.3',
  info: { title: 'Pages', version: '1' },
  paths: {
    '/docs': {
      post: {
        operationId: 'createDoc',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/docPost' } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
  components: {
    schemas: {
      // ReadMe's pattern: one of two sets of properties must be there, the rest optional.
      docPost: {
        type: 'object',
        properties: { title: { type: 'string' }, category: { type: 'string' }, categorySlug: { type: 'string' } },
        oneOf: [{ required: ['title', 'category'], title: 'By category id' }, { required: ['title', 'categorySlug'], title: 'By category slug' }],
      },
    },
  },
};

test('an object whose oneOf only names required properties takes exactly one of the sets, and round-trips', async () => {
  const { r, mod, api } = await imported('served-required-sets', pages);
  expect(r.refused.map((x) => x.kind)).not.toContain('union-sibling');
  mod.routes.createDoc!.withHandler(() => undefined).register(api);
  await served(api, async (base) => {
    const post = (body: object): Promise<number> => postJson(`${base}/docs`, body);
    expect(await post({ title: 'a', category: 'c1' })).toBe(201);
    expect(await post({ title: 'a', categorySlug: 'guides' })).toBe(201);
    expect(await post({ title: 'a' })).toBe(400);
    expect(await post({ title: 'a', category: 'c1', categorySlug: 'guides' })).toBe(400);
  });
  expect(diffDocuments(pages, JSON.parse(api.openAPISpec().marshalJSON()) as object)).toEqual([]);
}, 60_000);

const legacy = {
  openapi: '3.0.3',
  info: { title: 'Legacy', version: '1' },
  paths: {
    '/orders': {
      get: {
        operationId: 'listOrders',
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'string' } },
          { name: 'state', in: 'query', deprecated: true, description: 'Use status.', schema: { type: 'string' } },
          { name: 'X-Legacy-Token', in: 'header', deprecated: true, schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } } } },
      },
    },
  },
};

test('a deprecated parameter is still read, and the document marks it deprecated', async () => {
  const { r, mod, api } = await imported('served-deprecated-params', legacy);
  expect(r.refused.map((x) => x.kind)).not.toContain('param-doc');
  (mod.routes.listOrders as rest.Route<{ status?: string; state?: string }, { status?: string }>)
    .withHandler((_ctx, req) => ({ ...((req.status ?? req.state) !== undefined && { status: req.status ?? req.state }) }))
    .register(api);
  await served(api, async (base) => {
    expect(await (await fetch(`${base}/orders?state=open`)).json()).toEqual({ status: 'open' });
  });
  const exported = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { parameters: { name: string; deprecated?: boolean }[] } }> };
  expect(exported.paths['/orders']?.get.parameters.map((p) => [p.name, p.deprecated ?? false])).toEqual([['status', false], ['state', true], ['X-Legacy-Token', true]]);
  expect(diffDocuments(legacy, exported)).toEqual([]);
}, 60_000);

const guids = {
  openapi: '3.0.3',
  info: { title: 'Guids', version: '1' },
  paths: {
    '/things': {
      get: {
        operationId: 'findThing',
        parameters: [
          // Valid ECMA-262 only without the u flag: a bare `{`, as ReadMe's example has.
          { name: 'guid', in: 'query', required: true, schema: { type: 'string', pattern: '^(?:{[0-9a-f]{8}}|[0-9a-f]{8})$' } },
        ],
        responses: { '204': { description: 'Found' } },
      },
    },
  },
};

test('a pattern valid only without the u flag is checked so, and documented as written', async () => {
  const { r, mod, api } = await imported('served-pattern', guids);
  expect(r.refused.map((x) => x.kind)).not.toContain('pattern');
  mod.routes.findThing!.withHandler(() => undefined).register(api);
  await served(api, async (base) => {
    expect((await fetch(`${base}/things?guid=${encodeURIComponent('{0a1b2c3d}')}`)).status).toBe(204);
    expect((await fetch(`${base}/things?guid=0a1b2c3d`)).status).toBe(204);
    expect((await fetch(`${base}/things?guid=nope`)).status).toBe(400);
  });
  expect(diffDocuments(guids, JSON.parse(api.openAPISpec().marshalJSON()) as object)).toEqual([]);
}, 60_000);

const shapes = {
  openapi: '3.0.3',
  info: { title: 'Shapes', version: '1' },
  paths: {
    '/shapes': {
      post: {
        operationId: 'addShape',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                // The discriminator's property, declared once beside the alternatives.
                properties: { kind: { type: 'string', enum: ['circle', 'square'] } },
                required: ['kind'],
                discriminator: { propertyName: 'kind' },
                oneOf: [{ $ref: '#/components/schemas/Circle' }, { $ref: '#/components/schemas/Square' }],
              },
            },
          },
        },
        responses: { '204': { description: 'Added' } },
      },
    },
  },
  components: {
    schemas: {
      Circle: { type: 'object', required: ['kind', 'radius'], properties: { kind: { type: 'string' }, radius: { type: 'number' } } },
      Square: { type: 'object', required: ['kind', 'side'], properties: { kind: { type: 'string' }, side: { type: 'number' } } },
    },
  },
};

test('properties beside oneOf are checked on every value, and documented beside the alternatives', async () => {
  const { r, mod, api } = await imported('served-union-siblings', shapes);
  expect(r.refused.map((x) => x.kind)).not.toContain('union-sibling');
  mod.routes.addShape!.withHandler(() => undefined).register(api);
  await served(api, async (base) => {
    const post = (body: object): Promise<number> => postJson(`${base}/shapes`, body);
    expect(await post({ kind: 'circle', radius: 1 })).toBe(204);
    // A Circle by its fields, whose kind is none of the declared ones.
    expect(await post({ kind: 'triangle', radius: 1 })).toBe(400);
  });
  expect(diffDocuments(shapes, JSON.parse(api.openAPISpec().marshalJSON()) as object)).toEqual([]);
}, 60_000);

const blank = {
  openapi: '3.0.3',
  info: { title: 'Blank', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'addNote',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } } } } } },
        // The description is required, its text is not: ReadMe's schema-visibility example leaves it empty.
        responses: { '200': { description: '', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
      },
    },
  },
};

test('an empty response description is documented empty, not as the reason phrase', async () => {
  const { mod, api } = await imported('served-blank-description', blank);
  mod.routes.addNote!.withHandler(() => ({ id: 'n1' })).register(api);
  const exported = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
  expect(exported.paths['/notes']?.post?.responses['200']?.description).toBe('');
  expect(diffDocuments(blank, exported)).toEqual([]);
}, 60_000);
