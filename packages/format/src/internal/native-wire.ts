import {
  ArrayCodec,
  BigIntCodec,
  DefaultedCodec,
  defineEntry,
  EqCodec,
  isPlainObject,
  LazyCodec,
  MapCodec,
  NullableCodec,
  ObjectCodec,
  OptionalCodec,
  RecordCodec,
  TaggedUnionCodec,
  type Codec,
  type Shape,
} from '@lib/codec';

/**
 * Codec-directed rewriting of wire values, for formats whose data model is richer than JSON's
 * (CBOR byte strings and 64-bit integers, TOML and YAML integers). The walk follows the codec
 * tree where it tells unambiguously what a wire value is — object fields (under their wire
 * names), tagged-union variants, array items, record values, and through `optional`,
 * `defaulted`, `nullable`, `lazy`, `eq`, `map` and `mapValidated` — and calls `leaf` at codecs
 * `isLeaf` selects. It does not enter untagged unions, `any()`, `constant`, `empty()` or Standard
 * Schema codecs: values there stay as they are. Containers are copied where something changes
 * (wire values may be shared with the codec, as `eq` does); the input is never mutated.
 */
export interface WireRewrite {
  /** True for the codecs whose wire values `leaf` rewrites. */
  readonly isLeaf: (codec: Codec<unknown>) => boolean;
  /** The replacement of `wire` at a leaf codec (return `wire` to keep it). */
  readonly leaf: (codec: Codec<unknown>, wire: unknown) => unknown;
}

const hasOwn = Object.prototype.hasOwnProperty;
const relevance = new WeakMap<WireRewrite, WeakMap<Codec<unknown>, boolean>>();

/** True when some codec reachable from `codec` is a leaf of `rw` (memoised per root codec). */
function reaches(rw: WireRewrite, codec: Codec<unknown>): boolean {
  let memo = relevance.get(rw);
  if (memo === undefined) relevance.set(rw, (memo = new WeakMap()));
  let known = memo.get(codec);
  if (known === undefined) {
    const seen = new Set<Codec<unknown>>();
    const visit = (c: Codec<unknown>): boolean => {
      if (seen.has(c)) return false;
      seen.add(c);
      return rw.isLeaf(c) || c.children().some(visit);
    };
    memo.set(codec, (known = visit(codec)));
  }
  return known;
}

/**
 * `wire` with the leaves of `rw` rewritten along `codec`. Returns `wire` itself when the codec
 * has no leaf of `rw` or nothing changed; a value nested deeper than the stack allows is returned
 * unchanged (decoding it reports the depth).
 */
export function rewriteWire(rw: WireRewrite, codec: Codec<unknown>, wire: unknown): unknown {
  if (!reaches(rw, codec)) return wire;
  try {
    return walk(rw, codec, wire);
  } catch (err) {
    if (err instanceof RangeError) return wire;
    throw err;
  }
}

function walk(rw: WireRewrite, c: Codec<unknown>, w: unknown): unknown {
  if (w === undefined || w === null) return w;
  if (rw.isLeaf(c)) return rw.leaf(c, w);
  if (c instanceof ObjectCodec) return walkObject(rw, c as ObjectCodec<Shape>, w);
  if (c instanceof TaggedUnionCodec) {
    if (!isPlainObject(w)) return w;
    const variants = c.variants as Readonly<Record<string, ObjectCodec<Shape>>>;
    const tag: unknown = hasOwn.call(w, c.tag) ? w[c.tag] : undefined;
    if (typeof tag !== 'string' || !hasOwn.call(variants, tag)) return w;
    return walkObject(rw, variants[tag] as ObjectCodec<Shape>, w);
  }
  if (c instanceof ArrayCodec) {
    if (!Array.isArray(w)) return w;
    const item = c.item as Codec<unknown>;
    let out: unknown[] | undefined;
    for (let i = 0; i < w.length; i++) {
      const v = walk(rw, item, w[i]);
      if (v !== w[i]) (out ??= w.slice())[i] = v;
    }
    return out ?? w;
  }
  if (c instanceof RecordCodec) {
    if (!isPlainObject(w)) return w;
    const value = c.value as Codec<unknown>;
    let out: Record<string, unknown> | undefined;
    for (const k of Object.keys(w)) {
      const v = walk(rw, value, w[k]);
      if (v !== w[k]) defineEntry((out ??= { ...w }), k, v);
    }
    return out ?? w;
  }
  if (
    c instanceof OptionalCodec ||
    c instanceof DefaultedCodec ||
    c instanceof NullableCodec ||
    c instanceof LazyCodec ||
    c instanceof EqCodec ||
    c instanceof MapCodec
  ) {
    const inner = c.children()[0];
    return inner === undefined ? w : walk(rw, inner, w);
  }
  return w;
}

function walkObject(rw: WireRewrite, c: ObjectCodec<Shape>, w: unknown): unknown {
  if (!isPlainObject(w)) return w;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(c.shape)) {
    const wk = c.wireName(key);
    if (!hasOwn.call(w, wk)) continue;
    const field = c.shape[key] as Codec<unknown>;
    const v = walk(rw, field, w[wk]);
    if (v !== w[wk]) defineEntry((out ??= { ...w }), wk, v);
  }
  return out ?? w;
}

/**
 * Reading a format with native integers (CBOR, TOML, YAML): at `int64()` and `uint64()`, whose
 * JSON wire value is decimal text, an integer — a safe-integer `number` or a `bigint` — becomes
 * its decimal text, so both `id = 42` and `id = "42"` decode.
 */
export const NATIVE_INTEGERS: WireRewrite = {
  isLeaf: (c) => c instanceof BigIntCodec,
  leaf: (_c, w) => (typeof w === 'bigint' || (typeof w === 'number' && Number.isSafeInteger(w)) ? String(w) : w),
};
