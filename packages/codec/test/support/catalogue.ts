import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import fc from 'fast-check';
import * as v from 'valibot';
import { z } from 'zod';
import * as codec from '../../src/index.js';
import { entry, wireOrNull, type Entry } from './entry.js';
import { dateText, dateTimeText, durationMs, durationText, integerText } from './texts.js';
import { junk } from './wire.js';

const int = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max });
const edges = (min: number, max: number): fc.Arbitrary<number> =>
  fc.constantFrom(min, max, min - 1, max + 1, min + 0.5, 2 ** 53, -(2 ** 53), 1e300);

/** Instants RFC 3339 can write: the years 0000 to 9999. */
const instant = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
/** Finite doubles other than −0 (JSON has no −0). */
const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));

/** The JSON values `any()` and `constant` deal in. */
const json = fc.jsonValue({ maxDepth: 3 }).map((x) => JSON.parse(JSON.stringify(x)) as unknown);

const zodUser = z.object({
  name: z.string().min(1).max(20),
  age: z.int().min(0).optional(),
  role: z.enum(['admin', 'user']),
  tags: z.array(z.string()).max(3),
  nick: z.string().nullable(),
});
const arkUser = type({ name: 'string > 0', 'age?': 'number.integer >= 0', tags: 'string[]' });
const valibotUser = toStandardJsonSchema(
  v.object({ name: v.pipe(v.string(), v.minLength(1)), score: v.pipe(v.number(), v.integer(), v.minValue(0)), ok: v.boolean() }),
);

