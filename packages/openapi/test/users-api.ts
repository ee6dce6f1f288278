import * as codec from '@lib/codec';
import type { JsonSchema } from '@lib/codec';
import { reasonPhrase, type ApiDescriptor, type MediaTypeDescriptor, type ResponseDescriptor, type RouteDescriptor } from '../src/index.js';

/*
 * A realistic API descriptor built from real codecs, as `@lib/rest` would produce it: the
 * fixture of the renderer tests. Constraints are written by hand (this package does not
 * depend on `@lib/validate`); they reflect the same JSON Schema keywords.
 */

function constraint<T>(name: string, test: (v: T) => boolean, schema: JsonSchema): codec.Constraint<T> {
  return { name, test, message: () => `violates ${name}`, schema };
}
export const uuid: codec.Constraint<string> = constraint('uuid', (v) => /^[0-9a-f-]{36}$/i.test(v), { format: 'uuid' });
export function minLength(n: number): codec.Constraint<string> {
  return constraint('minLength', (v) => v.length >= n, { minLength: n });
}
export function min(n: number): codec.Constraint<number> {
  return constraint('min', (v) => v >= n, { minimum: n });
}
export function max(n: number): codec.Constraint<number> {
  return constraint('max', (v) => v <= n, { maximum: n });
}

const addressCodec = codec.object({ street: codec.string(), city: codec.string() }).withName('Address');

export const userCodec: codec.Codec<unknown> = codec
  .object({
    id: codec.string().refine(uuid),
    name: codec.string().refine(minLength(1)),
    age: codec.optional(codec.int().refine(min(0))),
    nickname: codec.nullable(codec.string()),
    address: codec.nullable(addressCodec),
    roles: codec.array(codec.literal('admin')),
    createdAt: codec.time(),
  })
  .withName('User');

const userListCodec = codec.object({ items: codec.array(userCodec), next: codec.nullable(codec.string()) });
const createUserCodec = codec.object({ name: codec.string().refine(minLength(1)), age: codec.optional(codec.int()) });
const errorCodec = codec.object({ error: codec.string() }).withName('Error');
const notFoundCodec = codec.object({ error: codec.string(), id: codec.string() });
export const paymentCodec: codec.Codec<unknown> = codec.taggedUnion('type', {
  card: codec.object({ last4: codec.string() }).withName('CardPayment'),
  bank: codec.object({ iban: codec.string() }).withName('BankPayment'),
});
const loginCodec = codec.object({ username: codec.string(), password: codec.string() });

/** A category tree: a recursive codec, named. */
interface Category {
  name: string;
  children: Category[];
}
const categoryCodec: codec.Codec<Category> = codec
  .object({ name: codec.string(), children: codec.array(codec.lazy(() => categoryCodec)) })
  .withName('Category');

function json(c: codec.Codec<unknown>, schemaName?: string): MediaTypeDescriptor {
  return schemaName === undefined ? { mediaType: 'application/json', codec: c } : { mediaType: 'application/json', codec: c, schemaName };
}

/** A response with defaults for the fields a test does not care about (its description: the status's reason phrase, as `@lib/rest` gives it). */
export function response(status: string, patch: Partial<ResponseDescriptor> = {}): ResponseDescriptor {
  return { status, description: reasonPhrase(status), content: [], headers: [], cookies: [], ...patch };
}

/** A route with defaults for the fields a test does not care about. */
export function route(method: string, path: string, patch: Partial<RouteDescriptor> = {}): RouteDescriptor {
  return { method, path, parameters: [], responses: [response(method === 'POST' ? '201' : '200')], ...patch };
}

const badRequest = response('400', { description: 'Invalid request', content: [json(errorCodec)] });

