import * as codec from '@lib/codec';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { marshalJSON, marshalYAML, renderSchemas, type SchemaSource } from './index.js';

const address = codec.object({ city: codec.string() }).withName('Address');
const user = codec.object({ name: codec.string(), address: codec.nullable(address) }).withName('User');

describe('renderSchemas / marshalYAML / marshalJSON', () => {
  it('renders codecs under their given names, adding their named sub-schemas', () => {
    const out = renderSchemas({ Person: user, Id: { type: 'string', format: 'uuid' } });
    expect(Object.keys(out)).toEqual(['Person', 'Id', 'Address']);
    expect(out['Person']).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, address: { anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] } },
      required: ['name', 'address'],
    });
    expect(out['Address']).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(out['Id']).toEqual({ type: 'string', format: 'uuid' });
  });

  it('marshals the mapping as YAML that parses back to the JSON form', () => {
    const schemas: Record<string, SchemaSource> = { User: user, Flag: codec.boolean(), Raw: { type: 'string', enum: ['1.0', 'yes', 'null'] } };
    const yaml = marshalYAML(schemas);
    expect(yaml).toBe(
      [
        'User:',
        '  type: object',
        '  properties:',
        '    name:',
        '      type: string',
        '    address:',
        '      anyOf:',
        '        - $ref: "#/components/schemas/Address"',
        '        - type: "null"',
        '  required:',
        '    - name',
        '    - address',
        'Flag:',
        '  type: boolean',
        'Raw:',
        '  type: string',
        '  enum:',
        '    - "1.0"',
        '    - "yes"',
        '    - "null"',
        'Address:',
        '  type: object',
        '  properties:',
        '    city:',
        '      type: string',
        '  required:',
        '    - city',
        '',
      ].join('\n'),
    );
    expect(parse(yaml)).toEqual(JSON.parse(marshalJSON(schemas)));
    expect(marshalJSON(schemas).endsWith('}\n')).toBe(true);
  });

  it('marshals an empty mapping', () => {
    expect(marshalYAML({})).toBe('{}\n');
    expect(marshalJSON({})).toBe('{}\n');
  });

  it('throws SchemaNameConflictError when a given schema and a named sub-codec share a name', () => {
    expect(() => renderSchemas({ User: user, Address: { type: 'string' } })).toThrow(codec.SchemaNameConflictError);
    // The same schema under the same name is fine.
    expect(renderSchemas({ User: user, Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })).toHaveProperty('Address');
  });

  it('does not share the given JSON Schemas with the output', () => {
    const given = { type: 'object', properties: { a: { type: 'string' } } } as const;
    const out = renderSchemas({ A: given });
    expect(out['A']).toEqual(given);
    expect(out['A']).not.toBe(given);
  });
});