/** The scalar and leaf codecs of the catalogue, each with its value domain. */
export const scalars: readonly Entry[] = [
  entry({ name: 'string', codec: codec.string(), valid: fc.string({ unit: 'binary' }), wireKind: 'string' }),
  entry({ name: 'int', codec: codec.int(), valid: fc.maxSafeInteger(), extraWire: edges(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), wireKind: 'number' }),
  entry({ name: 'int8', codec: codec.int8(), valid: int(-128, 127), extraWire: edges(-128, 127), wireKind: 'number' }),
  entry({ name: 'int16', codec: codec.int16(), valid: int(-32768, 32767), extraWire: edges(-32768, 32767), wireKind: 'number' }),
  entry({ name: 'int32', codec: codec.int32(), valid: int(-(2 ** 31), 2 ** 31 - 1), extraWire: edges(-(2 ** 31), 2 ** 31 - 1), wireKind: 'number' }),
  entry({ name: 'uint', codec: codec.uint(), valid: int(0, Number.MAX_SAFE_INTEGER), extraWire: edges(0, Number.MAX_SAFE_INTEGER), wireKind: 'number' }),
  entry({ name: 'uint8', codec: codec.uint8(), valid: int(0, 255), extraWire: edges(0, 255), wireKind: 'number' }),
  entry({ name: 'uint16', codec: codec.uint16(), valid: int(0, 65535), extraWire: edges(0, 65535), wireKind: 'number' }),
  entry({ name: 'uint32', codec: codec.uint32(), valid: int(0, 2 ** 32 - 1), extraWire: edges(0, 2 ** 32 - 1), wireKind: 'number' }),
  entry({ name: 'int64', codec: codec.int64(), valid: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), extraWire: integerText, wireKind: 'string' }),
  entry({ name: 'uint64', codec: codec.uint64(), valid: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), extraWire: integerText, wireKind: 'string' }),
  entry({ name: 'number', codec: codec.number(), valid: double, wireKind: 'number' }),
  entry({
    name: 'float32',
    codec: codec.float32(),
    valid: fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x)), fc.double({ min: -3.4e38, max: 3.4e38, noNaN: true }).map((x) => (x === 0 ? 0 : x))),
    extraWire: fc.constantFrom(3.4028234663852886e38, -3.4028234663852886e38, 3.4028235677973366e38, 3.5e38, -1e39, 1e308),
    wireKind: 'number',
  }),
  entry({ name: 'boolean', codec: codec.boolean(), valid: fc.boolean(), wireKind: 'boolean' }),
  entry({
    name: 'bytes',
    codec: codec.bytes(),
    valid: fc.uint8Array({ maxLength: 12 }),
    extraWire: fc.constantFrom('AA=', 'AA==', 'AB==', 'A===', '====', 'AAAA\n', 'AAAA\nAA', 'AA-_', 'AAA=AAAA', ''),
    wireKind: 'string',
  }),
  entry({
    name: 'time',
    codec: codec.time(),
    valid: instant,
    extraWire: dateTimeText,
    wireKind: 'string',
    // `format: 'date-time'` checks the text; the decoder also refuses the instants an offset moves
    // out of the years 0000–9999, which only date-times of the first and last day can name.
    within: (w) => typeof w !== 'string' || !/^(?:0000-01-01|9999-12-31).*[+-]\d\d:\d\d$/.test(w),
  }),
  entry({
    name: 'date',
    codec: codec.date(),
    valid: fc.integer({ min: -62167219200000 / 86400000, max: 253402214400000 / 86400000 }).map((d) => new Date(d * 86400000)),
    extraWire: dateText,
    wireKind: 'string',
  }),
  entry({
    name: 'httpDate',
    codec: codec.httpDate(),
    valid: fc.integer({ min: 0, max: 253402300799 }).map((s) => new Date(s * 1000)),
    extraWire: fc.constantFrom('Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994', 'Sun, 6 Nov 1994 08:49:37 GMT', '1994-11-06T08:49:37Z', 'Sun, 06 Nov 1994 08:49:37 UTC', 'Mon, 30 Feb 1994 08:49:37 GMT', ''),
    wireKind: 'string',
    exact: 'its pattern states the three forms and the range of each field, not which days each month has (30 February matches it, and the decoder refuses it)',
  }),
  entry({
    name: 'duration',
    codec: codec.duration(),
    valid: fc.integer({ min: 0, max: 1e12 }).map((s) => s * 1000),
    extraWire: durationText,
    wireKind: 'string',
    // The pattern bounds each unit's digits; the decoder also refuses totals past 2^53 − 1 ms.
    within: (w) => typeof w !== 'string' || durationMs(w) <= BigInt(Number.MAX_SAFE_INTEGER),
  }),
  entry({ name: 'any', codec: codec.any(), valid: json, wireKind: 'mixed' }),
  entry({ name: 'literal("a")', codec: codec.literal('a'), valid: fc.constant('a'), wireKind: 'string' }),
  entry({ name: 'literal(1.5)', codec: codec.literal(1.5), valid: fc.constant(1.5), wireKind: 'number' }),
  entry({ name: 'literal(null)', codec: codec.literal(null), valid: fc.constant(null), wireKind: 'null' }),
  entry({ name: 'literal(true)', codec: codec.literal(true), valid: fc.constant(true), wireKind: 'boolean' }),
  entry({
    name: 'constant',
    codec: codec.constant({ v: 1, list: ['x', null], nested: { ok: true } }),
    valid: fc.constant({ v: 1, list: ['x', null], nested: { ok: true } }),
    extraWire: fc.constantFrom({ nested: { ok: true }, list: ['x', null], v: 1 }, { v: 1, list: ['x'], nested: { ok: true } }, { v: 1.0, list: ['x', null], nested: { ok: true }, more: 1 }),
    wireKind: 'object',
  }),
  entry({
    name: 'eq(time, epoch)',
    codec: codec.eq(codec.time(), new Date(0)),
    valid: fc.constant(new Date(0)),
    extraWire: fc.constantFrom('1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00Z', '1970-01-01T01:00:00.000+01:00'),
    wireKind: 'string',
  }),
  entry({ name: 'intString', codec: codec.intString(), valid: fc.maxSafeInteger(), extraWire: integerText, wireKind: 'string' }),
  entry({ name: 'boolString', codec: codec.boolString(), valid: fc.boolean(), extraWire: fc.constantFrom('true', 'false', 'TRUE', '1', ' true'), wireKind: 'string' }),
  entry({
    name: 'map(intString → bigint)',
    codec: codec.map(codec.intString(), (n) => BigInt(n), (b) => Number(b)),
    valid: fc.bigInt({ min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) }),
    extraWire: integerText,
    wireKind: 'string',
  }),
  entry({
    name: 'mapValidated(string ↔ code point list)',
    codec: codec.mapValidated(
      codec.string(),
      (s) => Array.from(s, (c) => c.codePointAt(0) as number),
      (cps) => String.fromCodePoint(...cps),
    ),
    valid: fc.string({ unit: 'grapheme' }).map((s) => Array.from(s, (c) => c.codePointAt(0) as number)),
    wireKind: 'string',
  }),
  entry({
    name: 'fromStandardSchema(zod)',
    codec: codec.fromStandardSchema(zodUser),
    valid: fc.record(
      {
        name: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme-ascii' }),
        age: fc.nat(),
        role: fc.constantFrom('admin' as const, 'user' as const),
        tags: fc.array(fc.string(), { maxLength: 3 }),
        nick: fc.option(fc.string(), { nil: null }),
      },
      { requiredKeys: ['name', 'role', 'tags', 'nick'] },
    ),
    wireKind: 'object',
  }),
  entry({
    name: 'fromStandardSchema(arktype)',
    codec: codec.fromStandardSchema(arkUser),
    valid: fc.record({ name: fc.string({ minLength: 1, unit: 'grapheme-ascii' }), age: fc.nat(), tags: fc.array(fc.string()) }, { requiredKeys: ['name', 'tags'] }),
    wireKind: 'object',
  }),
  entry({
    name: 'fromStandardSchema(valibot)',
    codec: codec.fromStandardSchema(valibotUser),
    valid: fc.record({ name: fc.string({ minLength: 1, unit: 'grapheme-ascii' }), score: fc.nat(), ok: fc.boolean() }),
    wireKind: 'object',
  }),
  entry({
    name: 'empty',
    codec: codec.empty(),
    valid: fc.constant({}),
    wireKind: 'object',
    exact: 'empty() stands for "no body": it decodes any input (usually none) to {}, while its schema documents an object',
  }),
];

