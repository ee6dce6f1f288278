import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { expectEncodeError, thrown } from '../test/helpers.js';
import * as format from './index.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const png = format.binary(codec.bytes().refine(validate.png, validate.maxBytes(16))).withContentType('image/png');

describe('binary', () => {
  it('round-trips raw bytes; the body is the value', () => {
    expect(png.contentType).toBe('image/png');
    expect(png.marshal(PNG)).toBe(PNG);
    expect(png.unmarshal(PNG)).toBe(PNG);
    const any = format.binary(codec.bytes());
    expect(any.contentType).toBe('application/octet-stream');
    // No byte sequence is a syntax error: invalid UTF-8, NUL, anything.
    const raw = new Uint8Array([0xff, 0xfe, 0, 0xc3]);
    expect(any.unmarshal(raw)).toEqual(raw);
    expect(any.unmarshal(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it('documents itself as raw binary in OpenAPI 3.1', () => {
    expect(format.binary(codec.bytes()).bodySchema).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(png.bodySchema).toEqual({ type: 'string', contentMediaType: 'image/png' });
  });

  it('runs the constraints on request bodies: magic bytes and size', () => {
    const notPng = thrown(() => png.unmarshal(new TextEncoder().encode('GIF89a'))) as codec.DecodeError;
    expect(notPng).toBeInstanceOf(codec.DecodeError);
    expect(notPng.issues).toEqual([expect.objectContaining({ path: [], constraint: 'png', message: 'must be a PNG image' })]);
    expect(notPng.message).toBe('must be a PNG image');
    const big = new Uint8Array(32);
    big.set(PNG);
    expect(() => png.unmarshal(big)).toThrow('must have at most 16 bytes');
    expect(() => format.binary(codec.bytes().refine(validate.minBytes(1))).unmarshal(new Uint8Array(0))).toThrow(codec.DecodeError);
  });

  it('runs the constraints on answers too: a non-PNG answer to a PNG route fails', () => {
    const err = thrown(() => png.marshal(new Uint8Array([1, 2, 3]))) as codec.DecodeError;
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect(err.issues[0]?.constraint).toBe('png');
    expectEncodeError(() => png.marshal('iVBORw0KGgo=' as unknown as Uint8Array), 'expected Uint8Array, got string');
    const buf = Buffer.from(PNG);
    expect(png.marshal(buf)).toBe(buf);
  });

  it('keeps the codec across withContentType', () => {
    const pdf = format.binary(codec.bytes().refine(validate.pdf)).withContentType('application/pdf');
    expect(() => pdf.unmarshal(PNG)).toThrow('must be a PDF document');
    expect(pdf.withContentType('application/x-pdf').codec).toBe(pdf.codec);
  });
});
