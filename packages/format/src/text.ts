import { describeType, EncodeError, makeIssue, type Codec } from '@lib/codec';
import type { Format } from './format.js';
import { checkMediaType, toUtf8, utf8 } from './internal/body-error.js';

/**
 * A plain-text body format: the body is the text a string codec writes, as UTF-8. Default media
 * type `text/plain; charset=utf-8` (RFC 2046 §4.1.3, RFC 6657); `.withContentType('text/csv')`
 * serves the same text under another type.
 *
 * The codec's wire value is text: `codec.string()` refined as you like, `codec.any()` (the text
 * as it is), a string `literal`, or any codec that writes a string (`codec.time()`).
 *
 * - **unmarshal** decodes UTF-8 (a leading byte order mark is dropped) and decodes the text
 *   through the codec, so its constraints run (`must have at most 280 characters`). Bytes that
 *   are not UTF-8 are a `DecodeError`, constraint `syntax`; an empty body is the empty string.
 * - **marshal** encodes the value through the codec and writes the text as UTF-8; a codec whose
 *   wire value is not a string (an object, a number) throws an `EncodeError`, constraint `type`.
 *
 * No `bodySchema` of its own: the document describes the body by the codec's schema
 * (`{ type: 'string' }`), under this media type.
 */
export class PlainTextFormat<T> implements Format<T> {
  readonly contentType: string;
  readonly codec: Codec<T>;
  constructor(codec: Codec<T>, contentType = 'text/plain; charset=utf-8') {
    checkMediaType('text', contentType);
    this.codec = codec;
    this.contentType = contentType;
  }
  /**
   * The same format under another media type (`text/csv`, `text/markdown`).
   * @throws {TypeError} when `contentType` is not a media type `type/subtype`.
   */
  withContentType(contentType: string): PlainTextFormat<T> {
    return new PlainTextFormat(this.codec, contentType);
  }
  /**
   * The codec's text of the value, as UTF-8 bytes.
   * @throws {EncodeError} when the value does not encode, or encodes to something other than a string.
   */
  marshal(value: T): Uint8Array {
    const wire = this.codec.encode(value);
    if (typeof wire !== 'string') throw new EncodeError([makeIssue([], `expected text, got ${describeType(wire)}`, 'type', wire)]);
    return toUtf8(wire);
  }
  /**
   * The body's text, decoded through the codec.
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not UTF-8, or the codec's issues.
   */
  unmarshal(bytes: Uint8Array): T {
    return this.codec.decode(utf8(bytes, 'text/plain'));
  }
}

/**
 * A plain-text body format (`format.text(codec.string())`), media type `text/plain;
 * charset=utf-8`. See {@link PlainTextFormat}.
 * @throws {TypeError} when `contentType` is not a media type.
 */
// @__NO_SIDE_EFFECTS__
export function text<T>(codec: Codec<T>, contentType?: string): PlainTextFormat<T> {
  return new PlainTextFormat(codec, contentType);
}
