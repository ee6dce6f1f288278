import type { Codec, JsonSchema } from '@lib/codec';

/**
 * A body format: how a typed value travels as bytes under one media type. `unmarshal` parses
 * and decodes through the codec (so it validates); `marshal` encodes through the codec, which
 * checks the value's structure but runs no constraint.
 */
export interface Format<T> {
  /** The media type written to `Content-Type` and matched against requests (`application/json`). */
  readonly contentType: string;
  /** The codec of the value. */
  readonly codec: Codec<T>;
  /**
   * The schema of the body under this media type when it is not the codec's own (binary bodies
   * are `{ type: 'string', contentMediaType }`); `undefined` means the codec's schema.
   */
  readonly bodySchema?: JsonSchema;
  /**
   * Serialises a value.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure
   * (a wrong type, a non-finite number, an unsafe integer, a missing required field, an unknown tag).
   * Some formats throw more, as their constructors document: `binary` a `DecodeError` for bytes
   * failing a constraint, `toml` and `form` a `TypeError` for values the syntax cannot carry.
   */
  marshal(value: T): Uint8Array;
  /**
   * Parses bytes and decodes them through the codec.
   * @throws {import('@lib/codec').DecodeError} for unparseable bytes (one issue at the root,
   * constraint `syntax`, message `body is not valid <format>: <reason>`) or an invalid value
   * (the codec's issues). A response-only format (`html`) throws a `TypeError`.
   */
  unmarshal(bytes: Uint8Array): T;
}

/** A format whose value type is not known statically (per-call overrides, route lists). */
export type AnyFormat = Format<unknown>;

/** The media type of a `Content-Type` value: lower-cased, without parameters (RFC 9110 §8.3.1). */
export function mediaTypeOf(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
