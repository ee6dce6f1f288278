/**
 * The drafts of leaf codecs: strings, numbers of every width, 64-bit integers, booleans, texts
 * carrying numbers, booleans and instants, bytes, blobs, literals and constants, `any` and
 * `empty`. Each reads the constraints' parameters to aim its candidates.
 */
import {
  BigIntCodec,
  BlobCodec,
  BytesCodec,
  ConstantCodec,
  deepEqual,
  duration,
  EqCodec,
  Float32Codec,
  fromBase64,
  IntCodec,
  LiteralCodec,
  NumberCodec,
  toBase64,
  type AnyCodec,
  type StringCodec,
  type JsonValue,
} from '@lib/codec';
import * as fc from 'fast-check';
import { numericBounds, param, sizeBounds, wrongTypes, type AnyConstraint, type Bound } from './constraints.js';
import {
  dateTimeText,
  durationText,
  freeString,
  fullDateText,
  httpDateText,
  malformedDate,
  malformedDateTime,
  malformedDuration,
  malformedHttpDate,
  mutations,
  textFormat,
} from './formats.js';
import type { Draft } from './internal/gen.js';
import { nothing } from './internal/satisfying.js';
import { refusal, type RefusedValue } from './refused-value.js';

/** The code points of `s`, as JSON Schema and `validate.minLength` count them. */
const codePoints = (s: string): string[] => Array.from(s);

// ---------------------------------------------------------------------------------------------
// Strings

/** Candidates for a string of `[lo, hi]` code points: `oneOf`'s values, else the first format a constraint declares, else any text. */
function stringCandidates(constraints: readonly AnyConstraint[], lo: number, hi: number): fc.Arbitrary<unknown> {
  const { values } = numericBounds(constraints);
  if (values !== undefined) {
    const texts = values.filter((v): v is string => typeof v === 'string');
    return texts.length === 0 ? nothing() : fc.constantFrom(...texts);
  }
  for (const c of constraints) {
    const format = textFormat(c);
    if (format !== undefined) return format.valid;
  }
  return freeString(lo, hi);
}

/** Candidates to break `c` on a string: shorter or longer texts for the lengths, `''` for `nonEmpty`, else near misses of valid texts. */
function stringNear(c: AnyConstraint, valid: fc.Arbitrary<string>, lo: number, hi: number): fc.Arbitrary<unknown> | undefined {
  const n = param(c, c.name);
  if (c.name === 'minLength' && typeof n === 'number') {
    if (n <= 0) return undefined;
    const short = valid.chain((v) => {
      const cps = codePoints(v);
      return fc.nat(Math.min(n - 1, cps.length)).map((k) => cps.slice(0, k).join(''));
    });
    return fc.oneof(short, freeString(Math.max(0, n - 3), n - 1));
  }
  if (c.name === 'maxLength' && typeof n === 'number') {
    const long = valid.chain((v) => {
      const missing = Math.max(1, n + 1 - codePoints(v).length);
      return freeString(missing, missing + 2).map((s) => v + (s as string));
    });
    return fc.oneof(long, freeString(n + 1, n + 3));
  }
  if (c.name === 'nonEmpty') return fc.constant('');
  const misses = textFormat(c)?.misses;
  const free = freeString(lo, Math.min(hi, lo + 12));
  return misses === undefined ? fc.oneof(mutations(valid), free) : fc.oneof(mutations(valid), misses, free);
}

/**
 * `codec.string()`: texts of the length bounds (in code points), of `oneOf`'s values or of the
 * first format a constraint declares; refused: any other JSON type (`type`).
 */
