import { EncodeError, makeIssue, describeType, type Codec, type JsonSchema } from '@lib/codec';
import type { Format } from './format.js';
import { byteLimit } from './internal/byte-limit.js';

/**
 * A raw binary body format: the body is the bytes themselves, as a `Uint8Array`. Default media
 * type `application/octet-stream` (RFC 2046 §4.5.1); `.withContentType('image/png')` serves the
 * same bytes under another type.
 *
 * The codec is a `Uint8Array` codec whose `decode` takes raw bytes — `codec.bytes()`, refined
 * with byte constraints: `codec.bytes().refine(validate.png, validate.maxBytes(5 * 1024 * 1024))`.
 *
 * - **unmarshal** is `codec.decode(bytes)`: the constraints run on the body (magic bytes, size);
 *   the decoded value is the body's `Uint8Array` itself, not a copy. An empty body is an empty
 *   array (which `validate.minBytes(1)` refuses). Nothing is a syntax error.
 * - **marshal** checks the value and returns it: it must be a `Uint8Array` (a `Buffer` is one;
 *   else an `EncodeError`, constraint `type`), and it is decoded through the codec, so the
 *   constraints run on answers too (a non-PNG body for a PNG route throws a `DecodeError`
 *   `png: must be a PNG image`; it becomes a 500, not a broken image).
 *
 * `bodySchema` is `{ type: 'string', contentMediaType }`, the OpenAPI 3.1 description of a raw
 * binary body (no `contentEncoding`: the bytes are not encoded).
 */
export class BinaryFormat implements Format<Uint8Array> {
  readonly contentType: string;
  readonly codec: Codec<Uint8Array>;
  readonly bodySchema: JsonSchema;
  /**
   * The largest body this format reads, in bytes: the codec's `validate.maxBytes(n)`, so that
   * the limit is stated once (the server stops reading past it: 413); `undefined` without one.
   */
  readonly maxBodyBytes: number | undefined;
  constructor(codec: Codec<Uint8Array>, contentType = 'application/octet-stream') {
    this.codec = codec;
    this.contentType = contentType;
    this.bodySchema = { type: 'string', contentMediaType: contentType };
    this.maxBodyBytes = byteLimit(codec);
  }
  /** The same format under another media type (`image/png`, `application/pdf`). */
  withContentType(contentType: string): BinaryFormat {
    return new BinaryFormat(this.codec, contentType);
  }
  /**
   * The value itself, after checking it.
   * @throws {EncodeError} when the value is not a `Uint8Array`.
   * @throws {import('@lib/codec').DecodeError} when it fails one of the codec's constraints.
   */
  marshal(value: Uint8Array): Uint8Array {
    const v: unknown = value;
    if (!(v instanceof Uint8Array)) throw new EncodeError([makeIssue([], `expected Uint8Array, got ${describeType(v)}`, 'type', v)]);
    return this.codec.decode(v);
  }
  /**
   * Decodes the body through the codec (its constraints run).
   * @throws {import('@lib/codec').DecodeError} when the bytes fail one of the codec's constraints.
   */
  unmarshal(bytes: Uint8Array): Uint8Array {
    return this.codec.decode(bytes);
  }
}

/**
 * A raw binary body format (`format.binary(codec.bytes().refine(validate.png))`), media type
 * `application/octet-stream` until `.withContentType(...)`. See {@link BinaryFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function binary(codec: Codec<Uint8Array>): BinaryFormat {
  return new BinaryFormat(codec);
}
