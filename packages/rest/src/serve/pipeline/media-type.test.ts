import * as codec from '@lib/codec';
import { json, mediaTypeOf, type Format } from '@lib/format';
import { describe, expect, it } from 'vitest';
import { UnsupportedMediaTypeError } from '../../declare/errors.js';
import { requestFormatOf } from './media-type.js';

const body = codec.object({ name: codec.string() });
const asJson = json(body);
const asMerge = json(body).withContentType('application/merge-patch+json');
const formats = new Map<string, Format<unknown>>([asJson, asMerge].map((f) => [mediaTypeOf(f.contentType), f as Format<unknown>]));

describe('media type (415)', () => {
  it("picks the request format by the Content-Type's media type, its parameters and case left out", () => {
    const formatOf = requestFormatOf(formats);
    expect(formatOf('application/json')).toBe(asJson);
    expect(formatOf('Application/JSON; charset=utf-8')).toBe(asJson);
    expect(formatOf('application/merge-patch+json')).toBe(asMerge);
  });

  it('refuses another media type, and an absent Content-Type', () => {
    const formatOf = requestFormatOf(formats);
    expect(() => formatOf('text/plain')).toThrow(UnsupportedMediaTypeError);
    expect(() => formatOf('')).toThrow(UnsupportedMediaTypeError);
  });
});
