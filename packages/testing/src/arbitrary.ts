/**
 * `arbitrary(codec, { valid })`: the walk over a codec tree that builds the fast-check
 * arbitraries of the wire values it accepts and of the ones it refuses.
 */
import {
  AnyValueCodec,
  ArrayCodec,
  BigIntCodec,
  BlobCodec,
  BoolStringCodec,
  BooleanCodec,
  BytesCodec,
  ConstantCodec,
  DateCodec,
  DefaultedCodec,
  DurationCodec,
  EmptyCodec,
  EqCodec,
  Float32Codec,
  HttpDateCodec,
  IntCodec,
  IntStringCodec,
  LazyCodec,
  LiteralCodec,
  MapCodec,
  MapValidatedCodec,
  NullableCodec,
  NumberCodec,
  NumberStringCodec,
  ObjectCodec,
  OptionalCodec,
  RecordCodec,
  StandardSchemaCodec,
  StreamCodec,
  StringCodec,
  TaggedUnionCodec,
  TimeCodec,
  UntaggedUnionCodec,
  type AnyCodec,
} from '@lib/codec';
import type * as fc from 'fast-check';
import { arrayDraft, innerDraft, mapDraft, nullableDraft, objectDraft, recordDraft, taggedUnionDraft, untaggedUnionDraft } from './composites.js';
import { finish } from './constraints.js';
import { describeCodec, UNBOUNDED, type Builder, type Draft, type Gen, type Walk } from './internal/gen.js';
import { Memo } from './internal/memo.js';
import { oneOf } from './internal/satisfying.js';
import {
  anyDraft,
  bigintDraft,
  blobDraft,
  booleanDraft,
  boolStringDraft,
  bytesDraft,
  constantDraft,
  dateDraft,
  durationDraft,
  emptyDraft,
  eqDraft,
  httpDateDraft,
  intStringDraft,
  numberStringDraft,
  literalDraft,
  numberDraft,
  stringDraft,
  timeDraft,
} from './leaves.js';
import { schemaDraft } from './json-schema-arbitrary.js';
import type { RefusedValue } from './refused-value.js';

/** Options of {@link arbitrary}. */
export interface ArbitraryOptions {
  /**
   * `true` (the default) for values the codec accepts; `false` for values it refuses, each
   * labelled with what it breaks ({@link RefusedValue}).
   */
  readonly valid?: boolean;
  /**
   * How many times a recursive codec (`codec.lazy`) may be entered on the way down, from 0; past
   * it, values are the smallest the codec allows (no optional field, the fewest items, `null` for
   * a nullable), and nothing is refused deeper. Default 3.
   */
  readonly maxDepth?: number;
}

/** Why a codec class cannot be generated, by kind. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  never: 'it admits no value (a route whose response is codec.never() answers only its declared errors)',
  stream:
    'a stream decodes to an iterable whose items are checked only as they are read, so decode neither accepts nor refuses them at once; generate its items with arbitrary(streamCodec.item)',
};

/** The builder of each codec class of `@lib/codec` (the class itself, not a subclass). */
const BUILDERS = new Map<unknown, Builder>([
  [StringCodec, stringDraft],
  [IntCodec, numberDraft],
  [NumberCodec, numberDraft],
  [Float32Codec, numberDraft],
  [BigIntCodec, bigintDraft],
  [IntStringCodec, intStringDraft],
  [NumberStringCodec, numberStringDraft],
  [BooleanCodec, booleanDraft],
  [BoolStringCodec, boolStringDraft],
  [BytesCodec, bytesDraft],
  [BlobCodec, blobDraft],
  [TimeCodec, timeDraft],
  [DateCodec, dateDraft],
  [DurationCodec, durationDraft],
  [HttpDateCodec, httpDateDraft],
  [LiteralCodec, literalDraft],
  [ConstantCodec, constantDraft],
  [EqCodec, eqDraft],
  [AnyValueCodec, anyDraft],
  [EmptyCodec, emptyDraft],
  [ObjectCodec, objectDraft],
  [ArrayCodec, arrayDraft],
  [RecordCodec, recordDraft],
  [TaggedUnionCodec, taggedUnionDraft],
  [UntaggedUnionCodec, untaggedUnionDraft],
  [NullableCodec, nullableDraft],
  [OptionalCodec, innerDraft],
  [DefaultedCodec, innerDraft],
  [MapCodec, mapDraft],
  [MapValidatedCodec, mapDraft],
]);

