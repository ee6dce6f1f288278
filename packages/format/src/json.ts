import { DecodeError, encodeJson, makeIssue, type Codec } from '@lib/codec';
import type { Format } from './format.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The JSON body format of a codec: `application/json`, UTF-8 (RFC 8259). */
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
  marshal(value: T): Uint8Array {
    return encoder.encode(this.marshalText(value));
  }
  /** The JSON text of the value, with the codec's compiled serializer (`''` for `undefined`). */
  marshalText(value: T): string {
    return encodeJson(this.codec, value) ?? '';
  }
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
