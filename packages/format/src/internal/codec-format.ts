import type { Codec } from '@lib/codec';
import type { Format } from '../format.js';
import { syntaxError, toUtf8, utf8 } from './body-error.js';
import { encodeData, type EncodeDataOptions } from './json-data.js';
import { NATIVE_INTEGERS, rewriteWire } from './native-wire.js';

/** The constructor of every {@link CodecFormat}: the codec, and the media type. */
type CodecFormatClass = new <U>(codec: Codec<U>, contentType: string) => CodecFormat<U>;

/**
 * The skeleton of the formats that carry the data JSON carries in a syntax of their own (YAML,
 * TOML, CBOR): the media type and the codec; the same format under another media type or for
 * another codec (the format's own class: its constructor takes `(codec, contentType)`);
 * `marshal` through {@link encodeData} (`codec.encode`, the JSON data model, the format's
 * native leaves), where no data is an empty body; and `unmarshal` as "the body's wire value,
 * integers read as decimal text where the codec has `int64()`/`uint64()`, decoded through the
 * codec" (so it validates). A format gives the rest: see {@link TextFormat}, and cbor.ts.
 *
 * JSON does not extend it: json.ts is in every browser client, and writes its few lines out
 * (sharing them would make that client larger).
 */
export abstract class CodecFormat<T> implements Format<T> {
  /** The media type written to `Content-Type` and matched against requests. */
  readonly contentType: string;
  /** The codec of the value. */
  readonly codec: Codec<T>;
  constructor(codec: Codec<T>, contentType: string) {
    this.codec = codec;
    this.contentType = contentType;
  }
  /** The same format under another media type (a `+yaml` or `+cbor` type). */
  withContentType(contentType: string): CodecFormat<T> {
    return new (this.constructor as CodecFormatClass)(this.codec, contentType);
  }
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): CodecFormat<U> {
    return new (this.constructor as CodecFormatClass)(codec, this.contentType);
  }
  /** Serialises a value (see each format). */
  abstract marshal(value: T): Uint8Array;
  /**
   * Reads the body and decodes it through the codec.
   * @throws {import('@lib/codec').DecodeError} `syntax` for a body the format cannot read (see
   * each format), or the codec's issues.
   */
  unmarshal(bytes: Uint8Array): T {
    return this.codec.decode(rewriteWire(NATIVE_INTEGERS, this.codec as Codec<unknown>, this.wireOf(bytes)));
  }
  /** How {@link encodeData} takes a value: the format's native leaves, raw bytes. */
  protected encodeOptions(): EncodeDataOptions | undefined {
    return undefined;
  }
  /**
   * The value's data (see {@link encodeData}); `undefined` when there is none.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} for a circular value, as `JSON.stringify`.
   */
  protected dataOf(value: T): unknown {
    return encodeData(this.codec, value, this.encodeOptions());
  }
  /**
   * The wire value a body holds, before integers are rewritten.
   * @throws {import('@lib/codec').DecodeError} `syntax` when the bytes are not the format's syntax.
   */
  protected abstract wireOf(bytes: Uint8Array): unknown;
}

/**
 * A {@link CodecFormat} whose bytes are UTF-8 text (YAML, TOML): `marshal` is the UTF-8
 * encoding of `marshalText`, the value's data written by `stringify` (`''` for no data); a body
 * is decoded as UTF-8 and given to `parse`, whose failure is a `DecodeError` with one issue,
 * constraint `syntax`, message `body is not valid <syntax>: <reason>` (the parser's error is the
 * `cause`, `reasonOf` gives the reason). A format gives the syntax's name, `stringify`, `parse`
 * and `reasonOf`.
 */
export abstract class TextFormat<T> extends CodecFormat<T> {
  /** The syntax's name in error messages: `YAML`. */
  protected abstract readonly syntax: string;
  /**
   * The UTF-8 bytes of {@link TextFormat.marshalText}.
   * @throws as `marshalText`.
   */
  marshal(value: T): Uint8Array {
    return toUtf8(this.marshalText(value));
  }
  /**
   * The body as text (`''` for a value with no data).
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} for a circular value, or data the syntax cannot carry (see each format).
   */
  marshalText(value: T): string {
    const data = this.dataOf(value);
    return data === undefined ? '' : this.stringify(data);
  }
  /**
   * The wire value of the body's text.
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not UTF-8, or text `parse` refuses.
   */
  protected wireOf(bytes: Uint8Array): unknown {
    const text = utf8(bytes, this.syntax);
    try {
      return this.parse(text);
    } catch (err) {
      throw syntaxError(this.syntax, this.reasonOf(err), err);
    }
  }
  /** The text of a value's data (never `undefined`). @throws {TypeError} for data the syntax cannot carry. */
  protected abstract stringify(data: unknown): string;
  /** The wire value of a body's text. @throws what the parser throws. */
  protected abstract parse(text: string): unknown;
  /** What to tell a client about a failure of `parse`: its reason and place, never an excerpt or a stack. */
  protected abstract reasonOf(err: unknown): string;
}
