import * as codec from '@lib/codec';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { max, min, paymentCodec, response, route, userCodec, usersApi } from '../test/users-api.js';
import { discriminatorProblems } from '../test/discriminator.js';
import {
  Document,
  renderDocument,
  SCHEMA_REF_PREFIX,
  type OpenAPIObject,
  type OperationObject,
  type RequestBodyObject,
  type ResponseObject,
} from './index.js';

/** Every `$ref` in a JSON value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

/** Every key named `key` anywhere in a JSON value. */
function hasKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasKey(v, key));
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k === key || hasKey(v, key));
  return false;
}

async function validate(doc: Document): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(doc.marshalJSON()) as Record<string, unknown>);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
  // Every local `$ref` resolves (resolveRefs throws on a dangling one).
  expect(() => validator.resolveRefs()).not.toThrow();
}

describe('renderDocument: a realistic API', () => {
  const doc = renderDocument(usersApi);
  const json = JSON.parse(doc.marshalJSON()) as OpenAPIObject;
  const op = (path: string, method: 'get' | 'post' | 'delete'): OperationObject => json.paths[path]?.[method] as OperationObject;
  const res = (path: string, method: 'get' | 'post' | 'delete', status: string): ResponseObject =>
    op(path, method).responses?.[status] as ResponseObject;

  it('is a valid OpenAPI 3.1 document (official schema) whose $refs all resolve', async () => {
    await validate(doc);
    const schemas = json.components?.schemas ?? {};
    for (const ref of refs(json)) {
      expect(ref.startsWith('#/components/schemas/')).toBe(true);
      expect(schemas).toHaveProperty([decodeURIComponent(ref.slice('#/components/schemas/'.length))]);
    }
  });

  it('is checked by a validator that does reject broken documents (control)', async () => {
    const broken = JSON.parse(doc.marshalJSON()) as OpenAPIObject;
    delete (broken.paths['/users']?.get?.responses?.['200'] as Partial<ResponseObject>).description;
    const result = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(result.valid).toBe(false);
  });

  it('emits the top-level fields in a stable order', () => {
    expect(Object.keys(json)).toEqual(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
    expect(doc).toBeInstanceOf(Document);
    expect(json.openapi).toBe('3.1.0');
    expect(json.info).toEqual({ title: 'Users', description: 'Manages users.\nSecond line.', version: '1.0' });
    expect(json.servers).toEqual([
      { url: 'https://api.example.com/v1', description: 'production' },
      { url: 'https://staging.example.com/v1', description: 'staging' },
    ]);
    expect(json.security).toEqual([{ apiKey: [] }]);
    expect(json.tags).toEqual([{ name: 'users' }, { name: 'admin' }]);
  });

  it('keys path items by template in declaration order and operations in OpenAPI method order', () => {
    expect(Object.keys(json.paths)).toEqual(['/users', '/users/{id}', '/users/{id}/avatar', '/login', '/me', '/payments', '/categories', '/health']);
    expect(Object.keys(json.paths['/users'] ?? {})).toEqual(['get', 'post']);
    // DELETE was declared before GET.
    expect(Object.keys(json.paths['/users/{id}'] ?? {})).toEqual(['get', 'delete']);
  });

  it('emits operation fields in OpenAPI order and leaves empty ones out', () => {
    expect(Object.keys(op('/users', 'get'))).toEqual(['tags', 'summary', 'operationId', 'parameters', 'responses']);
    expect(Object.keys(op('/users', 'post'))).toEqual(['tags', 'operationId', 'requestBody', 'responses', 'security']);
    expect(op('/health', 'get')).not.toHaveProperty('parameters');
    expect(op('/health', 'get')).not.toHaveProperty('requestBody');
    expect(op('/users/{id}', 'delete').deprecated).toBe(true);
  });

  it('renders parameters with parameterSchema: intString as integer with its constraints', () => {
    expect(op('/users', 'get').parameters).toEqual([
      { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer', format: 'double-int', minimum: 1, maximum: 100 } },
      { name: 'cursor', in: 'query', schema: { type: 'string' } },
      { name: 'X-Request-Id', in: 'header', schema: { type: 'string', format: 'uuid' } },
    ]);
    expect(op('/users/{id}', 'get').parameters).toEqual([
      { name: 'id', in: 'path', description: 'The user id', required: true, schema: { type: 'string', format: 'uuid' } },
    ]);
    expect(op('/me', 'get').parameters).toEqual([{ name: 'session', in: 'cookie', required: true, schema: { type: 'string', minLength: 16 } }]);
  });

  it('declares a path placeholder that has no parameter as a required string', () => {
    expect(op('/users/{id}', 'delete').parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('renders request bodies per media type, with schemaName as a component $ref', () => {
    expect(op('/users', 'post').requestBody).toEqual({
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/CreateUserRequest' } },
        'application/yaml': { schema: { $ref: '#/components/schemas/CreateUserRequest' } },
      },
      required: true,
    });
    expect(json.components?.schemas?.['CreateUserRequest']).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, age: codec.int().schema },
      required: ['name'],
    });
    // Unnamed body codecs stay inline.
    expect(op('/login', 'post').requestBody).toEqual({
      content: {
        'application/json': {
          schema: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } }, required: ['username', 'password'] },
        },
      },
      required: true,
    });
  });

  it('turns named codecs into components.schemas, sorted, referenced by $ref', () => {
    expect(Object.keys(json.components?.schemas ?? {})).toEqual(['Address', 'BankPayment', 'BankPaymentVariant', 'CardPayment', 'CardPaymentVariant', 'Category', 'CreateUserRequest', 'Error', 'Me', 'User']);
    expect(res('/users/{id}', 'get', '200').content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/User' } } });
    expect(res('/users', 'get', '200').content?.['application/json']?.schema).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/User' } }, next: { type: ['string', 'null'] } },
      required: ['items', 'next'],
    });
  });

  it('lets schemaName win over the codec name for that body', () => {
    expect(res('/me', 'get', '200').content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Me' } } });
    expect(json.components?.schemas?.['Me']).toEqual(json.components?.schemas?.['User']);
  });

  it('renders nullable in the 3.1 form, never nullable: true', () => {
    const user = json.components?.schemas?.['User'];
    expect(user?.properties?.['nickname']).toEqual({ type: ['string', 'null'] });
    expect(user?.properties?.['address']).toEqual({ anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] });
    expect(user?.required).toEqual(['id', 'name', 'nickname', 'address', 'roles', 'createdAt']);
    expect(user?.properties?.['age']).toEqual(codec.int().refine(min(0)).schema);
    expect(user?.properties?.['age']).toMatchObject({ type: 'integer', format: 'double-int', minimum: 0 });
    expect(hasKey(json, 'nullable')).toBe(false);
  });

  it('renders tagged unions with a discriminator whose mapping names tagged definitions of the $ref variants', () => {
    const body = op('/payments', 'post').requestBody as RequestBodyObject;
    expect(body.required).toBe(true);
    const schema = body.content['application/json']?.schema;
    // Exactly what @lib/codec renders under the document's generator options …
    expect(schema).toEqual(new codec.SchemaGenerator({ refPrefix: SCHEMA_REF_PREFIX, refNamed: true }).schema(paymentCodec));
    // … which references each named variant through a definition carrying the tag.
    expect(schema?.discriminator).toEqual({
      propertyName: 'type',
      mapping: { card: '#/components/schemas/CardPaymentVariant', bank: '#/components/schemas/BankPaymentVariant' },
    });
    expect(schema?.oneOf).toEqual([{ $ref: '#/components/schemas/CardPaymentVariant' }, { $ref: '#/components/schemas/BankPaymentVariant' }]);
    expect(json.components?.schemas?.['CardPaymentVariant']).toEqual({
      allOf: [
        { $ref: '#/components/schemas/CardPayment' },
        { type: 'object', properties: { type: { type: 'string', const: 'card' } }, required: ['type'] },
      ],
    });
    // The variant itself stays what it is when sent alone: no tag.
    expect(json.components?.schemas?.['CardPayment']).toEqual({ type: 'object', properties: { last4: { type: 'string' } }, required: ['last4'] });
  });

  it('maps every discriminator value to a schema that requires the tag with that value (OpenAPI 3.1 §4.8.25)', () => {
    const problems = discriminatorProblems(json as unknown as Record<string, unknown>);
    expect(problems).toEqual([]);
  });

  it('renders a recursive codec as one component that references itself', () => {
    expect(res('/categories', 'get', '200').content?.['application/json']?.schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Category' },
    });
    expect(json.components?.schemas?.['Category']).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Category' } } },
      required: ['name', 'children'],
    });
  });

  it('uses an explicit media-type schema as given (binary bodies)', () => {
    expect(res('/users/{id}/avatar', 'get', '200')).toEqual({
      description: 'OK',
      content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
    });
  });

  it('keys responses by status in ascending order', () => {
    expect(Object.keys(op('/users', 'post').responses ?? {})).toEqual(['201', '400', '409']);
    expect(Object.keys(op('/payments', 'post').responses ?? {})).toEqual(['202', 'default']);
    expect(Object.keys(op('/categories', 'get').responses ?? {})).toEqual(['200', '5XX']);
    expect(res('/users/{id}', 'get', '200').description).toBe('OK');
    expect(res('/payments', 'post', 'default').description).toBe('Default response');
    expect(res('/categories', 'get', '5XX').description).toBe('Server Error');
    expect(res('/payments', 'post', '202')).toEqual({ description: 'Accepted for processing' });
  });

  it('renders error responses with their bodies', () => {
    expect(res('/users', 'post', '409')).toEqual({
      description: 'Already exists',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(res('/users/{id}', 'get', '404')).toEqual({
      description: 'No such user',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { error: { type: 'string' }, id: { type: 'string' } }, required: ['error', 'id'] },
        },
      },
    });
    expect(json.components?.schemas?.['Error']).toEqual({ type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
  });

  it('leaves out the content of a body-less (empty codec) response', () => {
    expect(res('/users/{id}', 'delete', '204')).toEqual({ description: 'No Content' });
  });

  it('renders response headers with parameterSchema, required and description', () => {
    expect(res('/users', 'get', '200').headers).toEqual({
      'X-Total-Count': { description: 'Number of users', required: true, schema: { type: 'integer', format: 'double-int', minimum: 0 } },
    });
    expect(res('/users', 'post', '201').headers).toEqual({ Location: { required: true, schema: { type: 'string' } } });
    expect(Object.keys(res('/users', 'get', '200'))).toEqual(['description', 'headers', 'content']);
  });

  it('renders response cookies as one Set-Cookie header that describes each cookie', () => {
    const setCookie = res('/login', 'post', '200').headers?.['Set-Cookie'];
    expect(setCookie).toEqual({
      description: 'Sets these cookies, one `Set-Cookie` header each:\n\n- `session` (required): The session token\n- `theme.v2` (optional)',
      required: true,
      schema: { type: 'string', pattern: '^(?:session|theme\\.v2)=' },
      'x-cookies': {
        session: { description: 'The session token', required: true, schema: { type: 'string' } },
        'theme.v2': { required: false, schema: { type: 'integer', format: 'double-int' } },
      },
    });
    expect(res('/login', 'post', '200')).not.toHaveProperty('content');
  });

  it('renders a single response cookie with its own sentence', () => {
    const doc1 = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [route('GET', '/a', { responses: [response('200', { cookies: [{ name: 'sid', required: false }] })] })],
    });
    const header = (doc1.paths['/a']?.get?.responses?.['200'] as ResponseObject).headers?.['Set-Cookie'];
    expect(header).toEqual({
      description: 'Sets the cookie `sid`.',
      schema: { type: 'string', pattern: '^sid=' },
      'x-cookies': { sid: { required: false, schema: { type: 'string' } } },
    });
  });

  it('renders operation security, global security and security schemes', () => {
    expect(op('/users', 'post').security).toEqual([{ bearer: [] }, { oauth: ['users:write'] }]);
    expect(op('/health', 'get').security).toEqual([]);
    expect(op('/users', 'get')).not.toHaveProperty('security');
    expect(json.components?.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      apiKey: { type: 'apiKey', description: 'Partner key', name: 'X-API-Key', in: 'header' },
      oauth: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { 'users:write': 'Change users' } } },
      },
    });
  });

  it('round-trips through YAML to the same JSON', () => {
    const yaml = doc.marshalYAML();
    expect(parse(yaml)).toEqual(JSON.parse(doc.marshalJSON()));
    // Also under YAML 1.1 rules (older tools read `yes` or `1.0` differently).
    expect(parse(yaml, { version: '1.1' })).toEqual(JSON.parse(doc.marshalJSON()));
    expect(yaml).toContain("version: \"1.0\"");
    expect(yaml).toContain('"200":');
    expect(yaml).toContain('description: "yes"');
    expect(yaml).not.toMatch(/[&*]a\d/); // no anchors or aliases
  });

  it('does not depend on route order for components and is deterministic', () => {
    const again = renderDocument({ ...usersApi, routes: [...usersApi.routes].reverse() });
    expect(again.components).toEqual(doc.components);
    expect(renderDocument(usersApi).marshalYAML()).toBe(doc.marshalYAML());
  });
});