/**
 * The walk: one generator per codec and depth (a codec shared by several places is built once),
 * `lazy` one level deeper each time, and past `maxDepth` the smallest values only.
 */
class Walker implements Walk {
  terminal = false;
  private depth = 0;
  private readonly maxDepth: number;
  private readonly memo = new Map<string, Map<AnyCodec, Gen>>();
  /** The recursive codecs being entered past the depth limit: one met again has no finite value this way. */
  private readonly entered = new Set<AnyCodec>();

  /** True when only valid values are wanted: refusals are not built (nor probed). */
  private readonly validOnly: boolean;

  constructor(maxDepth: number, validOnly: boolean) {
    this.maxDepth = maxDepth;
    this.validOnly = validOnly;
  }

  gen(codec: AnyCodec): Gen {
    const level = this.terminal ? 'smallest' : String(this.depth);
    let byCodec = this.memo.get(level);
    if (byCodec === undefined) this.memo.set(level, (byCodec = new Map()));
    let g = byCodec.get(codec);
    if (g === undefined) {
      g = finish(codec, this.draft(codec), this.terminal || this.validOnly);
      byCodec.set(codec, g);
    }
    return g;
  }

  private draft(codec: AnyCodec): Draft {
    if (codec instanceof LazyCodec) return this.lazy(codec);
    const build = BUILDERS.get(codec.constructor);
    if (build !== undefined) return build(codec as never, this);
    const why = UNSUPPORTED[codec.kind];
    if (why !== undefined) throw new TypeError(`@lib/testing: cannot generate values of a codec of kind ${JSON.stringify(codec.kind)}: ${why}`);
    // A foreign schema (`codec.fromStandardSchema`, a zod, valibot or arktype schema given to a
    // route) or a class of your own: from its JSON Schema, judged by its decoding.
    return schemaDraft(codec, this, this.maxDepth, 'its class is not one of @lib/codec');
  }

  /** `codec.lazy(get)`: the resolved codec one level deeper; past the depth limit, its smallest values. */
  private lazy(codec: LazyCodec<unknown>): Draft {
    const resolved = codec.resolved;
    if (this.terminal) {
      if (this.entered.has(codec)) throw UNBOUNDED;
      this.entered.add(codec);
      try {
        return this.gen(resolved);
      } finally {
        this.entered.delete(codec);
      }
    }
    if (this.depth >= this.maxDepth) {
      this.terminal = true;
      this.entered.add(codec);
      try {
        return { valid: this.gen(resolved).valid, refused: [] };
      } catch (err) {
        if (err === UNBOUNDED) throw new TypeError(`@lib/testing: the recursive ${describeCodec(resolved)} has no finite value: every way down leads back to it`);
        throw err;
      } finally {
        this.terminal = false;
        this.entered.delete(codec);
      }
    }
    this.depth++;
    try {
      return this.gen(resolved);
    } finally {
      this.depth--;
    }
  }
}