/** A recursive codec: a tree of named nodes. */
export interface Tree {
  name: string;
  children: Tree[];
}
const tree: codec.Codec<Tree> = codec.object({
  name: codec.string(),
  children: codec.array(codec.lazy(() => tree)),
});
const treeValue: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; children: Tree[] }>((tie) => ({
  node: fc.record({ name: fc.string({ maxLength: 3 }), children: tie('children') }),
  children: fc.oneof({ depthSize: 'small', maxDepth: 4 }, fc.constant<Tree[]>([]), fc.array(tie('node'), { minLength: 1, maxLength: 2 })),
})).node;

/** A recursive codec, unnamed and named. */
export const recursive: readonly Entry[] = [
  entry({ name: 'lazy tree', codec: tree, valid: treeValue, wireKind: 'object' }),
  entry({ name: 'lazy tree (named)', codec: codec.lazy(() => tree).withName('Tree'), valid: treeValue, wireKind: 'object' }),
];

let names = 0;
/** A fresh schema name, so random composites never collide. */
function freshName(): string {
  return `Schema${++names}`;
}

/** Field names, including keys that must never reach a prototype and one needing escaping. */
const FIELD_NAMES = ['a', 'b', 'user_id', '__proto__', 'constructor', 'x/y~z'] as const;
/**
 * Field names for the oracle: without `__proto__`, because Ajv 8 ignores a `__proto__` entry of
 * `properties` (it neither validates it nor counts it as declared for `additionalProperties`), so
 * on such schemas the oracle's answer is Ajv's bug. Inputs still carry `__proto__` keys.
 */
const ORACLE_FIELD_NAMES = FIELD_NAMES.filter((k) => k !== '__proto__');

/** `array(e)`. */
export function arrayOf(e: Entry): Entry {
  return entry({
    name: `array(${e.name})`,
    codec: codec.array(e.codec),
    valid: fc.array(e.valid, { maxLength: 3 }),
    wire: fc.oneof(fc.array(e.wire, { maxLength: 3 }), fc.array(e.valid.map((x) => wireOrNull(e.codec, x)), { maxLength: 3 }), junk),
    wireKind: 'array',
    exact: e.exact,
  });
}

/** `nullable(e)`. */
export function nullableOf(e: Entry): Entry {
  return entry({
    name: `nullable(${e.name})`,
    codec: codec.nullable(e.codec),
    valid: fc.option(e.valid, { nil: null, freq: 3 }),
    wire: fc.oneof(fc.constant(null), e.wire),
    wireKind: e.wireKind === 'null' ? 'null' : 'mixed',
    exact: e.exact,
  });
}

/** `record(e)` and `record(intString(), e)`. */
export function recordOf(e: Entry, keyed: boolean): Entry {
  const keys = keyed ? fc.integer({ min: -99, max: 99 }).map(String) : fc.constantFrom('k', '__proto__', 'constructor', '', 'é');
  const wireKeys = keyed ? fc.oneof(keys, fc.constantFrom('01', '-0', 'x', '1.5')) : keys;
  const build = (pairs: [string, unknown][]): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    for (const [k, x] of pairs) Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
    return o;
  };
  return entry({
    name: keyed ? `record(intString, ${e.name})` : `record(${e.name})`,
    codec: keyed ? codec.record(codec.intString(), e.codec) : codec.record(e.codec),
    valid: fc.uniqueArray(fc.tuple(keys, e.valid), { selector: (p) => p[0], maxLength: 3 }).map(build),
    wire: fc.oneof(fc.uniqueArray(fc.tuple(wireKeys, e.wire), { selector: (p) => p[0], maxLength: 3 }).map(build), junk),
    wireKind: 'object',
    exact: e.exact,
  });
}

