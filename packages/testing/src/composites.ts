/**
 * The drafts of composite codecs: objects, arrays, records, unions, and the wrappers
 * (`nullable`, `optional`, `defaulted`, `map`, `mapValidated`). A composite's valid values are
 * made of its children's valid values; each of its refusals is a valid value with one place
 * changed — its own type, a missing field, an unknown key, a broken tag, or one child's refusal
 * put in place.
 */
import {
  ArrayCodec,
  deepEqual,
  defineEntry,
  DefaultedCodec,
  isPlainObject,
  MapCodec,
  NullableCodec,
  ObjectCodec,
  OptionalCodec,
  RecordCodec,
  TaggedUnionCodec,
  UntaggedUnionCodec,
  type AnyCodec,
  type Shape,
} from '@lib/codec';
import * as fc from 'fast-check';
import { refuses, sizeBounds, structuralDecoder, wrongTypes, type AnyConstraint } from './constraints.js';
import { describeCodec, UNBOUNDED, type Draft, type Gen, type Walk } from './internal/gen.js';
import { nothing, oneOf, satisfying } from './internal/satisfying.js';
import { pointerOf, refusal, under, type RefusedValue } from './refused-value.js';

/** A shallow copy of a plain object that keeps every own key (`__proto__` included). */
function copyOf(o: unknown): Record<string, unknown> {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(o as object)) as Record<string, unknown>;
}

/** `o` with `key` set to `value`, as an own data property. */
function withEntry(o: unknown, key: string, value: unknown): Record<string, unknown> {
  const out = copyOf(o);
  defineEntry(out, key, value);
  return out;
}

/** A small JSON value: what an undeclared key of a stripping object holds. */
const smallJson = fc.jsonValue({ maxDepth: 1 });

/** Keys that are not `taken`, among them keys a pointer must escape and `__proto__`. */
function keysOutside(taken: ReadonlySet<string>): fc.Arbitrary<string> {
  return fc
    .oneof(fc.constantFrom('unknown', 'x-extra', 'a/b', '~c', '__proto__', 'constructor', ''), fc.string({ minLength: 1, maxLength: 6 }))
    .filter((k) => !taken.has(k));
}

// ---------------------------------------------------------------------------------------------
// Objects

/** Whether an object field's key may be absent: `optional(...)` or `defaulted(...)`, as `ObjectCodec` decides. */
function mayBeAbsent(c: AnyCodec): boolean {
  return c instanceof OptionalCodec || c.kind === 'defaulted';
}

interface Field {
  readonly wire: string;
  readonly absent: boolean;
  readonly kind: string;
  readonly gen: Gen;
}

/**
 * `codec.object(shape)`: every required field, the optional and defaulted ones or not (as many
 * as `minProperties`/`maxProperties` allow), under their wire names, and for a stripping object
 * sometimes undeclared keys. Refused: another type (`type`), a required field left out
 * (`required`), an undeclared key of a strict object (`unknownKey`), and each field's refusals
 * in place.
 */
