import { encodingRawBinary, Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/** Standard padded base64, as the schema states it (JSON Schema `pattern`). */
const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
/** The alphabet of standard base64 with at most two `=` of padding at the end. */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 (RFC 4648 §4, padded) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * True for a standard, padded base64 string (RFC 4648 §4): whole 4-character groups, `=` only
 * as one or two characters of padding at the end. Checked without a repeated group, which a
 * regular expression engine would backtrack through: a body of megabytes is a plain scan.
 */
function isBase64(s: string): boolean {
  return s.length % 4 === 0 && BASE64_CHARS.test(s);
}

/** Bytes of a standard, padded base64 string, or `undefined` when it is not one. */
export function fromBase64(s: string): Uint8Array | undefined {
  if (!isBase64(s)) return undefined;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Codec of binary data; decoded as `Uint8Array`. In JSON the wire value is a standard, padded
 * base64 string (RFC 4648 §4); binary formats hand the raw `Uint8Array` over, which is accepted
 * as is. Schema `{ type: 'string', contentEncoding: 'base64', pattern }`: `contentEncoding` is
 * only an annotation in JSON Schema 2020-12, so the base64 alphabet is also stated as a
 * `pattern`. Byte-level constraints (`validate.maxBytes`, `validate.png`) are checked on
 * decode; JSON Schema cannot express them on the base64 text (magic bytes add a
 * `contentMediaType` annotation). Encoding checks that the value is a `Uint8Array` (a `Buffer`
 * is one).
 */
export class BytesCodec extends Codec<Uint8Array> {
  readonly kind = 'bytes';
  protected parse(input: unknown, ctx: DecodeContext): Uint8Array | Invalid {
    if (input instanceof Uint8Array) return input;
    if (typeof input !== 'string') return ctx.addIssue(`expected base64 string, got ${describeType(input)}`, 'type', input);
    return fromBase64(input) ?? ctx.addIssue('expected standard base64', 'format', input);
  }
  protected serialize(value: Uint8Array): unknown {
    if (!(value instanceof Uint8Array)) throw mismatch('Uint8Array', value);
    // In a binary format's encode (and in validate), the bytes themselves: decode takes them as they are.
    return encodingRawBinary() ? value : toBase64(value);
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', contentEncoding: 'base64', pattern: BASE64_PATTERN };
  }
}

/** A binary codec: `Uint8Array` ↔ base64 (or raw bytes in binary formats). */
// @__NO_SIDE_EFFECTS__
export function bytes(): BytesCodec {
  return new BytesCodec();
}
