import * as codec from '@lib/codec';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { response, route } from '../test/users-api.js';
import { renderDocument } from './index.js';
import type { OpenAPIObject, ResponseObject } from './index.js';

const envelope = codec.object({ error: codec.string() }).withName('ErrorEnvelope');
const badId = codec.object({ error: codec.string(), id: codec.string() }).withName('BadId');

function render400(content: Parameters<typeof response>[1]): { doc: OpenAPIObject; res: ResponseObject } {
  const doc = renderDocument({ info: { title: 't', version: '1' }, servers: [], routes: [route('GET', '/x', { responses: [response('200'), response('400', content)] })] }).toJSON();
  return { doc, res: doc.paths['/x']?.get?.responses?.['400'] as ResponseObject };
}

describe('renderContent: a status answered with several bodies', () => {
  it('renders alternatives as anyOf of every schema, in order', () => {
    const { doc, res } = render400({ content: [{ mediaType: 'application/json', codec: badId, alternatives: [envelope] }] });
    expect(res.content?.['application/json']?.schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/BadId' }, { $ref: '#/components/schemas/ErrorEnvelope' }],
    });
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['BadId', 'ErrorEnvelope']);
  });

  it('lists a codec, or an identical schema, once; a single one is not wrapped', () => {
    const same = render400({ content: [{ mediaType: 'application/json', codec: envelope, alternatives: [envelope, codec.object({ error: codec.string() }).withName('ErrorEnvelope')] }] });
    expect(same.res.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('gives {} when one body may be any value', () => {
    const any = render400({ content: [{ mediaType: 'application/json', codec: badId, alternatives: [codec.any()] }] });
    expect(any.res.content?.['application/json']?.schema).toEqual({});
  });

  it('uses schemaName for the first codec only, and leaves empty codecs out', () => {
    const named = render400({ content: [{ mediaType: 'application/json', codec: badId, schemaName: 'Bad', alternatives: [codec.empty(), envelope] }] });
    expect(named.res.content?.['application/json']?.schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Bad' }, { $ref: '#/components/schemas/ErrorEnvelope' }],
    });
  });
});

describe('renderContent: media types of formats', () => {
  const item = codec.object({ id: codec.string() }).withName('Item');
  const photo = codec.object({ caption: codec.string(), photo: codec.bytes() });
  // What format.multipart gives as its bodySchema: a file field is binary content, not base64 text.
  const photoSchema: codec.JsonSchema = { type: 'object', properties: { caption: { type: 'string' }, photo: { type: 'string', contentMediaType: 'image/png' } }, required: ['caption', 'photo'] };
  const doc = renderDocument({
    info: { title: 't', version: '1' },
    servers: [],
    routes: [
      route('POST', '/export', {
        requestBody: {
          required: true,
          content: [{ mediaType: 'multipart/form-data', codec: photo, schema: photoSchema, encoding: { photo: { contentType: 'image/png' } } }],
        },
        responses: [
          response('201', {
            content: [
              { mediaType: 'application/x-ndjson', codec: codec.any(), schema: { type: 'string' }, itemCodec: item },
              { mediaType: 'text/event-stream', codec: codec.any(), schema: { type: 'string', description: 'events' }, itemCodec: codec.object({ n: codec.string() }) },
              { mediaType: 'text/html; charset=utf-8', codec: codec.object({ title: codec.string() }).withName('Page'), schema: { type: 'string', contentMediaType: 'text/html' } },
            ],
          }),
          response('404', {
            content: ['application/json', 'application/yaml', 'application/cbor'].map((mediaType) => ({ mediaType, codec: badId })),
          }),
        ],
      }),
    ],
  });
  const json = doc.toJSON();
  const post = json.paths['/export']?.post;
  const content = (post?.responses?.['201'] as ResponseObject).content ?? {};

  it('renders a multipart body with its Encoding Objects (OpenAPI 3.1 §4.8.15)', () => {
    expect((post?.requestBody as { content: Record<string, unknown> }).content['multipart/form-data']).toEqual({
      schema: photoSchema,
      encoding: { photo: { contentType: 'image/png' } },
    });
  });

  it('renders a streamed sequence as its given schema with x-itemSchema, a named item codec as a $ref', () => {
    expect(content['application/x-ndjson']).toEqual({ schema: { type: 'string' }, 'x-itemSchema': { $ref: '#/components/schemas/Item' } });
    expect(content['text/event-stream']).toEqual({
      schema: { type: 'string', description: 'events' },
      'x-itemSchema': { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
    });
    expect(json.components?.schemas?.['Item']).toEqual({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
  });

  it('renders a response-only html body with its own schema, the codec not rendered', () => {
    expect(content['text/html; charset=utf-8']).toEqual({ schema: { type: 'string', contentMediaType: 'text/html' } });
    expect(Object.keys(json.components?.schemas ?? {})).not.toContain('Page');
  });

  it('renders a typed error body under each media type it is sent in, one component for all', () => {
    const errors = (post?.responses?.['404'] as ResponseObject).content ?? {};
    expect(Object.keys(errors)).toEqual(['application/json', 'application/yaml', 'application/cbor']);
    for (const m of Object.values(errors)) expect(m).toEqual({ schema: { $ref: '#/components/schemas/BadId' } });
    expect(Object.keys(json.components?.schemas ?? {}).filter((k) => k === 'BadId')).toHaveLength(1);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(doc.marshalJSON()) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });
});