describe('renderDocument: minimal documents', () => {
  it('renders an API without routes: empty paths, the default server stated, no components', async () => {
    const doc = renderDocument({ info: { title: 'Empty', version: '0.1.0' }, servers: [], routes: [] });
    expect(doc.toJSON()).toEqual({ openapi: '3.1.0', info: { title: 'Empty', version: '0.1.0' }, servers: [{ url: '/' }], paths: {} });
    expect(doc.marshalJSON()).toBe(`${JSON.stringify({ openapi: '3.1.0', info: { title: 'Empty', version: '0.1.0' }, servers: [{ url: '/' }], paths: {} }, null, 2)}\n`);
    await validate(doc);
  });

  it('renders a route with unnamed codecs without components, and empty global security not at all', async () => {
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [{ name: '', url: '/' }],
      security: [],
      routes: [
        route('GET', '/items/{a}/{b}', {
          parameters: [{ in: 'path', name: 'b', required: true, codec: codec.intString().refine(min(1)) }],
          responses: [response('200', { content: [{ mediaType: 'application/json', codec: codec.array(codec.string()) }] })],
        }),
      ],
    });
    expect(doc.components).toBeUndefined();
    expect(doc.security).toBeUndefined();
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(doc.paths['/items/{a}/{b}']?.get?.parameters).toEqual([
      { name: 'a', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'b', in: 'path', required: true, schema: { type: 'integer', format: 'double-int', minimum: 1 } },
    ]);
    await validate(doc);
  });

  it('omits a request body whose only content is the empty codec', () => {
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [route('POST', '/ping', { requestBody: { required: true, content: [{ mediaType: 'application/json', codec: codec.empty() }] } })],
    });
    expect(doc.paths['/ping']?.post).toEqual({ responses: { '201': { description: 'Created' } }, security: [] });
  });

  it('renders a response description as given, an empty one too (OpenAPI 3.1 §4.8.17.1 requires the field, not text in it)', async () => {
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [route('POST', '/ping', { responses: [response('200', { description: '' }), response('404', { description: 'Gone' })] })],
    });
    expect(doc.paths['/ping']?.post?.responses).toEqual({ '200': { description: '' }, '404': { description: 'Gone' } });
    await validate(doc);
  });

  it('renders an unnamed schemaName body and a named codec used in two roles once', () => {
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [
        route('PUT', '/users/{id}', {
          requestBody: { required: true, content: [{ mediaType: 'application/json', codec: userCodec }] },
          responses: [response('200', { content: [{ mediaType: 'application/json', codec: userCodec }] })],
        }),
        route('PATCH', '/users/{id}', {
          requestBody: {
            required: false,
            description: 'Fields to change',
            content: [{ mediaType: 'application/json', codec: codec.record(codec.string()), schemaName: 'UserPatch' }],
          },
        }),
      ],
    });
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['Address', 'User', 'UserPatch']);
    expect(doc.paths['/users/{id}']?.patch?.requestBody).toEqual({
      description: 'Fields to change',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UserPatch' } } },
    });
    expect(doc.components?.schemas?.['UserPatch']).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('renders an intString response header and a parameter without description or codec', () => {
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [
        route('HEAD', '/files', {
          parameters: [{ in: 'query', name: 'q', required: true, deprecated: true }],
          responses: [response('200', { headers: [{ name: 'Content-Length', required: false, codec: codec.intString().refine(max(10)) }] })],
        }),
      ],
    });
    expect(doc.paths['/files']?.head).toEqual({
      parameters: [{ name: 'q', in: 'query', required: true, deprecated: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'OK', headers: { 'Content-Length': { schema: { type: 'integer', format: 'double-int', maximum: 10 } } } } },
      security: [],
    });
  });

  it('states a route without security as public (`security: []`) unless a global requirement applies', () => {
    const routes = [route('GET', '/open', {}), route('GET', '/closed', { security: [{ key: [] }] })];
    const securitySchemes = { key: { type: 'apiKey', name: 'X-Key', in: 'header' } } as const;
    const bare = renderDocument({ info: { title: 't', version: '1' }, servers: [], routes, securitySchemes });
    expect(bare.paths['/open']?.get?.security).toEqual([]);
    expect(bare.paths['/closed']?.get?.security).toEqual([{ key: [] }]);
    const global = renderDocument({ info: { title: 't', version: '1' }, servers: [], routes, securitySchemes, security: [{ key: [] }] });
    expect(global.paths['/open']?.get).not.toHaveProperty('security');
    expect(global.security).toEqual([{ key: [] }]);
  });

  it('renders a named recursive codec (codec.lazy) as one self-referencing component', async () => {
    interface Node {
      value: number;
      next: Node | null;
    }
    const node: codec.Codec<Node> = codec.object({ value: codec.int(), next: codec.nullable(codec.lazy(() => node)) }).withName('Node');
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [route('GET', '/list', { responses: [response('200', { content: [{ mediaType: 'application/json', codec: node }] })] })],
    });
    expect(doc.paths['/list']?.get?.responses?.['200']).toEqual({
      description: 'OK',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
    });
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['Node']);
    expect(refs(doc.components?.schemas?.['Node'])).toEqual(['#/components/schemas/Node']);
    await validate(doc);
  });

  it('gives an unnamed recursive codec a generated component name', async () => {
    interface Tree {
      children: Tree[];
    }
    const tree: codec.Codec<Tree> = codec.object({ children: codec.array(codec.lazy(() => tree)) });
    const doc = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [route('POST', '/trees', { requestBody: { required: true, content: [{ mediaType: 'application/json', codec: tree }] } })],
    });
    const names = Object.keys(doc.components?.schemas ?? {});
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^Recursive\d+$/);
    expect(refs(doc.toJSON())).toContain(`#/components/schemas/${names[0] as string}`);
    await validate(doc);
  });
});
