import { DecodeError, encodeJson, makeIssue, type Codec } from '@lib/codec';
import type { Format } from './format.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body format of a codec: `application/json`, UTF-8 (RFC 8259).
 *
 * **marshal** writes `JSON.stringify(codec.encode(value))` with the codec's compiled serializer
 * (`encodeJson`): the structure is checked (`EncodeError`), undeclared object fields are left
 * out, `time()` and `date()` are RFC 3339 text, and what the codec passes through as it is
 * (`any()`, Standard Schema codecs) is written as `JSON.stringify` writes it (`toJSON` is called,
 * `undefined` left out). No constraint runs here: the server checks them with `codec.validate`
 * when it validates responses. CBOR, YAML and TOML write the same data.
 *
 * **unmarshal** parses the text and decodes it through the codec (so it validates); an empty
 * (or blank) body is `undefined`. Malformed JSON and invalid UTF-8 are a `DecodeError` with one
 * issue, constraint `syntax` (`body is not valid JSON: …`).
 */
export class JsonFormat<T> implements Format<T> {
  readonly contentType: string;
  readonly codec: Codec<T>;
  constructor(codec: Codec<T>, contentType = 'application/json') {
    this.codec = codec;
    this.contentType = contentType;
  }
  /** The same format under another media type (`application/problem+json`). */
  withContentType(contentType: string): JsonFormat<T> {
    return new JsonFormat(this.codec, contentType);
  }
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): JsonFormat<U> {
    return new JsonFormat(codec, this.contentType);
  }
  /**
   * The UTF-8 bytes of {@link JsonFormat.marshalText}.
   * @throws as {@link JsonFormat.marshalText}.
   */
  marshal(value: T): Uint8Array {
    return encoder.encode(this.marshalText(value));
  }
  /**
   * The JSON text of the value, with the codec's compiled serializer (`''` for `undefined`).
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} as `JSON.stringify`, for a circular value or a bigint the codec passes through.
   */
  marshalText(value: T): string {
    return encodeJson(this.codec, value) ?? '';
  }
  /**
   * Parses the JSON text and decodes it through the codec.
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not JSON text, or the
   * codec's issues.
   */
  unmarshal(bytes: Uint8Array): T {
    let wire: unknown;
    try {
      const text = decoder.decode(bytes);
      wire = text.trim() === '' ? undefined : JSON.parse(text);
    } catch (err) {
      // SyntaxError messages name the offending position; anything else (a RangeError from a
      // parser that ran out of stack) is the engine's business, not the client's.
      const reason = err instanceof SyntaxError ? err.message : err instanceof TypeError ? 'it is not valid UTF-8' : 'it could not be parsed';
      throw new DecodeError([makeIssue([], `body is not valid JSON: ${reason}`, 'syntax', undefined)], { cause: err });
    }
    return this.codec.decode(wire);
  }
}

/**
 * JSON body format: `format.json(userCodec)`. An empty body unmarshals
 * as `undefined` (so `codec.empty()` and `optional` bodies accept it).
 */
// @__NO_SIDE_EFFECTS__
export function json<T>(codec: Codec<T>): JsonFormat<T> {
  return new JsonFormat(codec);
}
