import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { response, route } from '../test/users-api.js';
import type { ApiDescriptor, RouteDescriptor } from './index.js';
import { OpenAPIRenderError, renderDocument, type RenderProblem } from './index.js';

const api = (routes: RouteDescriptor[], patch: Partial<ApiDescriptor> = {}): ApiDescriptor => ({
  info: { title: 't', version: '1' },
  servers: [],
  routes,
  ...patch,
});

/** Renders `descriptor` and returns the OpenAPIRenderError it throws. */
function renderError(descriptor: ApiDescriptor): OpenAPIRenderError {
  try {
    renderDocument(descriptor);
  } catch (err) {
    expect(err).toBeInstanceOf(OpenAPIRenderError);
    return err as OpenAPIRenderError;
  }
  throw new Error('expected renderDocument to throw');
}

function expectProblem(descriptor: ApiDescriptor, problem: RenderProblem, fields: Partial<OpenAPIRenderError>, message: RegExp): void {
  const err = renderError(descriptor);
  expect(err.name).toBe('OpenAPIRenderError');
  expect(err.problem).toBe(problem);
  expect(err).toMatchObject(fields);
  expect(err.message).toMatch(message);
}

const json = (c: codec.Codec<unknown>) => ({ mediaType: 'application/json', codec: c });

