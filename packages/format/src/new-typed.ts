import type { Codec, JsonSchema } from '@lib/codec';
import type { Format } from './format.js';
import { checkMediaType, readerError } from './internal/body-error.js';

/**
 * A body format made of two functions: `marshal: (value: T) => Uint8Array` writes a value,
 * `unmarshal: (bytes: Uint8Array) => T` reads one (CSV, a vendor format, a protocol buffer).
 *
 * - **marshal** first encodes the value through the codec to check its structure (an
 *   `EncodeError` when it does not have it), then returns `marshal(value)`. Whatever the
 *   function throws propagates unchanged: a value the server cannot write is a bug (a 500).
 * - **unmarshal** calls `unmarshal(bytes)`, then validates the result with `codec.validate`
 *   (structure and constraints; its issues are reported as for JSON) and returns it as the
 *   function built it. When the function throws a `DecodeError`, that error propagates as it
 *   is — throw one to tell the client exactly what is wrong (`makeIssue([], 'line 3: expected 2
 *   columns', 'syntax', undefined)`). Any other error becomes a `DecodeError` with one issue,
 *   constraint `syntax`, message `body is not valid <media type>` — the function's own message is
 *   not passed on (it may name files, internals or input it should not echo); it is the error's
 *   `cause`, for logs.
 *
 * `bodySchema` is `undefined` (the codec's schema) unless set with {@link TypedFormat.withBodySchema}.
 */
export class TypedFormat<T> implements Format<T> {
  readonly contentType: string;
  readonly codec: Codec<T>;
  readonly bodySchema?: JsonSchema;
  readonly #marshal: (value: T) => Uint8Array;
  readonly #unmarshal: (bytes: Uint8Array) => T;
  constructor(
    codec: Codec<T>,
    marshal: (value: T) => Uint8Array,
    unmarshal: (bytes: Uint8Array) => T,
    contentType: string,
    bodySchema?: JsonSchema,
  ) {
    checkMediaType('newTyped', contentType);
    this.codec = codec;
    this.#marshal = marshal;
    this.#unmarshal = unmarshal;
    this.contentType = contentType;
    if (bodySchema !== undefined) this.bodySchema = bodySchema;
  }
  /**
   * A copy whose body is documented by `schema` in OpenAPI (CSV: `{ type: 'string' }`), when the
   * codec's schema does not describe the bytes.
   */
  withBodySchema(schema: JsonSchema): TypedFormat<T> {
    return new TypedFormat(this.codec, this.#marshal, this.#unmarshal, this.contentType, schema);
  }
  /**
   * `marshal(value)`, after checking the value's structure.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws whatever the `marshal` function throws.
   */
  marshal(value: T): Uint8Array {
    this.codec.encode(value);
    return this.#marshal(value);
  }
  /**
   * `unmarshal(bytes)`, validated by the codec.
   * @throws {DecodeError} the function's own `DecodeError`; `syntax` when it threw anything else;
   * or the codec's issues.
   */
  unmarshal(bytes: Uint8Array): T {
    let value: T;
    try {
      value = this.#unmarshal(bytes);
    } catch (err) {
      throw readerError(this.contentType, err);
    }
    this.codec.validate(value);
    return value;
  }
}

/**
 * A custom body format from two functions (`format.newTyped(codec, marshal, unmarshal,
 * 'text/csv')`): the value is checked by the codec both ways. See {@link TypedFormat}.
 * @throws {TypeError} when `contentType` is not a media type `type/subtype` (parameters allowed).
 */
// @__NO_SIDE_EFFECTS__
export function newTyped<T>(
  codec: Codec<T>,
  marshal: (value: T) => Uint8Array,
  unmarshal: (bytes: Uint8Array) => T,
  contentType: string,
): TypedFormat<T> {
  return new TypedFormat(codec, marshal, unmarshal, contentType);
}