/**
 * A fast-check arbitrary of the wire values `codec` accepts: what `codec.decode` takes (the
 * value `JSON.parse` gives for a JSON body; the text of a string-carried value such as
 * `codec.intString()` or `codec.time()`), with every constraint satisfied. Values are JSON
 * values (a `Blob` for `codec.blob()`), so they survive `JSON.stringify`.
 *
 * Values come from what the codec declares: its kind and fields (`shape`, wire names,
 * `unknownKeys`, items, variants, ranges) and its constraints' names and parameters
 * (`minLength`, `min`, `uuid`, `png`, …): lengths are counted in code points; numeric bounds
 * intersect; a string format (RFC 9562 UUIDs, RFC 3339 dates and times, RFC 3986 URIs, RFC 1123
 * host names, …) is generated, then kept when the other constraints hold. A constraint of your
 * own (`validate.constraint({ name, test })`) filters the candidates of the codec's type with
 * its `test`, trying at most 5000 candidates per value.
 *
 * A codec no builder knows — `codec.fromStandardSchema()` (a zod, valibot or arktype schema
 * given to a route) or a codec class of your own — is generated from its JSON Schema 2020-12
 * (the foreign schema's own): types, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, lengths, ranges, `multipleOf`, `pattern`, the formats email,
 * uuid, date-time, date, time, uri, hostname, ipv4 and ipv6, `anyOf`, `oneOf`, `allOf`, local
 * `$ref`s; a candidate is kept only when the codec decodes it. A parameter's schema
 * (`{ parameter: true }`) gets text.
 *
 * Recursive codecs (`codec.lazy`, a recursive `$ref`) are entered at most `maxDepth` times (default 3).
 *
 * @throws {TypeError} for a codec that cannot be generated: `codec.stream()` (its items are
 * checked as they are read, not by `decode`), a codec whose JSON Schema gives no candidate it
 * decodes; for constraints no generated candidate satisfies together (`minLength(5)` with
 * `maxLength(2)`); for a recursive codec with no finite value.
 */
export function arbitrary(codec: AnyCodec, options?: ArbitraryOptions & { readonly valid?: true }): fc.Arbitrary<unknown>;
/**
 * A fast-check arbitrary of wire values `codec` refuses, each a valid value with one place
 * changed and labelled with what it breaks: decoding `value` throws a `DecodeError` with exactly
 * one issue, of constraint `constraint` at `pointer` (see {@link RefusedValue}). Every stated
 * constraint that can be broken alone is broken (one too few code points for `minLength`, a
 * malformed UUID, a number out of range), and every structural check: a wrong JSON type or an
 * integer that is not one of the codec's width (`type`), a malformed date, duration or base64
 * text (`format`), a missing required field (`required`), an unknown key of a strict object
 * (`unknownKey`), a missing or unknown union tag (`discriminator`), a value no alternative of an
 * untagged union takes (`anyOf`), another value than a literal's (`const`), a mapping that throws
 * (`map`). A codec generated from its JSON Schema is broken keyword by keyword, each
 * refusal labelled with the keyword it breaks (`type`, `required`, `minLength`, `maxLength`,
 * `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minItems`,
 * `maxItems`, `pattern`, `format`, `enum`, `const`, `additionalProperties`, `anyOf`), and kept
 * only when the codec refuses it. A constraint that cannot be broken alone (`maxLength(36)` beside `uuid`) is not.
 *
 * @throws {TypeError} as for valid values, and when the codec refuses no value (`codec.any()`,
 * `codec.empty()` without constraints).
 */
export function arbitrary(codec: AnyCodec, options: ArbitraryOptions & { readonly valid: false }): fc.Arbitrary<RefusedValue>;
/** Either arbitrary, as `options.valid` says (see the other signatures). */
export function arbitrary(codec: AnyCodec, options?: ArbitraryOptions): fc.Arbitrary<unknown> | fc.Arbitrary<RefusedValue>;
// @__NO_SIDE_EFFECTS__
export function arbitrary(codec: AnyCodec, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> | fc.Arbitrary<RefusedValue> {
  const maxDepth = options.maxDepth ?? 3;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 0) throw new TypeError(`@lib/testing: maxDepth must be a non-negative integer, got ${String(maxDepth)}`);
  return BUILT.get(codec, `${maxDepth}:${options.valid !== false}`, () => build(codec, maxDepth, options.valid !== false));
}

/** Arbitraries built, by codec (codecs are immutable values; `refine` and the like make new ones). */
const BUILT = new Memo<AnyCodec, fc.Arbitrary<unknown> | fc.Arbitrary<RefusedValue>>();

function build(codec: AnyCodec, maxDepth: number, valid: boolean): fc.Arbitrary<unknown> | fc.Arbitrary<RefusedValue> {
  const gen = new Walker(maxDepth, valid).gen(codec);
  if (valid) return gen.valid;
  const refused = oneOf(gen.refused);
  if (refused === undefined) throw new TypeError(`@lib/testing: ${describeCodec(codec)} refuses no value that can be generated`);
  return refused;
}
