import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as format from './index.js';

describe('json', () => {
  const f = format.json(codec.object({ at: codec.time(), n: codec.int() }));
  it('marshals through the codec and unmarshals with validation', () => {
    const at = new Date('2025-01-02T03:04:05.000Z');
    const bytes = f.marshal({ at, n: 1 });
    expect(new TextDecoder().decode(bytes)).toBe('{"at":"2025-01-02T03:04:05.000Z","n":1}');
    expect(f.unmarshal(bytes)).toEqual({ at, n: 1 });
  });
  it('reports malformed JSON and invalid values as DecodeError', () => {
    expect(() => f.unmarshal(new TextEncoder().encode('{"at":'))).toThrow(
      expect.objectContaining({ name: 'DecodeError', issues: [expect.objectContaining({ constraint: 'syntax' })] }),
    );
    expect(() => f.unmarshal(new Uint8Array([0xff, 0xfe]))).toThrow('body is not valid JSON: it is not valid UTF-8');
    expect(() => f.unmarshal(new TextEncoder().encode('{"at":"x","n":1}'))).toThrow(/at: expected an RFC 3339 date-time/);
  });
  it('normalises media types', () => {
    expect(format.mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
  });
});

describe('withCodec', () => {
  it('gives the same format, media type kept, for another codec', () => {
    const err = codec.object({ error: codec.string(), code: codec.int() });
    for (const f of [format.json(codec.string()).withContentType('application/problem+json'), format.yaml(codec.string()), format.toml(codec.object({})), format.cbor(codec.string())]) {
      const g = f.withCodec(err);
      expect(g.contentType).toBe(f.contentType);
      expect(g.constructor).toBe(f.constructor);
      expect(g.unmarshal(g.marshal({ error: 'x', code: 4 }))).toEqual({ error: 'x', code: 4 });
      // It reads through the new codec, so it validates by it.
      const partial = f.withCodec(codec.object({ error: codec.string() })).marshal({ error: 'x' });
      expect(() => g.unmarshal(partial)).toThrow(expect.objectContaining({ name: 'DecodeError', issues: [expect.objectContaining({ path: ['code'] })] }));
    }
  });
});