export const usersApi: ApiDescriptor = {
  info: { title: 'Users', version: '1.0', description: 'Manages users.\nSecond line.' },
  servers: [
    { name: 'production', url: 'https://api.example.com/v1' },
    { name: 'staging', url: 'https://staging.example.com/v1' },
  ],
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    apiKey: { type: 'apiKey', name: 'X-API-Key', in: 'header', description: 'Partner key' },
    oauth: {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { 'users:write': 'Change users' } } },
    },
  },
  security: [{ apiKey: [] }],
  routes: [
    route('GET', '/users', {
      operationId: 'listUsers',
      summary: 'List users',
      tags: ['users'],
      parameters: [
        { in: 'query', name: 'limit', required: false, description: 'Page size', codec: codec.intString().refine(min(1), max(100)) },
        { in: 'query', name: 'cursor', required: false },
        { in: 'header', name: 'X-Request-Id', required: false, codec: codec.string().refine(uuid) },
      ],
      responses: [
        response('200', {
          description: 'A page of users',
          content: [json(userListCodec)],
          headers: [{ name: 'X-Total-Count', required: true, description: 'Number of users', codec: codec.intString().refine(min(0)) }],
        }),
        badRequest,
      ],
    }),
    route('POST', '/users', {
      operationId: 'createUser',
      tags: ['users', 'admin'],
      requestBody: {
        required: true,
        content: [json(createUserCodec, 'CreateUserRequest'), { mediaType: 'application/yaml', codec: createUserCodec, schemaName: 'CreateUserRequest' }],
      },
      responses: [
        response('201', {
          description: 'Created',
          content: [json(userCodec)],
          headers: [{ name: 'Location', required: true, codec: codec.string() }],
        }),
        response('409', { description: 'Already exists', content: [json(errorCodec)] }),
        badRequest,
      ],
      security: [{ bearer: [] }, { oauth: ['users:write'] }],
    }),
    // DELETE before GET: the path item still lists `get` first; `{id}` is not declared here.
    route('DELETE', '/users/{id}', {
      operationId: 'deleteUser',
      deprecated: true,
      responses: [response('204', { content: [{ mediaType: 'application/json', codec: codec.empty() }] })],
    }),
    route('GET', '/users/{id}', {
      operationId: 'getUser',
      parameters: [{ in: 'path', name: 'id', required: true, description: 'The user id', codec: codec.string().refine(uuid) }],
      responses: [response('200', { content: [json(userCodec)] }), response('404', { description: 'No such user', content: [json(notFoundCodec)] })],
    }),
    route('GET', '/users/{id}/avatar', {
      operationId: 'getAvatar',
      parameters: [{ in: 'path', name: 'id', required: true, codec: codec.string().refine(uuid) }],
      responses: [
        response('200', {
          content: [{ mediaType: 'image/png', codec: codec.bytes(), schema: { type: 'string', contentMediaType: 'image/png' } }],
        }),
      ],
    }),
    route('POST', '/login', {
      operationId: 'login',
      requestBody: { required: true, content: [json(loginCodec)] },
      responses: [
        response('200', {
          content: [],
          cookies: [
            { name: 'session', required: true, description: 'The session token' },
            { name: 'theme.v2', required: false, codec: codec.intString() },
          ],
        }),
      ],
      security: [],
    }),
    route('GET', '/me', {
      operationId: 'me',
      parameters: [{ in: 'cookie', name: 'session', required: true, codec: codec.string().refine(minLength(16)) }],
      responses: [response('200', { content: [json(userCodec, 'Me')] })],
    }),
    route('POST', '/payments', {
      operationId: 'pay',
      requestBody: { required: true, content: [json(paymentCodec)] },
      responses: [response('202', { description: 'Accepted for processing' }), response('default', { content: [json(errorCodec)] })],
    }),
    route('GET', '/categories', {
      operationId: 'listCategories',
      responses: [response('200', { content: [json(codec.array(categoryCodec))] }), response('5XX', { content: [json(errorCodec)] })],
    }),
    route('GET', '/health', { operationId: 'health', security: [], responses: [response('200', { description: 'yes' })] }),
  ],
};