export function stringDraft(c: StringCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const [lo, hi] = sizeBounds(constraints, 'minLength', 'maxLength');
  return {
    valid: stringCandidates(constraints, lo, hi),
    refused: [wrongTypes(0, 1.5, true, false, null, [], {}, ['a'])],
    near: (k, valid) => stringNear(k, valid as fc.Arbitrary<string>, lo, hi),
  };
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** The numbers a numeric codec accepts before its constraints. */
interface NumberDomain {
  readonly lo: number;
  readonly hi: number;
  readonly integer: boolean;
}

/** The largest finite single-precision value. */
const FLOAT32_MAX = 3.4028234663852886e38;

function domainOf(c: IntCodec | NumberCodec | Float32Codec): NumberDomain {
  if (c instanceof IntCodec) return { lo: c.range.minimum, hi: c.range.maximum, integer: true };
  if (c instanceof Float32Codec) return { lo: -FLOAT32_MAX, hi: FLOAT32_MAX, integer: false };
  return { lo: -Number.MAX_VALUE, hi: Number.MAX_VALUE, integer: false };
}

/** The integers of `[lo, hi]` (open ends excluded) as safe integers: `[ilo, ihi]`. */
function integerSpan(lo: number, loOpen: boolean, hi: number, hiOpen: boolean): [number, number] {
  let ilo = Math.ceil(lo);
  if (loOpen && ilo === lo) ilo++;
  let ihi = Math.floor(hi);
  if (hiOpen && ihi === hi) ihi--;
  return [Math.max(ilo, Number.MIN_SAFE_INTEGER), Math.min(ihi, Number.MAX_SAFE_INTEGER)];
}

const asNumber = (b: Bound | undefined, fallback: number): [number, boolean] => (b === undefined ? [fallback, false] : [Number(b.value), b.open]);

/** Numbers of `domain` that the numeric constraints allow: integers or doubles in the intersected range, or `oneOf`'s values. */
function numberCandidates(domain: NumberDomain, constraints: readonly AnyConstraint[]): fc.Arbitrary<unknown> {
  const b = numericBounds(constraints);
  const integer = domain.integer || b.integer;
  if (b.values !== undefined) {
    const nums = b.values.filter((v): v is number => typeof v === 'number' && v >= domain.lo && v <= domain.hi && (!integer || Number.isInteger(v)));
    return nums.length === 0 ? nothing() : fc.constantFrom(...nums);
  }
  let [lo, loOpen] = asNumber(b.lo, domain.lo);
  let [hi, hiOpen] = asNumber(b.hi, domain.hi);
  if (lo < domain.lo) [lo, loOpen] = [domain.lo, false];
  if (hi > domain.hi) [hi, hiOpen] = [domain.hi, false];
  const [ilo, ihi] = integerSpan(lo, loOpen, hi, hiOpen);
  const ints = ilo <= ihi ? fc.integer({ min: ilo, max: ihi }) : undefined;
  if (integer) return ints ?? nothing();
  if (lo > hi || (lo === hi && (loOpen || hiOpen))) return nothing();
  const doubles = fc.double({ min: lo, max: hi, minExcluded: loOpen, maxExcluded: hiOpen, noNaN: true, noDefaultInfinity: true });
  return ints === undefined ? doubles : fc.oneof(doubles, ints);
}

/** The smallest step away from `x` that changes it, either way. */
const ulp = (x: number): number => Math.max(Number.MIN_VALUE, Math.abs(x) * Number.EPSILON);

/** Numbers of `domain` around every number the constraints name: where a value just passes or just fails. */
function numberPoints(domain: NumberDomain, constraints: readonly AnyConstraint[]): number[] {
  const out = new Set<number>();
  for (const raw of [...numericBounds(constraints).points, domain.lo, domain.hi]) {
    const p = Number(raw);
    const around = domain.integer
      ? [Math.floor(p) - 1, Math.floor(p), Math.ceil(p), Math.ceil(p) + 1]
      : [p - 1, p - 0.5, p - ulp(p), p, p + ulp(p), p + 0.5, p + 1];
    for (const x of around) if (Number.isFinite(x) && x >= domain.lo && x <= domain.hi && (!domain.integer || Number.isSafeInteger(x))) out.add(x);
  }
  return [...out];
}

/** Candidates to break a numeric constraint: numbers around the named ones, next to valid ones, and anywhere in the domain. */
function numberNear(domain: NumberDomain, constraints: readonly AnyConstraint[], valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const points = numberPoints(domain, constraints);
  const anywhere = domain.integer
    ? fc.integer({ min: Math.max(domain.lo, Number.MIN_SAFE_INTEGER), max: Math.min(domain.hi, Number.MAX_SAFE_INTEGER) })
    : fc.oneof(fc.double({ min: domain.lo, max: domain.hi, noNaN: true }), fc.integer({ min: -70_000, max: 70_000 }));
  const beside = valid.chain((v) => fc.constantFrom((v as number) - 1, (v as number) + 1, (v as number) + 0.5));
  return points.length === 0 ? fc.oneof(anywhere, beside) : fc.oneof(fc.constantFrom(...points), anywhere, beside);
}

/**
 * `codec.int()` and the fixed-width integers (`int8` … `uint32`, `uint`), `codec.number()` and
 * `codec.float32()`: numbers of the codec's range intersected with `min`, `max`, `range`,
 * `positive`, `negative`, `port`, `oneOf`. Refused with `type`: other JSON types, and for
 * integers a fraction or the integers just outside the width's range; for `float32`, numbers
 * beyond ±3.4028234663852886e38.
 */
export function numberDraft(c: IntCodec | NumberCodec | Float32Codec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const domain = domainOf(c);
  const refused: fc.Arbitrary<RefusedValue>[] = [wrongTypes('1', true, null, [], {})];
  if (c instanceof IntCodec) {
    refused.push(wrongTypes(0.5, -1.5, 1e-7, domain.lo - 1, domain.hi + 1));
  } else if (c instanceof Float32Codec) {
    refused.push(wrongTypes(3.5e38, -3.5e38, Number.MAX_VALUE));
  }
  return {
    valid: numberCandidates(domain, constraints),
    refused,
    near: (_k, valid) => numberNear(domain, constraints, valid),
  };
}

// ---------------------------------------------------------------------------------------------
// Integers carried as text

/** A bound as a bigint: the least (`up`) or greatest integer it allows. */
function bigBound(b: Bound | undefined, up: boolean): bigint | undefined {
  if (b === undefined) return undefined;
  if (typeof b.value === 'bigint') return b.open ? b.value + (up ? 1n : -1n) : b.value;
  if (!Number.isFinite(b.value)) return undefined;
  const r = up ? Math.ceil(b.value) : Math.floor(b.value);
  return BigInt(r) + (b.open && r === b.value ? (up ? 1n : -1n) : 0n);
}

const bigMax = (a: bigint, b: bigint | undefined): bigint => (b !== undefined && b > a ? b : a);
const bigMin = (a: bigint, b: bigint | undefined): bigint => (b !== undefined && b < a ? b : a);

/** Malformed integer texts: signs, leading zeros, fractions, exponents, spaces, hex, empty. */
const MALFORMED_INTEGER_TEXTS = ['', '+1', '01', '-01', '1.0', '1.5', '1e3', ' 1', '1 ', '0x10', 'abc', '--1', '１'];

/**
 * `codec.int64()` and `codec.uint64()`: the decimal texts of the bigints of the range intersected
 * with the numeric constraints (`"-0"` among them when 0 is allowed). Refused with `type`: a JSON
 * number or other type, malformed texts, and the texts just outside the range.
 */
export function bigintDraft(c: BigIntCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const { minimum, maximum } = c.range;
  const b = numericBounds(constraints);
  const lo = bigMax(minimum, bigBound(b.lo, true));
  const hi = bigMin(maximum, bigBound(b.hi, false));
  let valid: fc.Arbitrary<unknown> = nothing();
  if (lo <= hi) {
    const texts = fc.bigInt({ min: lo, max: hi }).map(String);
    // `"-0"` reads as 0.
    valid = lo <= 0n && hi >= 0n ? fc.oneof({ weight: 9, arbitrary: texts }, { weight: 1, arbitrary: fc.constant('-0') }) : texts;
  }
  const points = new Set<bigint>();
  for (const raw of [...b.points, minimum, maximum]) {
    const p = typeof raw === 'bigint' ? raw : Number.isFinite(raw) ? BigInt(Math.floor(raw)) : undefined;
    if (p === undefined) continue;
    for (const x of [p - 1n, p, p + 1n, p + 2n]) if (x >= minimum && x <= maximum) points.add(x);
  }
  const anywhere = fc.bigInt({ min: minimum, max: maximum });
  return {
    valid,
    refused: [
      wrongTypes(1, true, null, [], {}),
      fc.constantFrom(...MALFORMED_INTEGER_TEXTS, String(minimum - 1n), String(maximum + 1n)).map((v) => refusal(v, 'type')),
    ],
    near: () => fc.oneof(fc.constantFrom(...points), anywhere).map(String),
  };
}

/** The safe integers. */
const SAFE: NumberDomain = { lo: Number.MIN_SAFE_INTEGER, hi: Number.MAX_SAFE_INTEGER, integer: true };

/**
 * `codec.intString()`: the decimal texts of the safe integers the numeric constraints allow
 * (`"-0"` among them when 0 is). Refused with `type`: a JSON number or other type, malformed
 * texts, and the texts of ±2^53.
 */
export function intStringDraft(c: AnyCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const ints = numberCandidates(SAFE, constraints).map(String);
  return {
    valid: fc.oneof({ weight: 19, arbitrary: ints }, { weight: 1, arbitrary: fc.constant('-0') }),
    refused: [
      wrongTypes(42, true, null, [], {}),
      fc.constantFrom(...MALFORMED_INTEGER_TEXTS, '9007199254740992', '-9007199254740992', '99999999999999999999').map((v) => refusal(v, 'type')),
    ],
    near: (_k, valid) => numberNear(SAFE, constraints, valid.map((v) => Number(v))).map(String),
  };
}

/**
 * `codec.numberString()`: the texts of numbers its constraints accept (`String(n)`, a JSON
 * number's syntax) and `"-0"`; refused with `type`: other JSON types, texts that are no JSON
 * number (`"+1"`, `"1."`, `"NaN"`) and one beyond a double (`"1e400"`).
 */
export function numberStringDraft(c: AnyCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const domain: NumberDomain = { lo: -Number.MAX_VALUE, hi: Number.MAX_VALUE, integer: false };
  return {
    valid: fc.oneof({ weight: 19, arbitrary: numberCandidates(domain, constraints).map(String) }, { weight: 1, arbitrary: fc.constant('-0') }),
    refused: [wrongTypes(2.5, true, null, [], {}), fc.constantFrom('', ' 1', '+1', '01', '1.', '.5', 'NaN', 'Infinity', '1e400', '1,5').map((v) => refusal(v, 'type'))],
    near: (_k, valid) => numberNear(domain, constraints, valid.map((v) => Number(v))).map(String),
  };
}

// ---------------------------------------------------------------------------------------------
// Booleans

/** `codec.boolean()`: `true`, `false`; refused with `type`: their texts and other JSON types. */
export function booleanDraft(): Draft {
  return { valid: fc.boolean(), refused: [wrongTypes('true', 'false', 0, 1, null, [], {})] };
}

/** `codec.boolString()`: `"true"`, `"false"`; refused with `type`: other texts, JSON booleans and other types. */
export function boolStringDraft(): Draft {
  return { valid: fc.constantFrom('true', 'false'), refused: [wrongTypes('TRUE', 'True', 'yes', '1', '0', '', ' true', true, false, 1, null)] };
}

// ---------------------------------------------------------------------------------------------
// Bytes

/** The bytes of an ASCII text. */
const ascii = (s: string): number[] => Array.from(s, (ch) => ch.charCodeAt(0));

/**
 * The leading bytes a byte constraint asks for, by name: the signatures of `png` (ISO/IEC 15948
 * §5.2), `jpeg`, `gif`, `webp` (RFC 9649 §2: `RIFF`, any size, `WEBP`), `pdf` (ISO 32000
 * §7.5.2), `zip` (APPNOTE.TXT §4.3) and the bytes of `hasPrefix(bytes)`.
 */
function signatureOf(c: AnyConstraint): fc.Arbitrary<number[]> | undefined {
  switch (c.name) {
    case 'png':
      return fc.constant([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'jpeg':
      return fc.constant([0xff, 0xd8, 0xff]);
    case 'gif':
      return fc.constantFrom(ascii('GIF87a'), ascii('GIF89a'));
    case 'webp':
      return fc.uint8Array({ minLength: 4, maxLength: 4 }).map((size) => [...ascii('RIFF'), ...size, ...ascii('WEBP')]);
    case 'pdf':
      return fc.constant(ascii('%PDF-'));
    case 'zip':
      return fc.constantFrom([0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06], [0x50, 0x4b, 0x07, 0x08]);
    case 'hasPrefix': {
      const prefix = param(c, 'prefix');
      return prefix instanceof Uint8Array ? fc.constant(Array.from(prefix)) : undefined;
    }
    default:
      return undefined;
  }
}

/** Byte arrays of `lo` to `hi` bytes (`hi` infinite: up to 16 more than needed) starting with `signature`. */
function byteArrays(lo: number, hi: number, signature: fc.Arbitrary<number[]>): fc.Arbitrary<Uint8Array> {
  return signature.chain((sig) => {
    const min = Math.max(0, lo - sig.length);
    const max = (Number.isFinite(hi) ? hi : Math.max(lo, sig.length) + 16) - sig.length;
    if (max < min) return fc.constant(Uint8Array.from(sig));
    return fc.uint8Array({ minLength: min, maxLength: max }).map((tail) => Uint8Array.from([...sig, ...tail]));
  });
}

/** One change of `bytes`: cut short, made longer, a leading byte changed, or other bytes. */
function byteEdits(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  const n = bytes.length;
  return fc.oneof(
    fc.nat(Math.max(0, n - 1)).map((k) => bytes.slice(0, k)),
    fc.uint8Array({ minLength: 1, maxLength: 3 }).map((more) => Uint8Array.from([...bytes, ...more])),
    fc.tuple(fc.nat(Math.max(0, Math.min(n, 12) - 1)), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
      const out = bytes.slice();
      if (n > 0) out[i] = ((out[i] as number) + x) % 256;
      return out;
    }),
    fc.uint8Array({ maxLength: n + 2 }),
  );
}

/**
 * `codec.bytes()`: the standard padded base64 (RFC 4648 §4) of byte arrays of the `minBytes`,
 * `maxBytes`, `nonEmpty` bounds, starting with the signature of the first magic-byte constraint.
 * Refused: other JSON types (`type`) and texts that are not padded base64 (`format`).
 */
export function bytesDraft(c: BytesCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const [lo, hi] = sizeBounds(constraints, 'minBytes', 'maxBytes');
  let signature: fc.Arbitrary<number[]> = fc.constant([]);
  for (const k of constraints) {
    const s = signatureOf(k);
    if (s !== undefined) {
      signature = s;
      break;
    }
  }
  const sized = (min: number, max: number): fc.Arbitrary<string> => fc.uint8Array({ minLength: Math.max(0, min), maxLength: Math.max(0, min, max) }).map(toBase64);
  return {
    valid: byteArrays(lo, hi, signature).map(toBase64),
    refused: [
      wrongTypes(1, true, null, [], {}),
      fc.constantFrom('abc', 'A===', '!!!!', 'AAAAA', 'AB=C', 'Zm9v\n', ' AAA', 'Zm9v=').map((v) => refusal(v, 'format')),
    ],
    near: (_k, valid) =>
      fc.oneof(
        valid.chain((v) => byteEdits(fromBase64(v as string) ?? new Uint8Array()).map(toBase64)),
        sized(lo - 2, lo - 1),
        // Past `maxBytes`: a valid value (its signature kept) padded to one or two bytes over,
        // filled rather than generated byte by byte; a bound above LARGEST_BYTES is not broken.
        Number.isFinite(hi) && hi < LARGEST_BYTES ? valid.chain((v) => fc.integer({ min: hi + 1, max: hi + 2 }).map((n) => toBase64(padded(fromBase64(v as string) ?? new Uint8Array(), n)))) : sized(0, 4),
      ),
  };
}

/**
 * `bytes()` values larger than this are not generated: a `maxBytes` bound above it is not
 * broken (its base64 text would be megabytes, decoded over and over while values are drawn).
 */
const LARGEST_BYTES = 64 * 1024;

/** `bytes` followed by `0x61` bytes up to `size` in all. */
function padded(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size).fill(0x61);
  out.set(bytes.subarray(0, size));
  return out;
}

/** Blobs larger than this are not generated (a `maxBytes` bound above it is not broken). */
const LARGEST_BLOB = 16 * 1024 * 1024;

/**
 * `codec.blob(bounds)`: `Blob`s of sizes within the bounds (the wire value is the `Blob`, as a
 * multipart reader hands it over). Refused: anything else (`type`), one of at most 16 MiB just
 * over `maxBytes` (`maxBytes`), one under `minBytes` (`minBytes`).
 */
export function blobDraft(c: BlobCodec): Draft {
  const lo = c.bounds.minBytes ?? 0;
  const hi = c.bounds.maxBytes ?? Infinity;
  const blobOf = (size: number): Blob => new Blob([new Uint8Array(size).fill(0x61)]);
  const refused: fc.Arbitrary<RefusedValue>[] = [fc.constantFrom<unknown>('x', 1, null, {}, new Uint8Array([1])).map((v) => refusal(v, 'type'))];
  if (Number.isFinite(hi) && hi + 3 <= LARGEST_BLOB) refused.push(fc.integer({ min: hi + 1, max: hi + 3 }).map((n) => refusal(blobOf(n), 'maxBytes')));
  if (lo > 0) refused.push(fc.integer({ min: Math.max(0, lo - 3), max: lo - 1 }).map((n) => refusal(blobOf(n), 'minBytes')));
  const valid = lo > hi ? nothing() : fc.uint8Array({ minLength: lo, maxLength: Math.min(hi, lo + 32) }).map((bytes) => new Blob([bytes as Uint8Array<ArrayBuffer>]));
  return { valid, refused };
}

// ---------------------------------------------------------------------------------------------
// Instants and durations as text

/** A text codec: its valid texts and texts built to be malformed (`format`). */
function textDraft(valid: fc.Arbitrary<string>, malformed: fc.Arbitrary<string>): Draft {
  return { valid, refused: [wrongTypes(0, 1.5, true, null, [], {}), malformed.map((v) => refusal(v, 'format'))] };
}

/** `codec.time()`: RFC 3339 §5.6 date-times; refused: other types (`type`), malformed texts (`format`). */
export function timeDraft(): Draft {
  return textDraft(dateTimeText(), malformedDateTime());
}

/** `codec.date()`: RFC 3339 full-dates of real days; refused: other types (`type`), malformed texts and days (`format`). */
export function dateDraft(): Draft {
  return textDraft(fullDateText(), malformedDate());
}

/** Writes duration texts: the codec's own encoder. */
const DURATION = duration();

/** The duration text of `seconds`: `PT90S`, or as `codec.duration()` writes it, split into days, hours, minutes and seconds (`P1DT2H`). */
function durationOfSeconds(seconds: number, split: boolean): string {
  return split ? (DURATION.encode(seconds * 1000) as string) : `PT${seconds}S`;
}

/**
 * `codec.duration()`: RFC 3339 durations of weeks, or days to whole seconds; with numeric
 * constraints (on the milliseconds), also the whole seconds they allow. Refused: other types
 * (`type`), anything else (`format`).
 */
export function durationDraft(c: AnyCodec): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const draft = textDraft(durationText(), malformedDuration());
  const b = numericBounds(constraints);
  if (b.lo === undefined && b.hi === undefined && b.values === undefined) return draft;
  const text = (secs: fc.Arbitrary<number>): fc.Arbitrary<string> => fc.tuple(secs, fc.boolean()).map(([n, split]) => durationOfSeconds(n, split));
  // Milliseconds the constraints allow, as whole seconds; and the seconds around each bound.
  const domain: NumberDomain = { lo: 0, hi: 1e15, integer: true };
  const allowed = numberCandidates(domain, constraints).map((ms) => Math.ceil((ms as number) / 1000));
  const around = numberPoints(domain, constraints).flatMap((ms) => [Math.floor(ms / 1000) - 1, Math.floor(ms / 1000), Math.ceil(ms / 1000), Math.ceil(ms / 1000) + 1]).filter((n) => n >= 0);
  return { ...draft, valid: fc.oneof(text(allowed), draft.valid), near: () => text(fc.constantFrom(...around)) };
}

