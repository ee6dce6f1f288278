import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importDocument, loadDocument } from '../src/index.js';
import { generate, serveAndDiff } from './roundtrip.js';

const fixture = (f: string): string => join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', f);
const doc31 = (schemas: object, paths: object = {}): object => ({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths, components: { schemas } });

describe('component schemas', () => {
  test('objects, required, enums, nullable, formats, readOnly and recursion become codecs', () => {
    const { source, refused } = importDocument(loadDocument(fixture('shop.yaml')));
    expect(source).toContain('export const Item = codec.object({ id: codec.string().refine(validate.uuid, annotate({"readOnly":true}))');
    expect(source).toContain('name: codec.string().refine(validate.minLength(1), validate.maxLength(100))');
    expect(source).toContain('price: codec.number().refine(exclusiveMinimum(0))');
    expect(source).toContain('kind: codec.optional(codec.string().refine(validate.oneOf("book", "game")))');
    expect(source).toContain('note: codec.optional(codec.nullable(codec.string()))');
    expect(source).toContain('parent: codec.optional(codec.lazy((): codec.Codec<any> => Item))');
    // The external file became a component named after it.
    expect(source).toContain('export const item_input = codec.object(');
    expect(refused.filter((r) => r.kind !== 'servers')).toEqual([
      { pointer: '#/paths/~1items~1{id}/delete', kind: 'generated-name', reason: 'no operationId: the route is routes.deleteItemsId (the document keeps none)' },
    ]);
  });

  test('3.1 type arrays, const, oneOf with and without null, allOf merges, additionalProperties', () => {
    const { source } = importDocument(doc31({
      A: { type: ['string', 'null'], maxLength: 3 },
      B: { const: 'b' },
      C: { oneOf: [{ $ref: '#/components/schemas/A' }, { type: 'integer' }], discriminator: { propertyName: 'k' } },
      D: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      E: { allOf: [{ $ref: '#/components/schemas/F' }, { type: 'object', required: ['y'], properties: { y: { type: 'integer', format: 'int32' } } }] },
      F: { type: 'object', properties: { x: { type: 'boolean' } }, additionalProperties: false },
      G: { type: 'object', additionalProperties: { type: 'string' } },
      P: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } },
    }));
    expect(source).toContain('export const A = codec.nullable(codec.string().refine(validate.maxLength(3))).withName("A")');
    expect(source).toContain('export const B = codec.literal("b").withName("B")');
    expect(source).toContain('export const C = exactlyOne(codec.untaggedUnion(A, codec.int())).refine(annotate({"discriminator":{"propertyName":"k"}})).withName("C")');
    expect(source).toContain('export const D = codec.nullable(codec.string()).withName("D")');
    expect(source).toContain('export const E = codec.object({ x: codec.optional(codec.boolean()), y: codec.int32() }).strict().withName("E")');
    expect(source).toContain('export const G = codec.record(codec.string()).withName("G")');
    expect(source).toContain('export const P = codec.withAdditionalProperties(codec.object({ a: codec.optional(codec.string()) }), codec.int()).withName("P")');
  });

  test('what @lib cannot express is refused and commented where it applies', () => {
    const { source, refused } = importDocument(doc31({
      T: { type: 'array', prefixItems: [{ type: 'string' }] },
      N: { not: { type: 'string' } },
      F: { type: 'string', format: 'password' },
    }));
    const kinds = refused.map((r) => `${r.kind} ${r.pointer}`);
    expect(kinds).toEqual(expect.arrayContaining([
      'tuple #/components/schemas/T/items',
      'keyword #/components/schemas/N/not',
      'format-unchecked #/components/schemas/F/format',
    ]));
    for (const r of refused) expect(source).toContain(`at ${r.pointer}: ${r.reason}`);
  });

  test('names that are not identifiers are made ones; the document keeps the name', () => {
    const { source } = importDocument(doc31({ 'pull-request': { type: 'string' }, '1x': { type: 'string' }, default: { type: 'string' } }));
    expect(source).toContain('export const pull_request = codec.string().withName("pull-request")');
    expect(source).toContain('export const _1x = codec.string().withName("1x")');
    expect(source).toContain('export const default_ = codec.string().withName("default")');
  });

  test('Swagger 2.0 is refused as a whole', () => {
    expect(() => importDocument({ swagger: '2.0', info: {}, paths: {} })).toThrow('expected an OpenAPI 3.0 or 3.1 document, got Swagger 2.0');
  });
});