export function objectDraft(c: ObjectCodec<Shape>, walk: Walk): Draft {
  const fields: Field[] = [];
  for (const key of Object.keys(c.shape)) {
    const codec = c.shape[key] as AnyCodec;
    const absent = mayBeAbsent(codec);
    // Past the depth limit only the fields that must be present are generated.
    if (walk.terminal && absent) continue;
    fields.push({ wire: c.wireName(key), absent, kind: codec.kind, gen: walk.gen(codec) });
  }
  const strict = c.unknownKeys === 'reject';
  const taken = new Set(c.wireKeys);
  const [minP, maxP] = sizeBounds(c.constraints as readonly AnyConstraint[], 'minProperties', 'maxProperties');
  // Keys of the decoded value: required and defaulted fields always, optional ones when present.
  const always = Object.values(c.shape).filter((f) => !(f instanceof OptionalCodec)).length;
  const optional = fields.flatMap((f, i) => (f.absent && f.kind === 'optional' ? [i] : []));
  const defaulted = fields.flatMap((f, i) => (f.absent && f.kind !== 'optional' ? [i] : []));
  const present = (min: number, max: number): fc.Arbitrary<number[]> => {
    const lo = Math.max(0, min - always);
    const hi = Math.min(optional.length, max - always);
    const some = lo <= hi ? fc.subarray(optional, { minLength: lo, maxLength: hi }) : fc.subarray(optional);
    return fc.tuple(some, fc.subarray(defaulted)).map(([a, b]) => [...a, ...b]);
  };
  const none = fc.constant(null).map((): [string, unknown][] => []);
  // A stripping object ignores undeclared keys: a value has some now and then.
  const extras = strict || walk.terminal ? none : fc.oneof({ weight: 3, arbitrary: none }, { weight: 1, arbitrary: fc.array(fc.tuple(keysOutside(taken), smallJson), { minLength: 1, maxLength: 2 }) });
  const values = fc.tuple(...fields.map((f) => f.gen.valid));
  const build = ([vals, on, extra]: [unknown[], number[], [string, unknown][]]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of extra) defineEntry(out, k, v);
    fields.forEach((f, i) => {
      if (!f.absent || on.includes(i)) defineEntry(out, f.wire, vals[i]);
    });
    return out;
  };
  const objects = (min: number, max: number): fc.Arbitrary<unknown> => fc.tuple(values, present(min, max), extras).map(build);
  const valid = objects(minP, maxP);
  if (walk.terminal) return { valid, refused: [] };

  const refused: fc.Arbitrary<RefusedValue>[] = [wrongTypes('x', 1, [], null, true)];
  const required = fields.filter((f) => !f.absent).map((f) => f.wire);
  if (required.length > 0) {
    refused.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([o, wire]) => {
        const out = copyOf(o);
        delete out[wire];
        return refusal(out, 'required', pointerOf(wire));
      }),
    );
  }
  if (strict) refused.push(fc.tuple(valid, keysOutside(taken), smallJson).map(([o, k, v]) => refusal(withEntry(o, k, v), 'unknownKey', pointerOf(k))));
  for (const f of fields) {
    const child = oneOf(f.gen.refused);
    if (child !== undefined) refused.push(fc.tuple(valid, child).map(([o, r]) => under(f.wire, withEntry(o, f.wire, r.value), r)));
  }
  return {
    valid,
    refused,
    near: (k) => (k.name === 'minProperties' || k.name === 'maxProperties' ? objects(0, Infinity) : undefined),
  };
}

// ---------------------------------------------------------------------------------------------
// Arrays

/**
 * `codec.array(item)`: arrays of valid items, of the `minItems`, `maxItems`, `nonEmpty` bounds
 * (at most 3 more items than the least), their decoded items distinct under `uniqueItems`.
 * Refused: another type (`type`) and each item's refusals at an index.
 */
