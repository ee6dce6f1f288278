import { describe, expect, test } from 'vitest';
import { diffDocuments } from '../src/index.js';

const op = (extra: object = {}): object => ({ operationId: 'getPet', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } }, ...extra });
const doc = (version: string, pet: object, opExtra: object = {}, path = '/pets/{id}'): object => ({
  openapi: version,
  info: { title: 'T', version: '1' },
  paths: { [path]: { get: op({ parameters: [{ name: path.includes('petId') ? 'petId' : 'id', in: 'path', required: true, schema: { type: 'string' } }], ...opExtra }) } },
  components: { schemas: { Pet: pet } },
});

describe('diffDocuments', () => {
  test('3.0 nullable equals a 3.1 null type; keyword order and $ref names do not matter', () => {
    const a = doc('3.0.3', { type: 'object', required: ['name', 'id'], properties: { name: { type: 'string', nullable: true }, id: { type: 'integer' } } });
    const b = {
      ...(doc('3.1.0', { $ref: '#/components/schemas/Animal' }) as Record<string, unknown>),
      components: { schemas: { Pet: { $ref: '#/components/schemas/Animal' }, Animal: { properties: { id: { type: 'integer', format: 'double-int' }, name: { type: ['string', 'null'] } }, required: ['id', 'name'], type: 'object' } } },
    };
    expect(diffDocuments(a, b)).toEqual([]);
    // strict: what @lib adds is reported.
    expect(diffDocuments(a, b, { strict: true }).map((d) => d.pointer)).toContain('paths/GET /pets/{id}/responses/200/content/application~1json/schema/properties/id/format');
  });

  test("3.0's binary string is 3.1's content of application/octet-stream", () => {
    const a = doc('3.0.3', { type: 'object', properties: { photo: { type: 'string', format: 'binary' } } });
    const b = doc('3.1.0', { type: 'object', properties: { photo: { type: 'string', contentMediaType: 'application/octet-stream' } } });
    expect(diffDocuments(a, b)).toEqual([]);
    // In 3.1, format: binary is a format like any other.
    expect(diffDocuments(doc('3.1.0', { type: 'string', format: 'binary' }), doc('3.1.0', { type: 'string', contentMediaType: 'application/octet-stream' })).length).toBeGreaterThan(0);
  });

  test('items name an array, null is the null type\'s one value, an integer enum is an integer', () => {
    const a = doc('3.1.0', { type: 'object', properties: { list: { items: { type: 'string' } }, nothing: { type: 'null' }, level: { enum: [0, 1, 2] } } });
    const b = doc('3.1.0', { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } }, nothing: { type: 'null', const: null }, level: { type: 'integer', format: 'double-int', enum: [0, 1, 2] } } });
    expect(diffDocuments(a, b)).toEqual([]);
  });

  test('changed schemas, parameters, statuses and security are reported where they are', () => {
    const a = doc('3.1.0', { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } }, { security: [{ key: [] }] });
    const b = doc('3.1.0', { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } }, { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '201': { description: 'ok' } } });
    expect(diffDocuments(a, b).map((d) => `${d.kind} ${d.pointer}`)).toEqual([
      'parameter paths/GET /pets/{id}/parameters/path:id/schema/type',
      'status paths/GET /pets/{id}/responses/200',
      'status paths/GET /pets/{id}/responses/201',
      'security paths/GET /pets/{id}/security',
      'schema components/schemas/Pet/properties/name/maxLength',
    ].map((s) => s.replace(/^parameter (.*)\/type$/, 'schema $1/type')));
  });

  test('explode matters for a list or an object parameter, not for a scalar', () => {
    const withParam = (param: object): object => ({ ...(doc('3.1.0', { type: 'string' }) as Record<string, unknown>), paths: { '/pets': { get: op({ parameters: [{ name: 'q', in: 'query', ...param }] }) } } });
    const scalar = withParam({ schema: { $ref: '#/components/schemas/Pet' } });
    expect(diffDocuments(scalar, withParam({ schema: { $ref: '#/components/schemas/Pet' }, explode: false }))).toEqual([]);
    expect(diffDocuments(withParam({ schema: { enum: ['a', 'b'] } }), withParam({ schema: { enum: ['a', 'b'] }, explode: false }))).toEqual([]);
    const list = { type: 'array', items: { type: 'string' } };
    expect(diffDocuments(withParam({ schema: list }), withParam({ schema: list, explode: false })).map((d) => d.message)).toEqual(['style or explode differs']);
    // The style still counts for a scalar: a spaceDelimited scalar is not a form one.
    expect(diffDocuments(scalar, withParam({ schema: { $ref: '#/components/schemas/Pet' }, style: 'spaceDelimited' })).map((d) => d.message)).toEqual(['style or explode differs']);
  });

  test('an operation missing on either side is one difference', () => {
    const a = doc('3.1.0', { type: 'string' });
    const b = { ...a, paths: {} };
    expect(diffDocuments(a, b).map((d) => d.kind)).toEqual(['operation-missing']);
    expect(diffDocuments(b, a).map((d) => d.kind)).toEqual(['operation-added']);
  });

  test('recursive schemas compare without looping', () => {
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } };
    expect(diffDocuments(doc('3.1.0', tree), doc('3.1.0', tree))).toEqual([]);
  });

  test('equal by meaning: a type its enum implies, several types as anyOf, a type beside oneOf said in each branch', () => {
    const a = doc('3.1.0', { type: 'object', properties: { k: { enum: [true, false] }, v: { type: ['string', 'number'] }, u: { type: 'object', oneOf: [{ required: ['x'], properties: { x: { type: 'string' } } }, { $ref: '#/components/schemas/Q' }] } } });
    const b = doc('3.1.0', { type: 'object', properties: { k: { type: 'boolean', enum: [true, false] }, v: { anyOf: [{ type: 'string' }, { type: 'number' }] }, u: { oneOf: [{ type: 'object', required: ['x'], properties: { x: { type: 'string' } } }, { $ref: '#/components/schemas/Q' }] } } });
    const withQ = (d: object): object => ({ ...d, components: { schemas: { ...(d as { components: { schemas: object } }).components.schemas, Q: { type: 'object' } } } });
    expect(diffDocuments(withQ(a), withQ(b))).toEqual([]);
    // A real difference still shows: an enum value outside the other side's type.
    const c = doc('3.1.0', { type: 'object', properties: { k: { type: 'string', enum: [true, false] } } });
    expect(diffDocuments(doc('3.1.0', { type: 'object', properties: { k: { enum: [true, false] } } }), c).map((d) => d.pointer)).toEqual(['paths/GET /pets/{id}/responses/200/content/application~1json/schema/properties/k/type', 'components/schemas/Pet/properties/k/type']);
  });

  test('response links are compared by name', () => {
    const link = (id: string): object => ({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } }, links: { self: { operationId: 'getPet', parameters: { id } } } } } });
    const pet = { type: 'string' };
    expect(diffDocuments(doc('3.1.0', pet, link('$response.body#/id')), doc('3.1.0', pet, link('$response.body#/id')))).toEqual([]);
    expect(diffDocuments(doc('3.1.0', pet, link('$response.body#/id')), doc('3.1.0', pet, link('$request.path.id'))).map((d) => `${d.kind} ${d.pointer}`)).toEqual(['link paths/GET /pets/{id}/responses/200/links/self']);
    expect(diffDocuments(doc('3.1.0', pet, link('$response.body#/id')), doc('3.1.0', pet)).map((d) => d.message)).toEqual(['link self is missing']);
  });
});
