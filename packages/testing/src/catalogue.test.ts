/**
 * The catalogue property test: for a sample codec of every codec and constraint of @lib/codec
 * and @lib/validate, every generated valid value decodes (also after a JSON round trip), and
 * every refused value is refused with exactly one issue, of the labelled constraint at the
 * labelled pointer. The package's test script runs this file with compiled decoders and again
 * with LIB_CODEC_JIT=off.
 */
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitrary, type RefusedValue } from './index.js';

const RUNS = Number(process.env.FC_RUNS ?? 40);

interface Entry {
  readonly name: string;
  readonly codec: codec.AnyCodec;
  /** The exports of @lib/codec (`codec.x`) and @lib/validate (`validate.x`) the entry exercises. */
  readonly covers: readonly string[];
  /** Refusals (`constraint@pointer`, or a prefix of one followed by `*`) a few hundred draws must include. */
  readonly breaks?: readonly string[];
  /** Values are not JSON (blobs). */
  readonly notJson?: true;
}

type Node = { name: string; children: Node[] };
const tree: codec.Codec<Node> = codec.object({ name: codec.string().refine(validate.minLength(1)), children: codec.array(codec.lazy(() => tree)) });
type List = { value: number; next: List | null };
const list: codec.Codec<List> = codec.object({ value: codec.int8(), next: codec.nullable(codec.lazy(() => list)) });

const even = validate.constraint({ name: 'even', test: (n: number) => n % 2 === 0, message: 'must be even' });
const evenLength = validate.constraint({ name: 'evenLength', test: (s: string) => s.length % 2 === 0, message: 'must have an even length' });

const after2000 = validate.constraint({ name: 'after2000', test: (d: Date) => d.getTime() >= Date.UTC(2000, 0, 1), message: 'must be in 2000 or later' });

const s = (...cs: codec.Constraint<string>[]): codec.AnyCodec => codec.string().refine(...cs);