describe('operations', () => {
  test('a number parameter is read from its text (codec.numberString)', () => {
    const { source, refused } = importDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/items': { get: { operationId: 'listItems', parameters: [{ name: 'maxPrice', in: 'query', schema: { type: 'number', minimum: 0 } }], responses: { '200': { description: 'OK' } } } } },
    });
    expect(source).toContain('maxPrice: codec.optional(codec.numberString().refine(validate.min(0)))');
    expect(refused.filter((r) => r.kind === 'param-schema')).toEqual([]);
  });

  test('an operation answered only by errors is a route that never succeeds (response: codec.never())', () => {
    const { source, refused } = importDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/pet/{petId}': { delete: { operationId: 'deletePet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '400': { description: 'Invalid pet value' } } } } },
    });
    expect(source).toContain('response: codec.never()');
    expect(source).toContain('errors: [rest.errorPattern(errorOf(400), 400, codec.empty(), (e) => e.body as never).withDescription("Invalid pet value")]');
    expect(refused.filter((r) => r.kind === 'no-success')).toEqual([]);
  });

  test('a 3xx with content beside the success is an error rule of that status (a moved resource\'s body)', () => {
    const moved = { type: 'object', properties: { message: { type: 'string' }, url: { type: 'string' } } };
    const { source, refused } = importDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/repos/{repo}': { get: { operationId: 'getRepo', parameters: [{ name: 'repo', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'OK' }, '301': { description: 'Moved permanently', content: { 'application/json': { schema: moved } } }, '304': { description: 'Not modified' } } } } },
    });
    expect(source).toContain('rest.errorPattern(errorOf(301), 301, codec.object({ message: codec.optional(codec.string()), url: codec.optional(codec.string()) }), (e) => e.body as never).withDescription("Moved permanently")');
    expect(source).toContain('responses: [{ status: 304, description: "Not modified" }]');
    expect(refused.filter((r) => r.kind === 'status')).toEqual([]);
  });

  test('an error with a schema per JSON media type is a pattern per schema, each with its types, the specific ones first', () => {
    const basic = { type: 'object', properties: { message: { type: 'string' } } };
    const scim = { type: 'object', properties: { detail: { type: 'string' } } };
    const { source, refused } = importDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/issues': { get: { operationId: 'listIssues', responses: { '200': { description: 'OK' }, '400': { description: 'Bad Request', content: { 'application/json': { schema: basic }, 'application/scim+json': { schema: scim } } } } } } },
    });
    expect(source).toContain('errors: [rest.errorPattern(errorOf(400, ["application/scim+json"]), 400, codec.object({ detail: codec.optional(codec.string()) }), (e) => e.body as never).withDescription("Bad Request").withMediaTypes("application/scim+json"), rest.errorPattern(errorOf(400), 400, codec.object({ message: codec.optional(codec.string()) }), (e) => e.body as never).withDescription("Bad Request").withMediaTypes("application/json")]');
    expect(refused.filter((r) => r.kind === 'media-type')).toEqual([]);
  });

  test('XML and plain-text bodies are format.xml and format.text beside JSON', () => {
    const pet = { type: 'object', properties: { name: { type: 'string' } }, xml: { name: 'Pet' } };
    const { source, refused } = importDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/pet': { post: { operationId: 'addPet', requestBody: { required: true, content: { 'application/json': { schema: pet }, 'application/xml': { schema: pet } } }, responses: { '200': { description: 'OK', content: { 'application/xml': { schema: pet }, 'application/json': { schema: pet } } } } } },
        '/note': { get: { operationId: 'getNote', responses: { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
      },
    });
    expect(source).toMatch(/requestFormats: \[format\.json\((.+)\), format\.xml\(\1\)\]/);
    expect(source).toMatch(/formats: \[format\.xml\((.+)\), format\.json\(\1\)\]/);
    expect(source).toContain('formats: [format.text(codec.string(), "text/plain")]');
    expect(refused.filter((r) => r.kind === 'media-type')).toEqual([]);
  });

  test('an operation answered only by default has it as its main response (respStatus "default")', () => {
    const { source, refused } = importDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/user/logout': { get: { operationId: 'logoutUser', responses: { default: { description: 'successful operation' } } } } },
    });
    expect(source).toContain('respStatus: "default", respDescription: "successful operation"');
    expect(refused.filter((r) => r.kind === 'no-success')).toEqual([]);
  });

  test('an error body in several JSON media types keeps them (withMediaTypes); one in text is a pattern of its own (withFormats)', () => {
    const problem = { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } };
    const { source, refused } = importDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/scim/Users': {
          post: {
            operationId: 'createUser',
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { userName: { type: 'string' } } } } } },
            responses: {
              '201': { description: 'Created' },
              '400': { description: 'Bad Request', content: { 'application/json': { schema: problem }, 'application/scim+json': { schema: problem } } },
              '409': { description: 'Conflict', content: { 'application/json': { schema: problem }, 'text/plain': { schema: { type: 'string' } } } },
            },
          },
        },
      },
    });
    expect(source).toContain('.withMediaTypes("application/json", "application/scim+json")');
    // A 409 in JSON or as text: a pattern per schema, the text one in format.text.
    expect(source).toContain('rest.errorPattern(errorOf(409, ["text/plain"]), 409, codec.string(), (e) => e.body as never).withDescription("Conflict").withFormats(format.text(codec.string(), "text/plain"))');
    expect(source).toContain('rest.errorPattern(errorOf(409), 409, codec.object({ detail: codec.string() }), (e) => e.body as never).withDescription("Conflict").withMediaTypes("application/json")');
    expect(refused.filter((r) => r.kind === 'media-type' || r.kind === 'error-media-type')).toEqual([]);
  });

  test('a request body that is not required, in formats of its own, is an optional body with those formats', () => {
    const note = { type: 'object', properties: { text: { type: 'string' } } };
    const { source, refused } = importDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/notes': { post: { operationId: 'postNote', requestBody: { content: { 'application/x-www-form-urlencoded': { schema: note }, 'application/json': { schema: note } } }, responses: { '201': { description: 'Created' } } } } },
    });
    expect(source).toContain('body: codec.optional(codec.object({ text: codec.optional(codec.string()) })),\n');
    expect(source).toContain('requestFormats: [format.form(codec.object({ text: codec.optional(codec.string()) })), format.json(codec.object({ text: codec.optional(codec.string()) }))]');
    expect(refused).toEqual([]);
  });

  test('parameters, bodies, responses, errors, security and docs become rest.route({...})', () => {
    const { source } = importDocument(loadDocument(fixture('shop.yaml')));
    expect(source).toContain('query: { limit: codec.optional(codec.intString().refine(validate.min(1), validate.max(100))), tag: codec.optional(codec.array(codec.string())) }');
    expect(source).toContain('headers: { xTenantID: rest.named("X-Tenant-ID", codec.string()) }');
    expect(source).toContain('responseHeaders: { xTotal: rest.named("X-Total", codec.intString()) }');
    expect(source).toContain('errors: [rest.errorPattern(errorOf(409), 409, Problem, (e) => e.body as never).withDescription("Taken.")]');
    expect(source).toContain('security: [{"bearer":[]}]');
    expect(source).toContain('security: []');
    expect(source).toContain('meta: { tags: ["items"], deprecated: true, respStatus: 204, respDescription: "Deleted." }');
    expect(source).toContain('bearer: rest.bearerScheme("JWT")');
  });

  test('parameter styles become rest.styled; what OpenAPI or a cookie cannot carry is refused with the reason', () => {
    const { source, refused } = importDocument({
      openapi: '3.0.3', info: { title: 'T', version: '1' },
      paths: { '/a/{ids}': { get: { operationId: 'a', parameters: [
        { name: 'ids', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'integer' } } },
        { name: 'tags', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
        { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { status: { type: 'string' } } } },
        { name: 'X-Ids', in: 'header', schema: { type: 'array', items: { type: 'string' } } },
        { name: 'prefs', in: 'cookie', schema: { type: 'array', items: { type: 'string' } } },
      ], responses: { '200': { description: 'ok' } } } } },
    });
    expect(source).toContain('ids: rest.styled(codec.array(codec.intString()), { style: "label", explode: true })');
    expect(source).toContain('tags: rest.styled(codec.optional(codec.array(codec.string())), { explode: false })');
    expect(source).toContain('filter: rest.styled(codec.optional(codec.object({ status: codec.optional(codec.string()) })), { style: "deepObject" })');
    expect(source).toContain('xIds: rest.named("X-Ids", rest.styled(codec.optional(codec.array(codec.string())), {}))');
    // A cookie cannot repeat its name: an exploded cookie list is refused.
    expect(refused.map((r) => `${r.kind} ${r.pointer}`)).toEqual(['param-style #/paths/~1a~1{ids}/get/parameters/4/explode']);
    expect(refused[0]?.reason).toContain('cannot repeat its name');
  });
});

