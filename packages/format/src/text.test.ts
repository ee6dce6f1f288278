import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { text } from './index.js';

describe('format.text', () => {
  const note = text(codec.string().refine(validate.maxLength(5)));

  it('reads and writes UTF-8 text through the codec', () => {
    expect(note.contentType).toBe('text/plain; charset=utf-8');
    expect(new TextDecoder().decode(note.marshal('héllo'))).toBe('héllo');
    expect(note.unmarshal(new TextEncoder().encode('héllo'))).toBe('héllo');
    expect(note.unmarshal(new Uint8Array())).toBe('');
    expect(text(codec.any()).unmarshal(new TextEncoder().encode('{"a":1}'))).toBe('{"a":1}');
  });

  it('refuses bytes that are not UTF-8, text its codec refuses, and a value that is not text', () => {
    expect(() => note.unmarshal(new Uint8Array([0xff, 0xfe, 0x41]))).toThrow(codec.DecodeError);
    expect(() => note.unmarshal(new TextEncoder().encode('too long'))).toThrow(/at most 5/);
    expect(() => text(codec.any()).marshal({ a: 1 })).toThrow(codec.EncodeError);
    expect(() => text(codec.int() as codec.Codec<number>).marshal(3)).toThrow(/expected text/);
  });

  it('takes another media type, and refuses one that is not', () => {
    expect(note.withContentType('text/csv').contentType).toBe('text/csv');
    expect(() => text(codec.string(), 'csv')).toThrow(TypeError);
  });
});