const catalogue: readonly Entry[] = [
  // Strings and their constraints.
  { name: 'string', codec: codec.string(), covers: ['codec.string'], breaks: ['type@'] },
  { name: 'minLength(3)', codec: s(validate.minLength(3)), covers: ['validate.minLength'], breaks: ['minLength@', 'type@'] },
  { name: 'maxLength(4)', codec: s(validate.maxLength(4)), covers: ['validate.maxLength'], breaks: ['maxLength@'] },
  { name: 'minLength(2) maxLength(2)', codec: s(validate.minLength(2), validate.maxLength(2)), covers: [], breaks: ['minLength@', 'maxLength@'] },
  { name: 'minLength(1) minLength(3) maxLength(5) maxLength(4)', codec: s(validate.minLength(1), validate.minLength(3), validate.maxLength(5), validate.maxLength(4)), covers: [], breaks: ['minLength@', 'maxLength@'] },
  { name: 'nonEmpty string', codec: s(validate.nonEmpty), covers: ['validate.nonEmpty'], breaks: ['nonEmpty@'] },
  { name: 'pattern', codec: s(validate.pattern(/^[a-z]+-\d{2}$/)), covers: ['validate.pattern'], breaks: ['pattern@'] },
  { name: 'pattern with flag i', codec: s(validate.pattern(/^ab+c$/i)), covers: [], breaks: ['pattern@'] },
  { name: 'oneOf strings', codec: s(validate.oneOf('red', 'green', 'blue')), covers: ['validate.oneOf'], breaks: ['oneOf@'] },
  { name: 'email', codec: s(validate.email), covers: ['validate.email'], breaks: ['email@'] },
  { name: 'email maxLength(40)', codec: s(validate.email, validate.maxLength(40)), covers: [], breaks: ['email@', 'maxLength@'] },
  { name: 'uuid', codec: s(validate.uuid), covers: ['validate.uuid'], breaks: ['uuid@'] },
  { name: 'uuid maxLength(36)', codec: s(validate.uuid, validate.maxLength(36)), covers: [], breaks: ['uuid@'] },
  { name: 'url', codec: s(validate.url), covers: ['validate.url'], breaks: ['url@'] },
  { name: 'uri', codec: s(validate.uri), covers: ['validate.uri'], breaks: ['uri@'] },
  { name: 'ipv4', codec: s(validate.ipv4), covers: ['validate.ipv4'], breaks: ['ipv4@'] },
  { name: 'ipv6', codec: s(validate.ipv6), covers: ['validate.ipv6'], breaks: ['ipv6@'] },
  { name: 'hostname', codec: s(validate.hostname), covers: ['validate.hostname'], breaks: ['hostname@'] },
  { name: 'date (text)', codec: s(validate.date), covers: ['validate.date'], breaks: ['date@'] },
  { name: 'dateTime (text)', codec: s(validate.dateTime), covers: ['validate.dateTime'], breaks: ['dateTime@'] },
  { name: 'time (text)', codec: s(validate.time), covers: ['validate.time'], breaks: ['time@'] },
  { name: 'slug', codec: s(validate.slug), covers: ['validate.slug'], breaks: ['slug@'] },
  { name: 'semver', codec: s(validate.semver), covers: ['validate.semver'], breaks: ['semver@'] },
  { name: 'httpPath', codec: s(validate.httpPath), covers: ['validate.httpPath'], breaks: ['httpPath@'] },
  { name: "hasPrefix('sk_')", codec: s(validate.hasPrefix('sk_'), validate.minLength(6)), covers: ['validate.hasPrefix'], breaks: ['hasPrefix@', 'minLength@'] },
  { name: 'a constraint of your own on strings', codec: s(evenLength, validate.maxLength(6)), covers: ['validate.constraint'], breaks: ['evenLength@', 'maxLength@'] },

  // Numbers of every width and their constraints.
  { name: 'int', codec: codec.int(), covers: ['codec.int'], breaks: ['type@'] },
  { name: 'int8', codec: codec.int8(), covers: ['codec.int8'] },
  { name: 'int16', codec: codec.int16(), covers: ['codec.int16'] },
  { name: 'int32', codec: codec.int32(), covers: ['codec.int32'] },
  { name: 'uint', codec: codec.uint(), covers: ['codec.uint'] },
  { name: 'uint8', codec: codec.uint8(), covers: ['codec.uint8'] },
  { name: 'uint16', codec: codec.uint16(), covers: ['codec.uint16'] },
  { name: 'uint32', codec: codec.uint32(), covers: ['codec.uint32'] },
  { name: 'int8 min(0)', codec: codec.int8().refine(validate.min(0)), covers: ['validate.min'], breaks: ['min@'] },
  { name: 'int32 max(9)', codec: codec.int32().refine(validate.max(9)), covers: ['validate.max'], breaks: ['max@'] },
  { name: 'int range(-5, 5)', codec: codec.int().refine(validate.range(-5, 5)), covers: ['validate.range'], breaks: ['range@'] },
  { name: 'uint8 max(1000) (wider than the width)', codec: codec.uint8().refine(validate.max(1000)), covers: [] },
  { name: 'number', codec: codec.number(), covers: ['codec.number'] },
  { name: 'number positive', codec: codec.number().refine(validate.positive), covers: ['validate.positive'], breaks: ['positive@'] },
  { name: 'number negative', codec: codec.number().refine(validate.negative), covers: ['validate.negative'], breaks: ['negative@'] },
  { name: 'number min(2.5) max(10)', codec: codec.number().refine(validate.min(2.5), validate.max(10)), covers: [], breaks: ['min@', 'max@'] },
  { name: 'float32', codec: codec.float32(), covers: ['codec.float32'], breaks: ['type@'] },
  { name: 'float32 range(-1, 1)', codec: codec.float32().refine(validate.range(-1, 1)), covers: [], breaks: ['range@'] },
  { name: 'int port', codec: codec.int().refine(validate.port), covers: ['validate.port'], breaks: ['port@'] },
  { name: 'number port', codec: codec.number().refine(validate.port), covers: [], breaks: ['port@'] },
  { name: 'int oneOf(1, 2, 3)', codec: codec.int().refine(validate.oneOf(1, 2, 3)), covers: [], breaks: ['oneOf@'] },
  { name: 'int even (your own)', codec: codec.int16().refine(even, validate.positive), covers: [], breaks: ['even@', 'positive@'] },

  // 64-bit integers (decimal text) and integers and booleans carried as text.
  { name: 'int64', codec: codec.int64(), covers: ['codec.int64'], breaks: ['type@'] },
  { name: 'uint64', codec: codec.uint64(), covers: ['codec.uint64'] },
  { name: 'int64 min(0n) max(10n ** 12n)', codec: codec.int64().refine(validate.min(0n), validate.max(10n ** 12n)), covers: [], breaks: ['min@', 'max@'] },
  { name: 'int64 negative', codec: codec.int64().refine(validate.negative), covers: [], breaks: ['negative@'] },
  { name: 'intString', codec: codec.intString(), covers: ['codec.intString'], breaks: ['type@'] },
  { name: 'intString port', codec: codec.intString().refine(validate.port), covers: [], breaks: ['port@'] },
  { name: 'intString min(10)', codec: codec.intString().refine(validate.min(10)), covers: [], breaks: ['min@'] },
  { name: 'boolean', codec: codec.boolean(), covers: ['codec.boolean'], breaks: ['type@'] },
  { name: 'boolString', codec: codec.boolString(), covers: ['codec.boolString'], breaks: ['type@'] },

  // Fixed values.
  { name: "literal('a')", codec: codec.literal('a'), covers: ['codec.literal'], breaks: ['const@'] },
  { name: 'literal(1)', codec: codec.literal(1), covers: [] },
  { name: 'literal(null)', codec: codec.literal(null), covers: [] },
  { name: 'literal(true)', codec: codec.literal(true), covers: [] },
  { name: 'constant', codec: codec.constant({ version: 1, tags: ['a'] }), covers: ['codec.constant'], breaks: ['const@'] },
  { name: 'eq', codec: codec.eq(codec.time(), new Date(0)), covers: ['codec.eq'], breaks: ['const@'] },

  // Bytes and magic bytes, blobs.
  { name: 'bytes', codec: codec.bytes(), covers: ['codec.bytes'], breaks: ['type@', 'format@'] },
  { name: 'bytes png', codec: codec.bytes().refine(validate.png), covers: ['validate.png'], breaks: ['png@'] },
  { name: 'bytes jpeg', codec: codec.bytes().refine(validate.jpeg), covers: ['validate.jpeg'], breaks: ['jpeg@'] },
  { name: 'bytes gif', codec: codec.bytes().refine(validate.gif), covers: ['validate.gif'], breaks: ['gif@'] },
  { name: 'bytes webp', codec: codec.bytes().refine(validate.webp), covers: ['validate.webp'], breaks: ['webp@'] },
  { name: 'bytes pdf', codec: codec.bytes().refine(validate.pdf), covers: ['validate.pdf'], breaks: ['pdf@'] },
  { name: 'bytes zip', codec: codec.bytes().refine(validate.zip), covers: ['validate.zip'], breaks: ['zip@'] },
  { name: 'bytes hasPrefix(bytes)', codec: codec.bytes().refine(validate.hasPrefix([0xca, 0xfe])), covers: [], breaks: ['hasPrefix@'] },
  { name: 'bytes minBytes(2) maxBytes(6)', codec: codec.bytes().refine(validate.minBytes(2), validate.maxBytes(6)), covers: ['validate.minBytes', 'validate.maxBytes'], breaks: ['minBytes@', 'maxBytes@'] },
  { name: 'bytes nonEmpty', codec: codec.bytes().refine(validate.nonEmpty), covers: [], breaks: ['nonEmpty@'] },
  { name: 'bytes png maxBytes(12)', codec: codec.bytes().refine(validate.png, validate.maxBytes(12)), covers: [], breaks: ['png@', 'maxBytes@'] },
  { name: 'blob', codec: codec.blob(), covers: ['codec.blob'], breaks: ['type@'], notJson: true },
  { name: 'blob bounds', codec: codec.blob({ minBytes: 2, maxBytes: 10 }), covers: [], breaks: ['type@', 'minBytes@', 'maxBytes@'], notJson: true },

  // Instants and durations as text.
  { name: 'time', codec: codec.time(), covers: ['codec.time'], breaks: ['type@', 'format@'] },
  { name: 'date', codec: codec.date(), covers: ['codec.date'], breaks: ['format@'] },
  { name: 'duration', codec: codec.duration(), covers: ['codec.duration'], breaks: ['format@'] },
  { name: 'httpDate', codec: codec.httpDate(), covers: ['codec.httpDate'], breaks: ['format@'] },
  { name: 'duration from 1 minute to 1 hour', codec: codec.duration().refine(validate.min(60_000), validate.max(3_600_000)), covers: [], breaks: ['min@', 'max@'] },
  { name: 'time after 2000 (your own)', codec: codec.time().refine(after2000), covers: [], breaks: ['after2000@', 'format@'] },

  // Anything and nothing.
  { name: 'any', codec: codec.any(), covers: ['codec.any'] },
  { name: 'empty', codec: codec.empty(), covers: ['codec.empty'] },

  // Arrays and records.
  { name: 'array', codec: codec.array(codec.string()), covers: ['codec.array'], breaks: ['type@', 'type@/0'] },
  { name: 'array minItems(1) maxItems(3)', codec: codec.array(codec.int8()).refine(validate.minItems(1), validate.maxItems(3)), covers: ['validate.minItems', 'validate.maxItems'], breaks: ['minItems@', 'maxItems@'] },
  { name: 'array uniqueItems', codec: codec.array(codec.string().refine(validate.maxLength(1))).refine(validate.uniqueItems, validate.maxItems(4)), covers: ['validate.uniqueItems'], breaks: ['uniqueItems@', 'maxItems@', 'maxLength@/0'] },
  { name: 'array of intString uniqueItems ("-0" is "0")', codec: codec.array(codec.intString()).refine(validate.uniqueItems), covers: [], breaks: ['uniqueItems@'] },
  { name: 'array nonEmpty of objects', codec: codec.array(codec.object({ id: codec.int() })).refine(validate.nonEmpty), covers: [], breaks: ['nonEmpty@', 'required@/0/id'] },
  { name: 'record', codec: codec.record(codec.int()), covers: ['codec.record'], breaks: ['type@'] },
  { name: 'numberString', codec: codec.numberString(), covers: ['codec.numberString'], breaks: ['type@'] },
  { name: 'numberString min(0.5)', codec: codec.numberString().refine(validate.min(0.5)), covers: [], breaks: ['min@'] },
  { name: 'object with additional properties', codec: codec.withAdditionalProperties(codec.object({ id: codec.string() }), codec.int()), covers: ['codec.withAdditionalProperties'], breaks: ['type@'] },
  { name: 'record minProperties(1) maxProperties(3)', codec: codec.record(codec.string()).refine(validate.minProperties(1), validate.maxProperties(3)), covers: ['validate.minProperties', 'validate.maxProperties'], breaks: ['minProperties@', 'maxProperties@'] },
  { name: 'record with intString keys', codec: codec.record(codec.intString(), codec.boolean()).refine(validate.maxProperties(2)), covers: [], breaks: ['maxProperties@'] },
  { name: 'record with uuid keys', codec: codec.record(codec.string().refine(validate.uuid), codec.int8()), covers: [], breaks: ['uuid@/*', 'type@/*'] },
  { name: 'record with an enum of keys', codec: codec.record(codec.untaggedUnion(codec.literal('a'), codec.literal('b')), codec.int()), covers: [], breaks: ['anyOf@/*'] },
  { name: 'record nonEmpty', codec: codec.record(codec.literal(1)).refine(validate.nonEmpty), covers: [], breaks: ['nonEmpty@'] },

  // Objects.
  {
    name: 'object with optional, defaulted and renamed fields',
    codec: codec
      .object({
        id: codec.string().refine(validate.uuid),
        name: codec.string().refine(validate.minLength(1), validate.maxLength(40)),
        age: codec.optional(codec.int().refine(validate.min(0))),
        tags: codec.defaulted(codec.array(codec.string().refine(validate.slug)).refine(validate.uniqueItems), []),
        address: codec.object({ street: codec.string(), zip: codec.string().refine(validate.pattern(/^\d{5}$/)) }),
        createdAt: codec.time(),
      })
      .withWireNames({ createdAt: 'created_at' }),
    covers: ['codec.object', 'codec.optional', 'codec.defaulted'],
    breaks: ['required@/id', 'required@/created_at', 'uuid@/id', 'pattern@/address/zip', 'required@/address/zip', 'min@/age', 'slug@/tags/0', 'format@/created_at'],
  },
  {
    name: 'strict object, keys a pointer escapes',
    codec: codec.object({ 'a/b': codec.string(), '~c': codec.optional(codec.int()), d: codec.defaulted(codec.boolean(), false) }).strict(),
    covers: [],
    breaks: ['unknownKey@/*', 'required@/a~1b', 'type@/~0c'],
  },
  {
    name: 'object minProperties(2) maxProperties(3)',
    codec: codec.object({ a: codec.optional(codec.int()), b: codec.optional(codec.int()), c: codec.optional(codec.int()), d: codec.optional(codec.int()) }).refine(validate.minProperties(2), validate.maxProperties(3)),
    covers: [],
    breaks: ['minProperties@', 'maxProperties@'],
  },
  {
    name: 'object with fields named like Object.prototype members',
    codec: codec.object({ ['__proto__']: codec.optional(codec.int()), constructor: codec.string(), toString: codec.defaulted(codec.boolean(), true) }).strict(),
    covers: [],
    breaks: ['required@/constructor', 'type@/__proto__', 'unknownKey@/*'],
  },
  { name: 'nullable object', codec: codec.nullable(codec.object({ a: codec.int() })), covers: [], breaks: ['type@', 'required@/a'] },
  { name: 'eq of an object', codec: codec.eq(codec.object({ a: codec.int(), b: codec.array(codec.string()) }), { a: 1, b: ['x'] }), covers: [], breaks: ['const@'] },
  { name: 'object helpers (partial, pick, extend)', codec: codec.object({ a: codec.int(), b: codec.string() }).partial().extend({ c: codec.boolean() }).pick('a', 'c'), covers: [], breaks: ['required@/c'] },

  // Unions.
  {
    name: 'taggedUnion',
    codec: codec.taggedUnion('type', {
      card: codec.object({ number: codec.string().refine(validate.pattern(/^\d{16}$/)) }),
      bank: codec.object({ iban: codec.string().refine(validate.minLength(15)) }).strict(),
      cash: codec.object({ type: codec.literal('cash'), amount: codec.uint() }),
    }),
    covers: ['codec.taggedUnion'],
    breaks: ['type@', 'discriminator@/type', 'pattern@/number', 'minLength@/iban', 'unknownKey@/*', 'type@/amount'],
  },
  { name: 'untaggedUnion', codec: codec.untaggedUnion(codec.int(), codec.string().refine(validate.uuid)), covers: ['codec.untaggedUnion'], breaks: ['anyOf@'] },
  { name: 'untaggedUnion of strict objects', codec: codec.untaggedUnion(codec.object({ a: codec.int() }).strict(), codec.object({ b: codec.string() }).strict()), covers: [], breaks: ['anyOf@'] },
  { name: 'untaggedUnion of literals (an enum)', codec: codec.untaggedUnion(codec.literal('a'), codec.literal('b')), covers: [], breaks: ['anyOf@'] },

  // Wrappers.
  { name: 'nullable', codec: codec.nullable(codec.string().refine(validate.minLength(2))), covers: ['codec.nullable'], breaks: ['minLength@', 'type@'] },
  { name: 'optional (alone)', codec: codec.optional(codec.int()), covers: [] },
  { name: 'defaulted (alone)', codec: codec.defaulted(codec.int().refine(validate.min(1)), 20), covers: [], breaks: ['min@'] },
  { name: 'lazy tree', codec: tree, covers: ['codec.lazy'], breaks: ['minLength@/name', 'required@/children/0/name'] },
  { name: 'lazy list (nullable recursion)', codec: list, covers: [], breaks: ['type@/next/value'] },
  { name: 'map', codec: codec.map(codec.string().refine(validate.maxLength(3)), (t) => t.length, (n: number) => 'x'.repeat(n)), covers: ['codec.map'], breaks: ['maxLength@'] },
  {
    name: 'mapValidated that throws',
    codec: codec.mapValidated(
      codec.intString(),
      (n) => {
        if (n > 1000) throw new RangeError('too big');
        return n;
      },
      (n: number) => n,
    ),
    covers: ['codec.mapValidated'],
    breaks: ['map@', 'type@'],
  },
  { name: 'map with a constraint on the mapped value', codec: codec.map(codec.int8(), (n) => n * 2, (n: number) => n / 2).refine(validate.max(100)), covers: [], breaks: ['max@'] },
];