type FieldMode = 'required' | 'optional' | 'defaulted';
interface FieldPlan {
  readonly key: string;
  readonly e: Entry;
  readonly mode: FieldMode;
  readonly dflt: unknown;
  readonly wireName: string | undefined;
}

/** A plan for an object codec: 0–3 fields with modes, maybe wire names, strict or not, maybe named. */
export function objectPlan(fields: fc.Arbitrary<Entry>, names: readonly string[] = FIELD_NAMES): fc.Arbitrary<Entry> {
  const field = (key: string): fc.Arbitrary<FieldPlan> =>
    fields.chain((e) =>
      fc.record({
        key: fc.constant(key),
        e: fc.constant(e),
        mode: fc.constantFrom<FieldMode>('required', 'optional', 'defaulted'),
        dflt: e.valid,
        wireName: fc.option(fc.constantFrom(`wire_${key}`, `${key}-w`), { nil: undefined }),
      }),
    );
  return fc
    .tuple(fc.subarray([...names], { maxLength: 3 }), fc.boolean(), fc.boolean())
    .chain(([keys, strict, named]) => fc.tuple(fc.tuple(...keys.map(field)), fc.constant(strict), fc.constant(named)))
    .map(([plans, strict, named]) => objectOf(plans, strict, named));
}

/** An object entry from field plans. */
export function objectOf(plans: readonly FieldPlan[], strict: boolean, named: boolean): Entry {
  const shape: Record<string, codec.Codec<unknown>> = {};
  const wireNames: Record<string, string> = {};
  for (const p of plans) {
    const c = p.e.codec;
    const field = p.mode === 'optional' ? codec.optional(c) : p.mode === 'defaulted' ? codec.defaulted(c, p.dflt) : c;
    Object.defineProperty(shape, p.key, { value: field, enumerable: true });
    if (p.wireName !== undefined) Object.defineProperty(wireNames, p.key, { value: p.wireName, enumerable: true });
  }
  let c = codec.object(shape).withWireNames(wireNames);
  if (strict) c = c.strict();
  if (named) c = c.withName(freshName());
  const define = (o: Record<string, unknown>, k: string, x: unknown): void => {
    Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  };
  const valid = fc.tuple(...plans.map((p) => (p.mode === 'optional' ? fc.option(p.e.valid, { nil: undefined }) : p.e.valid))).map((values) => {
    const o: Record<string, unknown> = {};
    plans.forEach((p, i) => {
      if (values[i] !== undefined) define(o, p.key, values[i]);
    });
    return o;
  });
  const absent = Symbol('absent');
  const wire = fc
    .tuple(
      fc.tuple(...plans.map((p) => fc.oneof({ weight: 1, arbitrary: fc.constant<unknown>(absent) }, { weight: 4, arbitrary: p.e.wire }))),
      fc.option(fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'a'), junk), { nil: undefined, freq: 3 }),
      fc.boolean(),
    )
    .map(([values, extra, useKey]) => {
      const o: Record<string, unknown> = {};
      plans.forEach((p, i) => {
        // Sometimes send the property name instead of the wire name: a near miss.
        if (values[i] !== absent) define(o, useKey || p.wireName === undefined ? (p.wireName ?? p.key) : p.key, values[i]);
      });
      if (extra !== undefined) define(o, extra[0], extra[1]);
      return o;
    });
  const inexact = plans.map((p) => p.e.exact).find((x) => x !== true);
  const label = plans.map((p) => `${p.key}${p.mode === 'optional' ? '?' : p.mode === 'defaulted' ? '=' : ''}: ${p.e.name}`).join(', ');
  return entry({
    name: `object({ ${label} })${strict ? '.strict()' : ''}`,
    codec: c,
    valid,
    wire: fc.oneof({ weight: 3, arbitrary: wire }, { weight: 2, arbitrary: valid.map((x) => wireOrNull(c, x)) }, { weight: 1, arbitrary: junk }),
    wireKind: 'object',
    exact: inexact ?? true,
  });
}