/** `codec.httpDate()`: RFC 9110 §5.6.7 dates in its three forms; refused: other types (`type`), malformed dates (`format`). */
export function httpDateDraft(): Draft {
  return textDraft(httpDateText(), malformedHttpDate());
}

// ---------------------------------------------------------------------------------------------
// Fixed values

/** Values that differ from `value` (structurally, as `constant` and `eq` compare): constraint `const`. */
function otherValues(value: unknown): fc.Arbitrary<RefusedValue> {
  const candidates: unknown[] = [null, 0, 1, 'x', '', true, false, [], {}, [value], { value }];
  if (typeof value === 'string') candidates.push(`${value}x`, value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase());
  if (typeof value === 'number') candidates.push(value + 1, -value - 1, String(value));
  if (typeof value === 'boolean') candidates.push(!value, String(value));
  if (Array.isArray(value)) candidates.push([...(value as unknown[]), null], value.slice(1));
  else if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    candidates.push({ ...value, 'x-extra': 1 });
    if (keys.length > 0) candidates.push(Object.fromEntries(Object.entries(value).slice(1)));
  }
  const others = candidates.filter((v) => !deepEqual(v, value) && v !== value);
  return fc.constantFrom(...others).map((v) => refusal(structuredClone(v), 'const'));
}

/** `codec.literal(v)`: `v`; refused with `const`: other values. */
export function literalDraft(c: LiteralCodec<null>): Draft {
  return { valid: fc.constant(c.value), refused: [otherValues(c.value)] };
}

/** `codec.constant(v)`: a copy of `v`; refused with `const`: values structurally different. */
export function constantDraft(c: ConstantCodec<JsonValue>): Draft {
  const value = c.value;
  return { valid: fc.constant(null).map(() => structuredClone(value)), refused: [otherValues(value)] };
}

/** `codec.eq(inner, v)`: a copy of the wire value of `v`; refused with `const`: other values. */
export function eqDraft(c: EqCodec<unknown>): Draft {
  const wire = c.wire;
  return { valid: fc.constant(null).map(() => structuredClone(wire)), refused: [otherValues(wire)] };
}

/** `codec.any()`: JSON values; it refuses nothing but what its constraints refuse. */
export function anyDraft(): Draft {
  return { valid: fc.jsonValue({ maxDepth: 2 }), refused: [] };
}

/** `codec.empty()`: `{}` (it decodes every value to `{}`); it refuses nothing. */
export function emptyDraft(): Draft {
  return { valid: fc.constant(null).map(() => ({})), refused: [] };
}
