import { defineEntry, describeType, formatPath, isPlainObject, type Codec, type PathSegment } from '@lib/codec';
import { parse, stringify, TomlDate, TomlError } from 'smol-toml';
import type { Format } from './format.js';
import { firstLine, syntaxError, toUtf8, utf8 } from './internal/body-error.js';
import { NATIVE_INTEGERS, rewriteWire } from './internal/native-wire.js';

/**
 * The TOML body format of a codec: `application/toml` (TOML 1.0, https://toml.io/en/v1.0.0), UTF-8,
 * through smol-toml.
 *
 * **Only object values.** A TOML document is a table, so the codec's wire value must be an
 * object (an `object()`, `record()` or tagged union); TOML has no `null`, so no value inside may
 * be `null` (absent `optional` fields are fine — they are left out).
 *
 * **marshal** writes the codec's wire value (`codec.encode`, which checks the structure and
 * throws `EncodeError`) as a TOML document: nested objects as tables, arrays of objects as arrays
 * of tables. The wire value is the one JSON gets: `time()` and `date()` values are written as
 * RFC 3339 **strings** (`at = "2025-01-02T03:04:05.000Z"`), not TOML date-times — the codec's
 * text round-trips exactly, whereas a TOML offset date-time would be re-read through a `Date`;
 * `bytes()` are base64 text and `int64()` decimal text. An `undefined` wire value
 * (`codec.empty()`) is an empty body.
 *
 * **unmarshal** parses the document and decodes the table through the codec (so it validates).
 * TOML date-times, dates and times written natively (`at = 2025-01-02T03:04:05Z`) are read as
 * their RFC 3339 text, so `time()` and `date()` take both forms (a local date-time, without
 * offset, is not an RFC 3339 date-time and `time()` refuses it). An integer where the codec has
 * `int64()`/`uint64()` is read as its decimal text; elsewhere integers beyond 2^53 are `bigint`s,
 * which number codecs refuse. Keys are own properties of null-prototype tables: `__proto__` never
 * reaches a prototype. An empty body is the empty table `{}`, as TOML defines it (so a `{}`
 * value round-trips).
 *
 * Refused as `DecodeError` with one issue, constraint `syntax` (`body is not valid TOML:
 * trying to redefine an already defined table or value at line 2, column 1`): invalid UTF-8 and
 * TOML errors, with their line and column, without the source excerpt.
 */
export class TomlFormat<T> implements Format<T> {
  readonly contentType: string;
  readonly codec: Codec<T>;
  constructor(codec: Codec<T>, contentType = 'application/toml') {
    this.codec = codec;
    this.contentType = contentType;
  }
  /** The same format under another media type. */
  withContentType(contentType: string): TomlFormat<T> {
    return new TomlFormat(this.codec, contentType);
  }
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): TomlFormat<U> {
    return new TomlFormat(codec, this.contentType);
  }
  /**
   * A TOML document of the codec's wire value, UTF-8.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} when the wire value is not an object (TOML's top level is a table), or
   * holds `null` somewhere (TOML has no null); the message names the path.
   */
  marshal(value: T): Uint8Array {
    return toUtf8(this.marshalText(value));
  }
  /**
   * The TOML document as text (`''` for a value that encodes to `undefined`).
   * @throws {import('@lib/codec').EncodeError} and {TypeError} as {@link TomlFormat.marshal}.
   */
  marshalText(value: T): string {
    const wire = this.codec.encode(value);
    if (wire === undefined) return '';
    if (!isPlainObject(wire)) {
      throw new TypeError(`a TOML body is a table: the value must encode to an object, got ${describeType(wire)}`);
    }
    refuseNull(wire, []);
    return stringify(wire);
  }
  /**
   * Parses a TOML document and decodes its table through the codec.
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not a TOML document,
   * or the codec's issues.
   */
  unmarshal(bytes: Uint8Array): T {
    const text = utf8(bytes, 'TOML');
    let table: unknown;
    try {
      table = parse(text, { integersAsBigInt: 'asNeeded', unsafeKeyBehaviour: 'keep' });
    } catch (err) {
      throw syntaxError('TOML', reasonOf(err), err);
    }
    return this.codec.decode(rewriteWire(NATIVE_INTEGERS, this.codec as Codec<unknown>, datesToText(table)));
  }
}

/** What to tell a client about a TOML failure: the parser's reason and position, no excerpt. */
function reasonOf(err: unknown): string {
  if (err instanceof TomlError) {
    // "Invalid TOML document: unfinished table" + excerpt.
    const reason = firstLine(err.message).replace(/^Invalid TOML document: /, '');
    return `${reason} at line ${err.line}, column ${err.column}`;
  }
  if (err instanceof RangeError) return 'it is nested too deeply';
  return 'it could not be parsed';
}

/** Replaces TOML date-times in a freshly parsed document by their RFC 3339 text, in place. */
function datesToText(v: unknown): unknown {
  if (v instanceof TomlDate) return v.toISOString();
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = datesToText(v[i]);
  } else if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (typeof x === 'object' && x !== null) defineEntry(v, k, datesToText(x));
    }
  }
  return v;
}

/** @throws {TypeError} naming the first `null` (or `undefined` array item) found in `v`. */
function refuseNull(v: unknown, path: PathSegment[]): void {
  if (v === null) throw new TypeError(`TOML has no null: ${formatPath(path) || 'the value'} is null`);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      if (v[i] === undefined) throw new TypeError(`TOML has no null: ${formatPath(path)} is undefined`);
      refuseNull(v[i], path);
      path.pop();
    }
  } else if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      path.push(k);
      refuseNull(v[k], path);
      path.pop();
    }
  }
}

/**
 * TOML body format (TOML 1.0): `format.toml(userCodec)`, media type `application/toml`. Only
 * values that encode to objects; see {@link TomlFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function toml<T>(codec: Codec<T>): TomlFormat<T> {
  return new TomlFormat(codec);
}