export function arrayDraft(c: ArrayCodec<unknown>, walk: Walk): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const [lo, hi] = sizeBounds(constraints, 'minItems', 'maxItems');
  const unique = constraints.some((k) => k.name === 'uniqueItems');
  // Past the depth limit an array that may be empty is empty: its item need not be generated.
  if (walk.terminal && lo === 0) return { valid: fc.constant(null).map(() => []), refused: [] };
  const item = walk.gen(c.item);
  const decodeItem = structuralDecoder(c.item);
  const arrays = (min: number, max: number, distinct: boolean): fc.Arbitrary<unknown> => {
    if (min > max || min < 0) return nothing();
    if (!distinct) return fc.array(item.valid, { minLength: min, maxLength: max });
    // Items distinct as decoded values, as `uniqueItems` compares them.
    const decoded = item.valid.map((wire) => {
      const d = decodeItem(wire);
      return { wire, value: d.ok ? d.value : wire };
    });
    return fc
      .uniqueArray(decoded, { comparator: (a, b) => deepEqual(a.value, b.value), minLength: min, maxLength: max })
      .map((xs) => xs.map((x) => x.wire));
  };
  const max = Math.min(hi, lo + (walk.terminal ? 0 : 3));
  const valid = arrays(lo, max, unique);
  if (walk.terminal) return { valid, refused: [] };

  const refused: fc.Arbitrary<RefusedValue>[] = [wrongTypes('x', 1, {}, null, true)];
  const child = oneOf(item.refused);
  if (child !== undefined) {
    refused.push(
      fc.tuple(valid, child, fc.nat()).map(([a, r, n]) => {
        const out = [...(a as unknown[])];
        const at = out.length === 0 ? 0 : n % out.length;
        out[at] = r.value;
        return under(at, out, r);
      }),
    );
  }
  const duplicated = fc.tuple(valid, fc.nat(), fc.nat(), fc.boolean()).map(([a, i, j, insert]) => {
    const out = [...(a as unknown[])];
    if (out.length === 0) return out;
    const copy = structuredClone(out[i % out.length]);
    if (insert || out.length === 1) out.splice(j % (out.length + 1), 0, copy);
    else out[(i + 1 + (j % (out.length - 1))) % out.length] = copy;
    return out;
  });
  return {
    valid,
    refused,
    near: (k) => {
      const n = k.params?.[k.name];
      if (k.name === 'minItems' && typeof n === 'number') return arrays(Math.max(0, n - 2), n - 1, unique);
      if (k.name === 'maxItems' && typeof n === 'number') return arrays(n + 1, n + 2, unique);
      if (k.name === 'nonEmpty') return fc.constant(null).map(() => []);
      if (k.name === 'uniqueItems') return duplicated;
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Records

/**
 * `codec.record(value)` and `codec.record(key, value)`: objects of valid keys (texts the key
 * codec accepts) and valid values, as many as `minProperties`, `maxProperties`, `nonEmpty` allow.
 * Refused: another type (`type`), each value's refusals at a key, and each refusal of the key
 * codec that is a text, as a key.
 */
export function recordDraft(c: RecordCodec<unknown, string | number>, walk: Walk): Draft {
  const constraints = c.constraints as readonly AnyConstraint[];
  const [lo, hi] = sizeBounds(constraints, 'minProperties', 'maxProperties');
  if (walk.terminal && lo === 0) return { valid: fc.constant(null).map(() => ({})), refused: [] };
  const value = walk.gen(c.value);
  const key = c.key === undefined ? undefined : walk.gen(c.key);
  const keys: fc.Arbitrary<string> | undefined =
    key === undefined
      ? fc.oneof({ weight: 9, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'a/b', '~') })
      : (satisfying(key.valid, (k) => typeof k === 'string', `text key of ${describeCodec(c)}`) as fc.Arbitrary<string> | undefined);
  const records = (min: number, max: number): fc.Arbitrary<unknown> => {
    if (keys === undefined) return min <= 0 ? fc.constant(null).map(() => ({})) : nothing();
    if (min > max || min < 0) return nothing();
    return fc
      .uniqueArray(fc.tuple(keys, value.valid), { selector: (e) => e[0], minLength: min, maxLength: max })
      .map((entries) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of entries) defineEntry(out, k, v);
        return out;
      });
  };
  const valid = records(lo, Math.min(hi, lo + (walk.terminal ? 0 : 3)));
  if (walk.terminal) return { valid, refused: [] };

  const refused: fc.Arbitrary<RefusedValue>[] = [wrongTypes('x', 1, [], null, true)];
  const valueRefused = oneOf(value.refused);
  if (valueRefused !== undefined && keys !== undefined) {
    refused.push(fc.tuple(valid, keys, valueRefused).map(([o, k, r]) => under(k, withEntry(o, k, r.value), r)));
  }
  const keyRefused = key === undefined ? undefined : oneOf(key.refused);
  if (keyRefused !== undefined) {
    const textKeys = satisfying(keyRefused, (r) => typeof r.value === 'string' && r.pointer === '', `refused text key of ${describeCodec(c)}`);
    if (textKeys !== undefined) {
      refused.push(fc.tuple(valid, textKeys, value.valid).map(([o, r, v]) => refusal(withEntry(o, r.value as string, v), r.constraint, pointerOf(r.value as string))));
    }
  }
  return {
    valid,
    refused,
    near: (k) => {
      const n = k.params?.[k.name];
      if (k.name === 'minProperties' && typeof n === 'number') return records(Math.max(0, n - 2), n - 1);
      if (k.name === 'maxProperties' && typeof n === 'number') return records(n + 1, n + 2);
      if (k.name === 'nonEmpty') return fc.constant(null).map(() => ({}));
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Unions

/** Tag values no variant has: unknown texts, prototype names, other types. */
const strangerTags = fc.constantFrom<unknown>('unknown', '', 'toString', '__proto__', 'constructor', 1, null, true, ['a']);

/**
 * `codec.taggedUnion(tag, variants)`: each variant's valid objects with `[tag]` set to its key
 * (a variant that declares the tag with a codec refusing its key is left out). Refused: another
 * type (`type`), no tag or a tag no variant has (`discriminator` at `/tag`), and each variant's
 * refusals inside the object, tagged.
 */
export function taggedUnionDraft(c: TaggedUnionCodec<string, Record<string, ObjectCodec<Shape>>>, walk: Walk): Draft {
  const tag = c.tag;
  const tagPointer = pointerOf(tag);
  const variants: { key: string; gen: Gen }[] = [];
  for (const key of Object.keys(c.variants)) {
    const variant = c.variants[key] as ObjectCodec<Shape>;
    if (variant.wireKeys.has(tag)) {
      // The variant reads the tag itself: its field codec must take the key.
      const field = Object.keys(variant.shape).find((k) => variant.wireName(k) === tag) as string;
      if (refuses(variant.shape[field] as AnyCodec, key)) continue;
    }
    try {
      variants.push({ key, gen: walk.gen(variant) });
    } catch (err) {
      if (err !== UNBOUNDED || !walk.terminal) throw err;
    }
  }
  if (variants.length === 0) {
    if (walk.terminal) throw UNBOUNDED;
    return { valid: nothing(), refused: [] };
  }
  const tagged = variants.map(({ key, gen }) => gen.valid.map((o) => withEntry(o, tag, key)));
  const valid = oneOf(tagged) as fc.Arbitrary<unknown>;
  if (walk.terminal) return { valid, refused: [] };

  const refused: fc.Arbitrary<RefusedValue>[] = [
    wrongTypes('x', 1, [], null, true),
    fc.tuple(valid, fc.option(strangerTags, { nil: undefined })).map(([o, t]) => {
      const out = copyOf(o);
      if (t === undefined) delete out[tag];
      else defineEntry(out, tag, t);
      return refusal(out, 'discriminator', tagPointer);
    }),
  ];
  for (const { key, gen } of variants) {
    const inner = oneOf(gen.refused);
    if (inner === undefined) continue;
    // Refusals that are objects and leave the tag alone: the union hands the variant the object.
    const inside = satisfying(
      inner,
      (r) => isPlainObject(r.value) && r.pointer !== tagPointer && !r.pointer.startsWith(`${tagPointer}/`),
      `refusal of variant ${JSON.stringify(key)} of ${describeCodec(c)}`,
    );
    if (inside !== undefined) refused.push(inside.map((r) => ({ ...r, value: withEntry(r.value, tag, key) })));
  }
  return { valid, refused };
}

/**
 * `codec.untaggedUnion(...codecs)`: each alternative's valid values. Refused with `anyOf` (the
 * one issue the union reports): the alternatives' refusals and small JSON values that every
 * alternative refuses (each checked with the alternatives' `decode`).
 */
export function untaggedUnionDraft(c: UntaggedUnionCodec<readonly AnyCodec[]>, walk: Walk): Draft {
  const alternatives: Gen[] = [];
  for (const codec of c.codecs) {
    try {
      alternatives.push(walk.gen(codec));
    } catch (err) {
      if (err !== UNBOUNDED || !walk.terminal) throw err;
    }
  }
  if (alternatives.length === 0) throw UNBOUNDED;
  const valid = oneOf(alternatives.map((a) => a.valid)) as fc.Arbitrary<unknown>;
  if (walk.terminal) return { valid, refused: [] };
  const candidates = fc.oneof(fc.jsonValue({ maxDepth: 1 }), ...alternatives.flatMap((a) => a.refused).map((r) => r.map((x) => x.value)));
  const none = satisfying(candidates, (v) => c.codecs.every((codec) => refuses(codec, v)), `value every alternative of ${describeCodec(c)} refuses`);
  return { valid, refused: none === undefined ? [] : [none.map((v) => refusal(v, 'anyOf'))] };
}

// ---------------------------------------------------------------------------------------------
// Wrappers

/** `codec.nullable(inner)`: `null` or the inner codec's values; refused: the inner refusals but `null`. */
export function nullableDraft(c: NullableCodec<unknown>, walk: Walk): Draft {
  if (walk.terminal) return { valid: fc.constant(null), refused: [] };
  const inner = walk.gen(c.inner);
  return {
    valid: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: inner.valid }),
    refused: keptRefusals(inner.refused, (x) => x.value !== null, `refusal of ${describeCodec(c.inner)} other than null`),
  };
}

