import { DateCodec, defineEntry, describeType, formatPath, isPlainObject, TimeCodec, type Codec, type PathSegment } from '@lib/codec';
import { parse, stringify, TomlDate, TomlError } from 'smol-toml';
import { firstLine } from './internal/body-error.js';
import { TextFormat } from './internal/codec-format.js';
import type { EncodeDataOptions } from './internal/json-data.js';
import type { WireRewrite } from './internal/native-wire.js';

/**
 * Writing TOML: `time()` values (RFC 3339 date-time text, always UTC with milliseconds) as TOML
 * offset date-times, `date()` values (RFC 3339 full-date) as TOML local dates. TOML 1.0 defines
 * both by RFC 3339, and `TomlDate` writes the text it is given, so reading gives the same text.
 */
const TO_TOML: WireRewrite = {
  isLeaf: (c) => c instanceof TimeCodec || c instanceof DateCodec,
  leaf: (_c, w) => (typeof w === 'string' ? new TomlDate(w) : w),
};
const WRITE_TOML: EncodeDataOptions = { native: TO_TOML };

/**
 * The TOML body format of a codec: `application/toml` (TOML 1.0, https://toml.io/en/v1.0.0), UTF-8,
 * through smol-toml.
 *
 * **Only object values.** A TOML document is a table, so the codec's wire value must be an
 * object (an `object()`, `record()` or tagged union); TOML has no `null`, so no value inside may
 * be `null` (absent `optional` fields are fine — they are left out).
 *
 * **marshal** writes the data JSON writes, in TOML: the codec's wire value (`codec.encode`, which
 * checks the structure and throws `EncodeError`, and leaves undeclared object fields out) taken
 * through the JSON data model as `JSON.stringify` takes it, so that what the codec passes through
 * as it is (`any()`, Standard Schema codecs) is the same data as in JSON (`toJSON` is called: a
 * `Date` is its RFC 3339 text; `undefined` is left out of tables; what JSON writes as `null` —
 * an `undefined` array item, a non-finite number — is refused, as TOML has no null). No
 * constraint runs here, as for JSON: the server checks them with `codec.validate` when it
 * validates responses. The data is written as a TOML document: nested objects as tables, arrays
 * of objects as arrays of tables. Where the codec says what a value is (object fields, array
 * items, record values, tagged-union variants, and through `optional`, `nullable`, `defaulted`,
 * `lazy`, `eq` and `map`), `time()` values are written as TOML offset date-times
 * (`at = 2025-01-02T03:04:05.000Z`) and `date()` values as TOML local dates
 * (`day = 2025-01-02`): TOML 1.0 defines both by RFC 3339, so they are exactly the text the codec
 * declares, unquoted, and read back as that text. Inside untagged unions and `any()` they stay
 * strings. `bytes()` are base64 text and `int64()` decimal text, as in JSON. A bigint inside
 * `any()` is a TOML integer (JSON refuses it). A value with no data (an `undefined` wire value,
 * `codec.empty()`) is an empty body.
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
export class TomlFormat<T> extends TextFormat<T> {
  protected readonly syntax = 'TOML';
  constructor(codec: Codec<T>, contentType = 'application/toml') {
    super(codec, contentType);
  }
  /** `time()` and `date()` values as TOML date-times and dates. */
  protected override encodeOptions(): EncodeDataOptions {
    return WRITE_TOML;
  }
  /**
   * A TOML document of the data.
   * @throws {TypeError} when the data is not an object (TOML's top level is a table), or holds
   * `null` somewhere (TOML has no null; the message names the path).
   */
  protected stringify(data: unknown): string {
    if (!isPlainObject(data) || data instanceof TomlDate) {
      throw new TypeError(`a TOML body is a table: the value must encode to an object, got ${data instanceof TomlDate ? 'string' : describeType(data)}`);
    }
    refuseNull(data, []);
    return stringify(data);
  }
  /** The document's table (`{}` for an empty body). @throws what smol-toml throws. */
  protected parse(text: string): unknown {
    return parse(text, { integersAsBigInt: 'asNeeded', unsafeKeyBehaviour: 'keep' });
  }
  /** The document's table, its date-times as RFC 3339 text. @throws as {@link TextFormat}. */
  protected override wireOf(bytes: Uint8Array): unknown {
    return datesToText(super.wireOf(bytes));
  }
  /** The parser's reason and position, no excerpt. */
  protected reasonOf(err: unknown): string {
    if (err instanceof TomlError) {
      // "Invalid TOML document: unfinished table" + excerpt.
      const reason = firstLine(err.message).replace(/^Invalid TOML document: /, '');
      return `${reason} at line ${err.line}, column ${err.column}`;
    }
    if (err instanceof RangeError) return 'it is nested too deeply';
    return 'it could not be parsed';
  }
}

/** The same-class copies of a TOML format, typed as such (the skeleton makes them). */
export interface TomlFormat<T> {
  /** The same format under another media type. */
  withContentType(contentType: string): TomlFormat<T>;
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): TomlFormat<U>;
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