test('the fixture round-trips: compiles, serves, and its exported document equals the input', async () => {
  const doc = loadDocument(fixture('shop.yaml'));
  const [r] = generate([{ name: 'shop', doc }]);
  expect(r?.typeErrors).toEqual([]);
  await serveAndDiff(r!, doc);
  expect(r?.error).toBeUndefined();
  expect(r?.served).toBe(true);
  expect(r?.differences).toEqual([]);
  expect(r?.schemaDifferences).toEqual([]);
  expect([r?.operationsEqual, r?.schemasEqual]).toEqual([4, 3]);
}, 120_000);

test('a named schema annotated where it is used keeps its name to itself; 304, links, type beside oneOf and allOf annotations round-trip', async () => {
  const user = { title: 'User', type: 'object', required: ['login'], properties: { login: { type: 'string' } } };
  const doc = {
    openapi: '3.0.3', info: { title: 'T', version: '1' },
    paths: {
      '/advisories/{id}': {
        get: {
          operationId: 'getAdvisory',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/advisory' } } }, links: { self: { operationId: 'getAdvisory', parameters: { id: '$response.body#/id' } } } },
            '304': { description: 'Not modified' },
          },
        },
      },
      '/attestations': {
        post: {
          operationId: 'deleteAttestations',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', oneOf: [{ properties: { digests: { type: 'array', items: { type: 'string' } } }, required: ['digests'] }, { properties: { ids: { type: 'array', items: { type: 'integer' } } }, required: ['ids'] }] } } } },
          responses: { '201': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {
        'simple-user': user,
        advisory: {
          allOf: [{ type: 'object', properties: { error: { type: 'string', description: 'A code.' } } }, { type: 'object', required: ['id'], properties: { id: { type: 'string' }, error: { type: 'string', default: 'E1' } } }],
          properties: {
            // GitHub's pattern: a named schema, nullable and readOnly, through allOf.
            author: { readOnly: true, nullable: true, description: 'The author.', allOf: [{ $ref: '#/components/schemas/simple-user' }] },
            owner: { $ref: '#/components/schemas/simple-user' },
          },
        },
      },
    },
  };
  const { source, refused } = importDocument(doc);
  expect(refused).toEqual([]);
  expect(source).toContain('author: codec.optional(codec.nullable(codec.lazy(() => simple_user).refine(annotate({"readOnly":true}))).withDescription("The author."))');
  expect(source).toContain('responses: [{ status: 304, description: "Not modified" }]');
  expect(source).toContain('links: {"self":{"operationId":"getAdvisory","parameters":{"id":"$response.body#/id"}}}');
  const [r] = generate([{ name: 'annotated-refs', doc }]);
  expect(r?.typeErrors).toEqual([]);
  await serveAndDiff(r!, doc);
  expect(r?.error).toBeUndefined();
  expect(r?.differences).toEqual([]);
  expect(r?.schemaDifferences).toEqual([]);
}, 120_000);

test('another success without headers of its own documents none, where the main response has some', async () => {
  const doc = {
    openapi: '3.1.0', info: { title: 'T', version: '1' },
    paths: {
      '/report': {
        get: {
          operationId: 'getReport',
          responses: {
            '200': { description: 'OK', headers: { 'X-Rows': { schema: { type: 'integer' } } }, content: { 'application/json': { schema: { type: 'object', properties: { rows: { type: 'integer' } } } } } },
            '204': { description: 'Nothing yet' },
          },
        },
      },
    },
  };
  const [r] = generate([{ name: 'success-headers', doc }]);
  expect(r?.typeErrors).toEqual([]);
  await serveAndDiff(r!, doc);
  expect(r?.differences).toEqual([]);
}, 60_000);

test('a path parameter\'s description is its codec\'s, documented as the parameter\'s (a named schema keeps its name)', async () => {
  const doc = {
    openapi: '3.1.0', info: { title: 'T', version: '1' },
    paths: {
      '/repos/{owner}/{id}': {
        get: {
          operationId: 'getRepo',
          parameters: [
            { name: 'owner', in: 'path', required: true, description: 'The account owner of the repository.', schema: { type: 'string' } },
            { name: 'id', in: 'path', required: true, description: 'The repository id.', schema: { $ref: '#/components/schemas/RepoId' } },
          ],
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { id: { $ref: '#/components/schemas/RepoId' } } } } } } },
        },
      },
    },
    components: { schemas: { RepoId: { type: 'string', pattern: '^[a-z]+$' } } },
  };
  const [r] = generate([{ name: 'path-descriptions', doc }]);
  expect(r?.typeErrors).toEqual([]);
  expect(r?.refused.map((x) => x.kind)).not.toContain('param-doc');
  await serveAndDiff(r!, doc);
  expect(r?.differences).toEqual([]);
  expect(r?.schemaDifferences).toEqual([]);
}, 60_000);

test('a form body with nested objects, and a deepObject parameter with nested objects, are refused, and the module still serves (Stripe\'s card[number])', async () => {
  const doc = {
    openapi: '3.0.0', info: { title: 'T', version: '1' },
    paths: {
      '/v1/charges': {
        post: {
          operationId: 'postCharges',
          parameters: [{ name: 'expand', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { card: { type: 'object', properties: { brand: { type: 'string' } } } } } }],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { amount: { type: 'integer' }, card: { type: 'object', properties: { number: { type: 'string' } } } } } } } },
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
        },
      },
    },
  };
  const [r] = generate([{ name: 'nested-form', doc }]);
  expect(r?.typeErrors).toEqual([]);
  expect(r?.refused.map((x) => `${x.kind} ${x.pointer}`)).toEqual(expect.arrayContaining([
    'media-type #/paths/~1v1~1charges/post/requestBody/content/application~1x-www-form-urlencoded',
    'param-schema #/paths/~1v1~1charges/post/parameters/0',
  ]));
  await serveAndDiff(r!, doc);
  expect(r?.error).toBeUndefined();
  expect(r?.served).toBe(true);
}, 60_000);
