import { BigIntCodec, defineEntry, type Codec } from '@lib/codec';
import { decode as cborDecode, encode as cborEncode, type DecodeOptions, type EncodeOptions, type TagDecoder } from 'cborg';
import { syntaxError } from './internal/body-error.js';
import { scanCbor } from './internal/cbor-scan.js';
import { CodecFormat } from './internal/codec-format.js';
import type { EncodeDataOptions } from './internal/json-data.js';
import type { WireRewrite } from './internal/native-wire.js';

/**
 * Writing CBOR: `int64()`/`uint64()` values (decimal text on the wire) as CBOR integers. Bytes
 * need no rewrite: the value is encoded with `rawBinary`, so `bytes()` gives `Uint8Array`s.
 */
const TO_CBOR: WireRewrite = {
  isLeaf: (c) => c instanceof BigIntCodec,
  leaf: (_c, w) => (typeof w === 'string' && /^-?\d+$/.test(w) ? BigInt(w) : w),
};

/** A bignum's magnitude (RFC 8949 §3.4.3): its bytes, big-endian. */
function magnitude(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/**
 * The tags an item may hold once `scanCbor` passed it: date-times (0, 1) as `Date`s, bignums (2,
 * 3) as `bigint`s, a `Uint8Array` (64) and self-described CBOR (55799) as what they hold.
 */
const TAGS: TagDecoder[] = [];
TAGS[0] = (content) => new Date(content() as string);
TAGS[1] = (content) => new Date(Number(content()) * 1000);
TAGS[2] = (content) => magnitude(content() as Uint8Array);
TAGS[3] = (content) => -1n - magnitude(content() as Uint8Array);
TAGS[64] = (content) => content();
TAGS[55799] = (content) => content();

/** Maps as `Map`s (turned into objects below, keeping `__proto__` as an own key), integers beyond 53 bits as `bigint`s. */
const DECODE: DecodeOptions = { useMaps: true, allowBigInt: true, allowUndefined: true, rejectDuplicateMapKeys: true, tags: TAGS };
/**
 * Plain RFC 8949 output: keys in the value's order (no `mapSorter`: cborg's default sorts them),
 * float64 for non-integers.
 */
const ENCODE = { float64: true, mapSorter: undefined } as unknown as EncodeOptions;
const WRITE_CBOR: EncodeDataOptions = { rawBinary: true, native: TO_CBOR };

/**
 * The CBOR body format of a codec: `application/cbor` (RFC 8949), through `cborg` (pure
 * JavaScript, no install script).
 *
 * **marshal** writes the data JSON writes, in CBOR: the codec's wire value (`codec.encode`, which
 * checks the structure and throws `EncodeError`, and leaves undeclared object fields out) taken
 * through the JSON data model as `JSON.stringify` takes it, so that what the codec passes through
 * as it is (`any()`, Standard Schema codecs) is the same data as in JSON (`toJSON` is called: a
 * `Date` is its RFC 3339 text; `undefined` is left out of maps and `null` in arrays; non-finite
 * numbers are `null`). No constraint runs here, as for JSON: the server checks them with
 * `codec.validate` when it validates responses. The data is written as one CBOR data item:
 * objects as maps with text keys (in the value's order), arrays, text, booleans, `null`, and
 * numbers — integers as CBOR integers, others as float64. Every `bytes()` value travels as a
 * CBOR byte string (RFC 8949 §3.1, major type 2) instead of base64 text (as does any other
 * `Uint8Array`, where JSON would write an object of its indices), and where the codec says what
 * a value is (object fields, array items, record values, tagged-union variants, and through
 * `optional`, `nullable`, `defaulted`, `lazy`, `eq` and `map`) `int64()`/`uint64()` values
 * travel as CBOR integers instead of decimal text. `time()` and `date()` values are the RFC 3339
 * text the codec declares (a date-time, a full-date), untagged, as in JSON, so a round trip is
 * exact. A bigint inside `any()` is a CBOR integer when it fits 64 bits (JSON refuses it).
 *
 * **unmarshal** reads exactly one data item and decodes it through the codec (so it validates).
 * Before the decoder sees the bytes they are checked (see below); maps become plain objects whose
 * keys are own properties (`__proto__` included, never a prototype); byte strings become
 * `Uint8Array`s (copies), which `bytes()` takes as they are; integers beyond 32 bits become
 * numbers when safe; tags 0 and 1 (date-times) become RFC 3339 text (`toISOString()`); an
 * integer or bignum where the codec has `int64()`/`uint64()` becomes its decimal text. An empty
 * body unmarshals as `undefined` (so `codec.empty()` and `optional` bodies accept it).
 *
 * Refused as `DecodeError` with one issue, constraint `syntax` (`body is not valid CBOR: …`,
 * naming the byte offset): malformed or truncated input, extra bytes after the item, invalid
 * UTF-8, map keys that are not text strings or repeat, indefinite-length strings, simple values
 * other than `false`/`true`/`null`/`undefined`, nesting deeper than 512 levels, and every tag but
 * 0, 1, 2 and 3 (bignums up to 64 bits), 64 (a byte string) and 55799 (self-described CBOR):
 * no extension tag (value sharing, records, packed values, typed arrays, sets) is decoded, so
 * no shared or cyclic structure, no class instance and no allocation beyond the body's size
 * can come out of a body. The codec's own issues are reported as for JSON.
 *
 * `bodySchema` is `undefined`: the codec's schema describes the value (its `contentEncoding:
 * base64` on `bytes()` fields reads as "a byte string" here).
 */
export class CborFormat<T> extends CodecFormat<T> {
  constructor(codec: Codec<T>, contentType = 'application/cbor') {
    super(codec, contentType);
  }
  /**
   * One CBOR data item of the value's data (see {@link CborFormat}); a value with no data (an
   * `undefined` wire value, `codec.empty()`) is an empty body.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} when the value is circular, as JSON refuses it.
   */
  marshal(value: T): Uint8Array {
    const data = this.dataOf(value);
    if (data === undefined) return new Uint8Array(0);
    // A copy of the encoder's output (on Node a `Buffer` over its working memory): an own Uint8Array.
    return new Uint8Array(cborEncode(data, ENCODE));
  }
  /** `bytes()` as `Uint8Array`s, `int64()`/`uint64()` as CBOR integers. */
  protected override encodeOptions(): EncodeDataOptions {
    return WRITE_CBOR;
  }
  /**
   * The one data item of a checked body, as JSON-like data (`undefined` for an empty body).
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not a supported CBOR item.
   */
  protected wireOf(bytes: Uint8Array): unknown {
    if (bytes.length === 0) return undefined;
    scanCbor(bytes);
    let raw: unknown;
    try {
      raw = cborDecode(bytes, DECODE);
    } catch (err) {
      throw syntaxError('CBOR', 'it could not be decoded', err);
    }
    return toWire(raw);
  }
}

/** The same-class copies of a CBOR format, typed as such (the skeleton makes them). */
export interface CborFormat<T> {
  /** The same format under another media type (a `+cbor` type, RFC 8949 §9.5). */
  withContentType(contentType: string): CborFormat<T>;
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): CborFormat<U>;
}

/**
 * The JSON-like value of what the decoder gave for a checked item: `Map`s to plain objects with
 * own keys, `Date`s (tags 0 and 1) to RFC 3339 text, safe `bigint`s to numbers. Arrays and maps
 * are fresh objects from the decoder, so arrays are rewritten in place.
 */
function toWire(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) {
    return typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = toWire(v[i]);
    return v;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) defineEntry(out, k as string, toWire(x));
    return out;
  }
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw syntaxError('CBOR', 'a tagged date-time is out of range');
    return v.toISOString();
  }
  // Unreachable after scanCbor; refuse rather than hand an unknown object to the codec.
  throw syntaxError('CBOR', 'it holds an unsupported value');
}

/**
 * CBOR body format (RFC 8949): `format.cbor(userCodec)`, media type `application/cbor`. The
 * whole typed value in binary, validated by the codec; `bytes()` fields as byte strings. See
 * {@link CborFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function cbor<T>(codec: Codec<T>): CborFormat<T> {
  return new CborFormat(codec);
}
