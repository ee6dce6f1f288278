import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Document, type OpenAPIObject } from './index.js';

const tricky: OpenAPIObject = {
  openapi: '3.1.0',
  info: { title: 'null', description: 'line one\nline two: with colon\n  indented # not a comment', version: '1.0' },
  servers: [{ url: 'https://example.com/{v}', description: 'yes', variables: { v: { default: '1e3', enum: ['1e3', '0x1F', 'on'] } } }],
  paths: {
    '/a/{id}': {
      get: {
        operationId: '123',
        summary: 'true',
        description: '',
        responses: {
          '200': { description: '~' },
          '2XX': { description: '- item' },
          default: { description: "it's \"quoted\"" },
        },
      },
    },
  },
  components: { schemas: { Z: { type: 'string', pattern: '^-?(?:0|[1-9][0-9]*)$', examples: ['2024-01-01', '12:30', 'NO'] } } },
};

describe('Document', () => {
  it('holds the OpenAPI fields as properties and serialises them in a fixed key order', () => {
    const doc = new Document({ paths: {}, openapi: '3.1.0', components: { schemas: {} }, tags: [{ name: 't' }], info: { title: 't', version: '1' } });
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.toJSON())).toEqual(['openapi', 'info', 'tags', 'paths', 'components']);
    expect(Object.keys(JSON.parse(JSON.stringify(doc)) as object)).toEqual(['openapi', 'info', 'tags', 'paths', 'components']);
    expect(doc.toJSON()).not.toHaveProperty('servers');
  });

  it('marshals JSON pretty-printed with a trailing newline', () => {
    const doc = new Document({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
    expect(doc.marshalJSON()).toBe(`${JSON.stringify(doc.toJSON(), null, 2)}\n`);
  });

  it('marshals YAML that parses back to the same JSON, under YAML 1.2 and 1.1', () => {
    const doc = new Document(tricky);
    const yaml = doc.marshalYAML();
    const expected = JSON.parse(doc.marshalJSON()) as unknown;
    expect(parse(yaml)).toEqual(expected);
    expect(parse(yaml, { version: '1.1' })).toEqual(expected);
    expect(yaml.endsWith('\n')).toBe(true);
    expect(yaml).toContain('version: "1.0"');
    expect(yaml).toContain('"200":');
    expect(yaml).toContain('operationId: "123"');
  });

  it('does not fold long lines and writes repeated objects out in full', () => {
    const shared = { type: 'string', description: 'x'.repeat(200) } as const;
    const doc = new Document({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { A: { ...shared }, B: shared, C: shared } },
    });
    const yaml = doc.marshalYAML();
    expect(yaml).toContain(`description: ${'x'.repeat(200)}\n`);
    expect(yaml).not.toMatch(/[&*]a\d/);
    expect(yaml.match(/x{200}/g)).toHaveLength(3);
  });

  it('reflects edits made to its properties', () => {
    const doc = new Document({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
    doc.servers = [{ url: 'https://x.example' }];
    doc.info.summary = 'edited';
    expect(parse(doc.marshalYAML())).toEqual({
      openapi: '3.1.0',
      info: { title: 't', summary: 'edited', version: '1' },
      servers: [{ url: 'https://x.example' }],
      paths: {},
    });
  });
});
