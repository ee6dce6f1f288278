import * as codec from '@lib/codec';
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
