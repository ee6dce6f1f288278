import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { response, route } from '../test/users-api.js';
import { renderDocument } from './index.js';
import type { HeaderObject, OpenAPIObject, ParameterObject, ResponseObject } from './index.js';

const userId = codec.string().withDescription('The user id, a UUID.');
const named = codec.intString().withName('Limit').withDescription('A page size.');

function doc(): OpenAPIObject {
  return renderDocument({
    info: { title: 't', version: '1' },
    servers: [],
    routes: [
      route('GET', '/users/{id}', {
        parameters: [
          { in: 'path', name: 'id', required: true, codec: userId },
          { in: 'query', name: 'q', required: false, description: 'What to look for.', codec: codec.string().withDescription('What to look for.') },
          { in: 'query', name: 'sort', required: false, description: 'The order.', codec: codec.string().withDescription('A field name.') },
          { in: 'query', name: 'limit', required: false, codec: named },
          { in: 'header', name: 'X-Trace', required: false, codec: codec.optional(codec.string().withDescription('A trace id.')) },
        ],
        responses: [
          response('200', {
            headers: [
              { name: 'X-Rate', required: true, codec: codec.intString().withDescription('Requests left.') },
              { name: 'X-Own', required: false, description: 'Own words.', codec: codec.string().withDescription('Own words.') },
            ],
            cookies: [{ name: 'sid', required: true, codec: codec.string().withDescription('The session.') }],
          }),
        ],
      }),
    ],
  }).toJSON();
}

describe('parameter and header descriptions (OpenAPI 3.1 §4.8.12.2, §4.8.21)', () => {
  const d = doc();
  const op = d.paths['/users/{id}']?.get;
  const param = (name: string): ParameterObject => op?.parameters?.find((p) => (p as ParameterObject).name === name) as ParameterObject;
  const header = (name: string): HeaderObject => (op?.responses?.['200'] as ResponseObject | undefined)?.headers?.[name] as HeaderObject;

  it("puts a codec's description on the parameter, not in its schema", () => {
    expect(param('id')).toEqual({ name: 'id', in: 'path', description: 'The user id, a UUID.', required: true, schema: { type: 'string' } });
    expect(param('X-Trace')).toEqual({ name: 'X-Trace', in: 'header', description: 'A trace id.', schema: { type: 'string' } });
  });

  it('does not repeat the same text in the schema; the parameter-level text wins, other schema text stays', () => {
    expect(param('q')).toEqual({ name: 'q', in: 'query', description: 'What to look for.', schema: { type: 'string' } });
    expect(param('sort')).toEqual({ name: 'sort', in: 'query', description: 'The order.', schema: { type: 'string', description: 'A field name.' } });
  });

  it("takes a named codec's description for the parameter and leaves its definition alone", () => {
    expect(param('limit')).toEqual({ name: 'limit', in: 'query', description: 'A page size.', schema: { $ref: '#/components/schemas/Limit' } });
    expect(d.components?.schemas?.['Limit']).toEqual({ type: 'integer', format: 'double-int', description: 'A page size.' });
  });

  it('does the same for response headers and the cookies of Set-Cookie', () => {
    expect(header('X-Rate')).toEqual({ description: 'Requests left.', required: true, schema: { type: 'integer', format: 'double-int' } });
    expect(header('X-Own')).toEqual({ description: 'Own words.', schema: { type: 'string' } });
    expect(header('Set-Cookie')).toMatchObject({
      description: 'Sets the cookie `sid`: The session.',
      'x-cookies': { sid: { description: 'The session.', required: true, schema: { type: 'string' } } },
    });
  });
});

describe('parameter styles (OpenAPI 3.1 §4.8.12.4)', () => {
  it('writes style and explode as the descriptor gives them, before the schema', () => {
    const d = renderDocument({
      info: { title: 't', version: '1' },
      servers: [],
      routes: [
        route('GET', '/items/{ids}', {
          parameters: [
            { in: 'path', name: 'ids', required: true, style: 'label', explode: true, codec: codec.array(codec.intString()) },
            { in: 'query', name: 'f', required: false, style: 'deepObject', explode: true, codec: codec.object({ a: codec.string() }) },
            { in: 'header', name: 'X-Ids', required: false, codec: codec.array(codec.intString()) },
          ],
          responses: [response('200', {})],
        }),
      ],
    }).toJSON();
    const params = d.paths['/items/{ids}']?.get?.parameters as ParameterObject[];
    expect(params[0]).toEqual({ name: 'ids', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'integer', format: 'double-int' } } });
    expect(Object.keys(params[1] as object)).toEqual(['name', 'in', 'style', 'explode', 'schema']);
    expect(params[2]).not.toHaveProperty('style');
    expect(params[2]).not.toHaveProperty('explode');
  });
});