describe('renderDocument errors', () => {
  it('rejects two routes with one method and path', () => {
    expectProblem(
      api([route('GET', '/users/{id}'), route('POST', '/users/{id}'), route('GET', '/users/{id}')]),
      'duplicateOperation',
      { method: 'GET', path: '/users/{id}' },
      /^openapi: GET \/users\/\{id\}: two routes are declared with this method and path$/,
    );
  });

  it('treats methods case-insensitively', () => {
    expectProblem(api([route('get', '/a'), route('GET', '/a')]), 'duplicateOperation', { method: 'GET', path: '/a' }, /two routes/);
  });

  it('rejects templates that differ only in placeholder names', () => {
    expectProblem(
      api([route('GET', '/users/{id}'), route('DELETE', '/users/{userId}')]),
      'conflictingPath',
      { method: 'DELETE', path: '/users/{userId}', subject: '/users/{id}' },
      /same OpenAPI path as "\/users\/\{id\}"/,
    );
  });

  it('rejects a declared path parameter that is not in the template', () => {
    expectProblem(
      api([route('GET', '/users', { parameters: [{ in: 'path', name: 'id', required: true }] })]),
      'unknownPathParam',
      { method: 'GET', path: '/users', subject: 'id' },
      /path parameter "id" is not a placeholder/,
    );
  });

  it('rejects two parameters with one name and location (headers case-insensitively)', () => {
    expectProblem(
      api([
        route('GET', '/a', {
          parameters: [
            { in: 'header', name: 'X-Trace', required: false },
            { in: 'query', name: 'x-trace', required: false },
            { in: 'header', name: 'x-trace', required: true },
          ],
        }),
      ]),
      'duplicateParameter',
      { subject: 'x-trace' },
      /header parameter "x-trace" is declared twice/,
    );
  });

  it('rejects Accept, Content-Type and Authorization header parameters', () => {
    for (const name of ['Accept', 'content-type', 'Authorization']) {
      expectProblem(
        api([route('GET', '/a', { parameters: [{ in: 'header', name, required: false }] })]),
        'reservedHeader',
        { subject: name },
        /cannot be declared/,
      );
    }
  });

  it('rejects two responses with one status', () => {
    expectProblem(
      api([route('GET', '/a', { responses: [response('200'), response('404'), response('200', { description: 'again' })] })]),
      'duplicateResponse',
      { subject: '200' },
      /two responses are declared for status 200/,
    );
    expectProblem(api([route('GET', '/a', { responses: [response('2XX'), response('2xx')] })]), 'duplicateResponse', { subject: '2XX' }, /2XX/);
  });

  it('rejects statuses OpenAPI does not allow as response keys', () => {
    for (const status of ['600', '20', '2X', 'ok', '']) {
      expectProblem(api([route('GET', '/a', { responses: [response(status)] })]), 'invalidStatus', { subject: status }, /is not 100-599/);
    }
  });

  it('rejects methods OpenAPI 3.1 has no operation for', () => {
    expectProblem(api([route('CONNECT', '/a')]), 'invalidMethod', { subject: 'CONNECT' }, /no operation for method "CONNECT"/);
  });

  it('rejects malformed path templates', () => {
    expectProblem(api([route('GET', 'users')]), 'invalidPath', { path: 'users' }, /must start with "\/"/);
    expectProblem(api([route('GET', '/users/{id')]), 'invalidPath', {}, /unbalanced braces/);
    expectProblem(api([route('GET', '/users/id}')]), 'invalidPath', {}, /unbalanced braces/);
    expectProblem(api([route('GET', '/users/{}')]), 'invalidPath', {}, /empty "\{\}" placeholder/);
  });

  it('rejects a repeated operationId', () => {
    expectProblem(
      api([route('GET', '/a', { operationId: 'op' }), route('GET', '/b', { operationId: 'op' })]),
      'duplicateOperationId',
      { method: 'GET', path: '/b', subject: 'op' },
      /operationId "op" is already used by GET \/a/,
    );
  });

  it('rejects a response header declared twice, including Set-Cookie next to cookies', () => {
    expectProblem(
      api([
        route('GET', '/a', {
          responses: [response('200', { headers: [{ name: 'ETag', required: false }, { name: 'etag', required: true }] })],
        }),
      ]),
      'duplicateResponseHeader',
      { subject: 'etag' },
      /response 200 declares header "etag" twice/,
    );
    expectProblem(
      api([
        route('GET', '/a', {
          responses: [response('200', { headers: [{ name: 'set-cookie', required: false }], cookies: [{ name: 'sid', required: true }] })],
        }),
      ]),
      'duplicateResponseHeader',
      { subject: 'Set-Cookie' },
      /Set-Cookie/,
    );
  });

  it('rejects a response cookie declared twice', () => {
    expectProblem(
      api([route('GET', '/a', { responses: [response('200', { cookies: [{ name: 'sid', required: true }, { name: 'sid', required: false }] })] })]),
      'duplicateResponseCookie',
      { subject: 'sid' },
      /cookie "sid" twice/,
    );
  });

  it('rejects one media type twice in a body', () => {
    expectProblem(
      api([route('GET', '/a', { responses: [response('200', { content: [json(codec.string()), json(codec.int())] })] })]),
      'duplicateMediaType',
      { subject: 'application/json' },
      /media type "application\/json" is declared twice/,
    );
  });

  it('rejects security requirements that name an unknown scheme, on routes and globally', () => {
    const schemes = { bearer: { type: 'http', scheme: 'bearer' } } as const;
    expectProblem(
      api([route('GET', '/a', { security: [{ bearer: [] }, { basic: [] }] })], { securitySchemes: schemes }),
      'unknownSecurityScheme',
      { method: 'GET', path: '/a', subject: 'basic' },
      /names scheme "basic", which is not in securitySchemes/,
    );
    expectProblem(
      api([], { security: [{ apiKey: [] }] }),
      'unknownSecurityScheme',
      { method: undefined, path: undefined, subject: 'apiKey' },
      /^openapi: global security requirement names scheme "apiKey"/,
    );
  });

  it('wraps a schema name conflict with the route and keeps the cause', () => {
    const a = codec.object({ a: codec.string() }).withName('Thing');
    const b = codec.object({ b: codec.int() }).withName('Thing');
    const err = renderError(
      api([
        route('GET', '/a', { responses: [response('200', { content: [json(a)] })] }),
        route('GET', '/b', { responses: [response('200', { content: [json(b)] })] }),
      ]),
    );
    expect(err).toMatchObject({ problem: 'schema', method: 'GET', path: '/b', subject: 'Thing' });
    expect(err.cause).toBeInstanceOf(codec.SchemaNameConflictError);
    expect(err.message).toMatch(/^openapi: GET \/b: a schema failed to render: two different schemas are named "Thing"$/);
  });

  it('conflicts when a schemaName is given to two different bodies', () => {
    const err = renderError(
      api([
        route('POST', '/a', { requestBody: { required: true, content: [{ mediaType: 'application/json', codec: codec.string(), schemaName: 'Body' }] } }),
        route('POST', '/b', { requestBody: { required: true, content: [{ mediaType: 'application/json', codec: codec.int(), schemaName: 'Body' }] } }),
      ]),
    );
    expect(err).toMatchObject({ problem: 'schema', path: '/b', subject: 'Body' });
  });

  it('accepts one name on two codec instances that render the same', () => {
    const a = codec.object({ a: codec.string() }).withName('Thing');
    const b = codec.object({ a: codec.string() }).withName('Thing');
    const doc = renderDocument(
      api([
        route('GET', '/a', { responses: [response('200', { content: [json(a)] })] }),
        route('GET', '/b', { responses: [response('200', { content: [json(b)] })] }),
      ]),
    );
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['Thing']);
  });
});