/** The issues of decoding `wire`, or `undefined` when it decodes. */
function issuesOf(c: codec.AnyCodec, wire: unknown): readonly codec.Issue[] | undefined {
  try {
    c.decode(wire);
    return undefined;
  } catch (err) {
    if (err instanceof codec.DecodeError) return err.issues;
    throw err;
  }
}

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

/** What a refusal breaks, as its label and the one issue decoding it gives. */
function checkRefusal(c: codec.AnyCodec, r: RefusedValue, wire: unknown): void {
  const issues = issuesOf(c, wire);
  expect(issues, `decodes: ${JSON.stringify(wire)}`).toBeDefined();
  expect(issues?.map((i) => `${i.constraint}@${i.pointer}`)).toEqual([`${r.constraint}@${r.pointer}`]);
}

describe(`catalogue (decoders ${codec.jitMode() === 'off' ? 'interpreted' : 'compiled'})`, () => {
  for (const entry of catalogue) {
    it(entry.name, () => {
      fc.assert(
        fc.property(arbitrary(entry.codec), (wire) => {
          expect(issuesOf(entry.codec, wire), JSON.stringify(wire)).toBeUndefined();
          if (entry.notJson !== true) expect(issuesOf(entry.codec, json(wire)), JSON.stringify(wire)).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
      let refusals: fc.Arbitrary<RefusedValue>;
      try {
        refusals = arbitrary(entry.codec, { valid: false });
      } catch (err) {
        // Only codecs that refuse nothing have no refusals.
        expect(entry.codec.kind).toMatch(/^(any|empty)$/);
        expect(err).toBeInstanceOf(TypeError);
        return;
      }
      fc.assert(
        fc.property(refusals, (r) => {
          checkRefusal(entry.codec, r, r.value);
          if (entry.notJson !== true) checkRefusal(entry.codec, r, json(r.value));
        }),
        { numRuns: RUNS * 2 },
      );
    });
  }
});

describe('catalogue coverage', () => {
  it('breaks every constraint and check it lists', () => {
    for (const entry of catalogue) {
      if (entry.breaks === undefined) continue;
      const seen = new Set(fc.sample(arbitrary(entry.codec, { valid: false }), { numRuns: 400, seed: 7 }).map((r) => `${r.constraint}@${r.pointer}`));
      for (const b of entry.breaks) {
        const found = b.endsWith('*') ? [...seen].some((x) => x.startsWith(b.slice(0, -1))) : seen.has(b);
        expect(found, `${entry.name}: ${b} among ${[...seen].join(', ')}`).toBe(true);
      }
    }
  });

  it('has an entry for every codec constructor of @lib/codec and every constraint of @lib/validate', () => {
    const covered = new Set(catalogue.flatMap((e) => e.covers));
    // Exports of @lib/codec that build no codec, and codecs arbitrary() refuses (tested elsewhere).
    const notCodecs = new Set([
      'describeType', 'encodeJson', 'formatPath', 'makeIssue', 'toJsonPointer', 'jitMode', 'setJit', 'installJit', 'mayBeAbsent', 'fromBase64', 'toBase64', 'decodeVars', 'deepEqual',
      'must', 'newValue', 'defineEntry', 'isPlainObject', 'isCalendarDate', 'isDateTime', 'isFullTime', 'stream', 'fromStandardSchema', 'never',
    ]);
    const codecs = Object.entries(codec).filter(([k, v]) => typeof v === 'function' && /^[a-z]/.test(k) && !notCodecs.has(k)).map(([k]) => `codec.${k}`);
    const constraints = Object.keys(validate).map((k) => `validate.${k}`);
    expect([...codecs, ...constraints].filter((k) => !covered.has(k))).toEqual([]);
  });
});