/**
 * `codec.optional(inner)`, `codec.defaulted(inner, v)`: the inner codec's values and refusals
 * (an enclosing object leaves the key out sometimes; alone, `undefined` is not generated, as JSON
 * has none).
 */
export function innerDraft(c: OptionalCodec<unknown> | DefaultedCodec<unknown>, walk: Walk): Draft {
  const inner = walk.gen(c.inner);
  return { valid: inner.valid, refused: keptRefusals(inner.refused, (x) => x.value !== undefined, `refusal of ${describeCodec(c.inner)} other than undefined`) };
}

/** Each refusal option kept to the values `keep` accepts (bounded, see `satisfying`); an option with none left is dropped. */
function keptRefusals(refused: readonly fc.Arbitrary<RefusedValue>[], keep: (r: RefusedValue) => boolean, what: string): fc.Arbitrary<RefusedValue>[] {
  return refused.map((r) => satisfying(r, keep, what)).filter((r): r is fc.Arbitrary<RefusedValue> => r !== undefined);
}

/**
 * `codec.map(inner, decode, encode)`, `codec.mapValidated(...)`: the inner codec's values whose
 * mapping does not throw. Refused: the inner refusals, and inner values whose mapping throws
 * (`map`).
 */
export function mapDraft(c: MapCodec<unknown, unknown>, walk: Walk): Draft {
  const inner = walk.gen(c.inner);
  const decode = structuralDecoder(c);
  const valid = satisfying(inner.valid, (w) => decode(w).ok, `value of ${describeCodec(c)} whose mapping succeeds`);
  if (valid === undefined) throw new TypeError(`@lib/testing: cannot generate a value of ${describeCodec(c)}: its mapping throws on every value of its inner codec`);
  const refused = [...inner.refused];
  if (!walk.terminal) {
    const throwing = satisfying(inner.valid, (w) => !decode(w).ok, `value of ${describeCodec(c)} whose mapping throws`);
    if (throwing !== undefined) refused.push(throwing.map((v) => refusal(v, 'map')));
  }
  return { valid, refused };
}