/** A tagged union of 1–3 object entries under `kind`. */
export function taggedOf(objects: fc.Arbitrary<Entry>): fc.Arbitrary<Entry> {
  return fc
    .tuple(fc.uniqueArray(fc.constantFrom('circle', 'square', 'x/y', '__proto__'), { minLength: 1, maxLength: 3 }), fc.constantFrom('kind', 'type'))
    .chain(([tags, tagName]) => fc.tuple(fc.constant(tags), fc.constant(tagName), fc.tuple(...tags.map(() => objects))))
    .map(([tags, tagName, variants]) => {
      const vs: Record<string, codec.ObjectCodec<codec.Shape>> = {};
      tags.forEach((t, i) => {
        Object.defineProperty(vs, t, { value: (variants[i] as Entry).codec, enumerable: true, writable: true, configurable: true });
      });
      const c = codec.taggedUnion(tagName, vs) as unknown as codec.Codec<unknown>;
      const valid = fc.integer({ min: 0, max: tags.length - 1 }).chain((i) =>
        (variants[i] as Entry).valid.map((x) => ({ [tagName]: tags[i], ...(x as object) })),
      );
      const wire = fc.oneof(
        valid.map((x) => wireOrNull(c, x)),
        fc.tuple(fc.integer({ min: 0, max: tags.length - 1 }), fc.constantFrom(...tags, 'oval', undefined, 1)).chain(([i, tag]) =>
          (variants[i] as Entry).wire.map((w) => (typeof w === 'object' && w !== null && !Array.isArray(w) ? { ...w, [tagName]: tag } : w)),
        ),
        junk,
      );
      const inexact = variants.map((x) => x.exact).find((x) => x !== true);
      return entry({
        name: `taggedUnion(${tagName}, { ${tags.map((t, i) => `${t}: ${(variants[i] as Entry).name}`).join(', ')} })`,
        codec: c,
        valid,
        wire: wire.map((w) => JSON.parse(JSON.stringify(w)) as unknown),
        wireKind: 'object',
        exact: inexact ?? true,
      });
    });
}

/** An untagged union of 1–3 entries. */
export function unionOf(members: readonly Entry[]): Entry {
  const c = codec.untaggedUnion(...members.map((m) => m.codec));
  const inexact = members.map((x) => x.exact).find((x) => x !== true);
  return entry({
    name: `untaggedUnion(${members.map((m) => m.name).join(', ')})`,
    codec: c,
    valid: fc.oneof(...members.map((m) => m.valid)),
    wire: fc.oneof(...members.map((m) => m.wire)),
    wireKind: 'mixed',
    exact: inexact ?? true,
  });
}

/** Leaves usable inside composites (`empty()` means "no body" and is only a root codec). */
const leaves: readonly Entry[] = [...scalars.filter((e) => e.codec.kind !== 'empty'), ...recursive];

/**
 * Random codecs over the whole catalogue: leaves from {@link scalars} and {@link recursive},
 * composed by array, nullable, record (plain and keyed), object (optional, defaulted, wire
 * names, strict, named), tagged and untagged unions, up to a small depth. With `roundTrip`,
 * untagged unions draw members of distinct wire types, so every valid value round-trips.
 */
export function catalogue(roundTrip: boolean): fc.Arbitrary<Entry> {
  return fc.letrec<{ entry: Entry; object: Entry }>((tie) => ({
    entry: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...leaves),
      tie('entry').map(arrayOf),
      tie('entry').map(nullableOf),
      fc.tuple(tie('entry'), fc.boolean()).map(([e, keyed]) => recordOf(e, keyed)),
      tie('object'),
      taggedOf(tie('object')),
      roundTrip ? unambiguousUnion : fc.array(tie('entry'), { minLength: 1, maxLength: 3 }).map(unionOf),
    ),
    object: objectPlan(tie('entry'), roundTrip ? FIELD_NAMES : ORACLE_FIELD_NAMES),
  })).entry;
}

/**
 * Untagged unions whose members have distinct wire types, so every value round-trips (a wire
 * value two members accept decodes by the first: see `UntaggedUnionCodec`).
 */
export const unambiguousUnion: fc.Arbitrary<Entry> = fc.constant(null).chain(() => unambiguous());

function unambiguous(): fc.Arbitrary<Entry> {
  return fc
  .shuffledSubarray(
    scalars.filter((s) => s.wireKind !== 'mixed' && s.wireKind !== 'object'),
    { minLength: 1, maxLength: 4 },
  )
  .map((members) => {
    const seen = new Set<string>();
    return members.filter((m) => !seen.has(m.wireKind) && (seen.add(m.wireKind), true));
  })
  .map(unionOf);
}
