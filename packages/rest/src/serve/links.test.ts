import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';

const user = codec.object({ id: codec.string(), email: codec.string() });
const getUser = rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: codec.string() }, response: user, meta: { operationId: 'getUser' } });

describe('links (OpenAPI 3.1 §4.8.20)', () => {
  it('documents a route’s links on its main success response, as declared', () => {
    const createUser = rest.route({
      method: 'POST',
      path: '/users',
      body: user.omit('id'),
      response: user,
      meta: { operationId: 'createUser' },
      links: { getUser: { operationId: 'getUser', parameters: { id: '$response.body#/id' }, description: 'The user just created.' } },
    });
    const api = rest.newServer({ title: 't', version: '1' });
    createUser.withHandler((_ctx, req) => ({ id: '1', ...req })).register(api);
    getUser.withHandler((_ctx, req) => ({ id: req.id, email: 'a@example.com' })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { links?: unknown }> }>> };
    expect(doc.paths['/users']?.['post']?.responses['201']?.links).toEqual({ getUser: { operationId: 'getUser', parameters: { id: '$response.body#/id' }, description: 'The user just created.' } });
    expect(doc.paths['/users']?.['post']?.responses['400']?.links).toBeUndefined();
    expect(doc.paths['/users/{id}']?.['get']?.responses['200']?.links).toBeUndefined();
  });

  it('refuses, when writing the document, a link to no documented operation or a value that is no runtime expression', () => {
    const to = (operationId: string, id: string) =>
      rest.route({ method: 'GET', path: '/a', response: user, meta: { operationId: 'a' }, links: { next: { operationId, parameters: { id } } } }).withHandler(() => ({ id: '1', email: 'e' }));
    const serve = (r: ReturnType<typeof to>) => {
      const api = rest.newServer({ title: 't', version: '1' });
      r.register(api);
      getUser.withHandler(() => ({ id: '1', email: 'e' })).register(api);
      return () => api.openAPISpec();
    };
    expect(serve(to('getUsr', '$response.body#/id'))).toThrow(/link "next" names operation "getUsr", which no documented route has/);
    expect(serve(to('getUser', '$response.bodyy'))).toThrow(/is not a runtime expression/);
    expect(serve(to('getUser', '$request.path.id'))).not.toThrow();
    expect(serve(to('getUser', 'a-constant'))).not.toThrow();
  });
});
