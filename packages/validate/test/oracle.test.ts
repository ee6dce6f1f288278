import * as codec from '@lib/codec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as validate from '../src/index.js';
import { compile } from './support/ajv.js';

/** Near misses of a string: one character deleted, inserted or replaced. */
function mutate(s: string): fc.Arbitrary<string> {
  const chars = Array.from(s);
  const ch = fc.constantFrom(...Array.from('0aZ.-_:/@%#?+ \u00e9\u{1F600}'), 'é');
  return fc.oneof(
    fc.nat(Math.max(0, chars.length - 1)).map((i) => chars.filter((_, j) => j !== i).join('')),
    fc.tuple(fc.nat(chars.length), ch).map(([i, c]) => [...chars.slice(0, i), c, ...chars.slice(i)].join('')),
    fc.tuple(fc.nat(Math.max(0, chars.length - 1)), ch).map(([i, c]) => chars.map((x, j) => (j === i ? c : x)).join('')),
  );
}

/** Valid-looking texts, their near misses, and other JSON values. */
function texts(...seeds: fc.Arbitrary<string>[]): fc.Arbitrary<unknown> {
  const seed = fc.oneof(...seeds);
  return fc.oneof(seed, seed.chain(mutate), seed.chain(mutate).chain(mutate), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom(1, null, true, ''));
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const dateLike = fc.tuple(fc.constantFrom(1900, 2000, 2023, 2024), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);
const timeLike = fc
  .tuple(fc.constantFrom(0, 12, 23, 24), fc.constantFrom(0, 59, 60), fc.constantFrom(0, 59, 60, 61), fc.constantFrom('', '.5'), fc.constantFrom('Z', 'z', '', '+01:00', '-00:30', '+01', '+0100', '+24:00'))
  .map(([h, m, s, f, o]) => `${pad(h)}:${pad(m)}:${pad(s)}${f}${o}`);
const semverLike = fc
  .tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.constantFrom('', '-rc.1', '-alpha', '-0.3.7', '-01'), fc.constantFrom('', '+build.5', '+001'))
  .map(([a, b, c, pre, build]) => `${a}.${b}.${c}${pre}${build}`);
const ints = fc.oneof(fc.integer({ min: -70000, max: 70000 }), fc.constantFrom(-1, 0, 1, 65535, 65536, 2.5, -0.5));
const numbers = fc.oneof(ints, fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }));

interface Case {
  readonly name: string;
  readonly codec: codec.Codec<unknown>;
  readonly wire: fc.Arbitrary<unknown>;
}

const string = (...cs: codec.Constraint<string>[]): codec.Codec<unknown> => codec.string().refine(...cs);

/** Constraints JSON Schema can express: the oracle must agree on each. */
const exact: readonly Case[] = [
  { name: 'minLength(2) (code points)', codec: string(validate.minLength(2)), wire: texts(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('\u{1F600}', '\u{1F600}\u{1F600}', 'a\u{1F600}')) },
  { name: 'maxLength(2) (code points)', codec: string(validate.maxLength(2)), wire: texts(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('\u{1F600}\u{1F600}', '\u{1F600}\u{1F600}\u{1F600}')) },
  { name: 'minLength(1) and minLength(3), maxLength(5) and maxLength(4)', codec: string(validate.minLength(1), validate.minLength(3), validate.maxLength(5), validate.maxLength(4)), wire: texts(fc.string({ maxLength: 6 })) },
  { name: 'nonEmpty on strings', codec: string(validate.nonEmpty), wire: texts(fc.string({ maxLength: 2 })) },
  { name: 'nonEmpty on arrays', codec: codec.array(codec.int()).refine(validate.nonEmpty), wire: fc.oneof(fc.array(ints, { maxLength: 2 }), fc.constantFrom('', {})) },
  { name: 'nonEmpty on records', codec: codec.record(codec.int()).refine(validate.nonEmpty), wire: fc.oneof(fc.dictionary(fc.string(), ints, { maxKeys: 2 }), fc.constantFrom([], '')) },
  { name: 'nonEmpty on bytes (base64 text)', codec: codec.bytes().refine(validate.nonEmpty), wire: fc.oneof(fc.uint8Array({ maxLength: 3 }).map(codec.toBase64), fc.constantFrom('', 'AA==', '=')) },
  { name: 'pattern(/^a+$/)', codec: string(validate.pattern(/^a+$/)), wire: texts(fc.stringMatching(/^a{0,3}$/)) },
  { name: 'pattern(/^.$/) (run with u)', codec: string(validate.pattern(/^.$/)), wire: texts(fc.constantFrom('a', '\u{1F600}', 'ab', '\n')) },
  { name: 'pattern twice (allOf)', codec: string(validate.pattern(/^a/), validate.pattern(/b$/)), wire: texts(fc.stringMatching(/^a?[ab]{0,2}b?$/)) },
  { name: 'oneOf strings', codec: string(validate.oneOf('a', 'b')), wire: texts(fc.constantFrom('a', 'b', 'c')) },
  { name: 'oneOf numbers', codec: codec.int().refine(validate.oneOf(1, 2)), wire: fc.oneof(ints, fc.constantFrom(1, 2, '1')) },
  { name: 'email', codec: string(validate.email), wire: texts(fc.emailAddress(), fc.constantFrom('a@b', 'a@b.c', `${'a'.repeat(250)}@b.co`, 'a..b@c.d', '"q"@x.y')) },
  { name: 'uuid', codec: string(validate.uuid), wire: texts(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), fc.uuid().map((u) => `urn:uuid:${u}`)) },
  { name: 'uri', codec: string(validate.uri), wire: texts(fc.webUrl(), fc.constantFrom('mailto:a@b.c', 'urn:isbn:0451450523', '/relative', 'a:b', 'http://[::1]/')) },
  { name: 'url', codec: string(validate.url), wire: texts(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('HTTPS://X.Y', 'ftp://a.b', 'http:///x', 'http://@', 'mailto:a@b.c')) },
  { name: 'ipv4', codec: string(validate.ipv4), wire: texts(fc.ipV4(), fc.ipV4Extended(), fc.constantFrom('01.2.3.4', '256.0.0.0')) },
  { name: 'ipv6', codec: string(validate.ipv6), wire: texts(fc.ipV6(), fc.constantFrom('::', '::1', 'fe80::1%eth0', '1:2:3:4:5:6:7:8:9')) },
  { name: 'hostname', codec: string(validate.hostname), wire: texts(fc.domain(), fc.constantFrom('a.', '-a.b', 'a-.b', `${'a'.repeat(63)}.b`, `${'a'.repeat(64)}.b`, `${'a.'.repeat(127)}b`)) },
  { name: 'date', codec: string(validate.date), wire: texts(dateLike) },
  { name: 'dateTime', codec: string(validate.dateTime), wire: texts(fc.tuple(dateLike, fc.constantFrom('T', 't', ' '), timeLike).map(([d, s, t]) => d + s + t), fc.date({ noInvalidDate: true, min: new Date(0) }).map((d) => d.toISOString())) },
  { name: 'time', codec: string(validate.time), wire: texts(timeLike) },
  { name: 'slug', codec: string(validate.slug), wire: texts(fc.stringMatching(/^[a-z0-9]{1,3}(-[a-z0-9]{1,3}){0,2}$/)) },
  { name: 'semver', codec: string(validate.semver), wire: texts(semverLike) },
  { name: 'httpPath', codec: string(validate.httpPath), wire: texts(fc.webPath(), fc.constantFrom('/', '//', '/a/', '/a%2', '/a%20b')) },
  { name: "hasPrefix('sk_')", codec: string(validate.hasPrefix('sk_.*')), wire: texts(fc.string({ maxLength: 3 }).map((s) => `sk_.*${s}`), fc.constantFrom('sk_', 'sk_x', 'sk_.')) },
  { name: 'email and a pattern (allOf)', codec: string(validate.email, validate.pattern(/\.com$/)), wire: texts(fc.emailAddress(), fc.emailAddress().map((e) => e.replace(/\.[a-z]+$/, '.com'))) },
  { name: 'min(0) max(10)', codec: codec.int().refine(validate.min(0), validate.max(10)), wire: ints },
  { name: 'min(-1e20) on int keeps the safe bound', codec: codec.int().refine(validate.min(-1e20)), wire: fc.constantFrom(-(2 ** 60), -(2 ** 53), -(2 ** 53) + 1, 0) },
  { name: 'min(2.5) on number', codec: codec.number().refine(validate.min(2.5)), wire: numbers },
  { name: 'range(-5, 5)', codec: codec.int().refine(validate.range(-5, 5)), wire: fc.oneof(ints, fc.integer({ min: -7, max: 7 })) },
  { name: 'positive', codec: codec.number().refine(validate.positive), wire: fc.oneof(numbers, fc.constantFrom(0, -0, 1e-300)) },
  { name: 'negative', codec: codec.number().refine(validate.negative), wire: fc.oneof(numbers, fc.constantFrom(0, -1e-300)) },
  { name: 'port on int', codec: codec.int().refine(validate.port), wire: ints },
  { name: 'port on number', codec: codec.number().refine(validate.port), wire: fc.oneof(numbers, fc.constantFrom(80.5, 443)) },
  { name: 'minItems(1) maxItems(2)', codec: codec.array(codec.int()).refine(validate.minItems(1), validate.maxItems(2)), wire: fc.array(ints, { maxLength: 3 }) },
  { name: 'uniqueItems on numbers', codec: codec.array(codec.number()).refine(validate.uniqueItems), wire: fc.array(fc.constantFrom(0, -0, 1, 1.5), { maxLength: 3 }) },
  { name: 'uniqueItems on strings', codec: codec.array(codec.string()).refine(validate.uniqueItems), wire: fc.array(fc.constantFrom('a', 'b', ''), { maxLength: 3 }) },
  {
    name: 'uniqueItems on strict objects',
    codec: codec.array(codec.object({ a: codec.int(), b: codec.optional(codec.array(codec.int())) }).strict()).refine(validate.uniqueItems),
    wire: fc.array(fc.record({ a: fc.constantFrom(1, 2), b: fc.array(fc.constantFrom(1, 2), { maxLength: 2 }) }, { requiredKeys: ['a'] }), { maxLength: 3 }),
  },
  {
    name: 'minProperties(1) maxProperties(2) on records',
    codec: codec.record(codec.int()).refine(validate.minProperties(1), validate.maxProperties(2)),
    wire: fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__'), ints, { maxKeys: 3 }),
  },
];

describe('oracle: Ajv accepts exactly what the refined codec decodes', () => {
  for (const c of exact) {
    it(c.name, () => {
      const check = compile(c.codec.schema);
      let accepted = 0;
      let rejected = 0;
      fc.assert(
        fc.property(c.wire, (raw) => {
          const wire = JSON.parse(JSON.stringify(raw)) as unknown;
          let byDecoder = true;
          try {
            c.codec.decode(wire);
          } catch (err) {
            if (!(err instanceof codec.DecodeError)) throw err;
            byDecoder = false;
          }
          if (byDecoder) accepted++;
          else rejected++;
          expect(check(wire), JSON.stringify(wire)).toBe(byDecoder);
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 300) },
      );
      expect(accepted).toBeGreaterThan(0);
      expect(rejected).toBeGreaterThan(0);
    });
  }
});

/**
 * Constraints outside the oracle, and why: the decoder checks something the emitted schema
 * cannot state. Each is pinned here so the list stays true.
 */
describe('constraints JSON Schema cannot express', () => {
  it('byte constraints: the schema sees base64 text, not bytes', () => {
    const c = codec.bytes().refine(validate.png, validate.maxBytes(16), validate.minBytes(8), validate.hasPrefix([0x89]));
    expect(c.schema).toEqual({ ...codec.bytes().schema, contentMediaType: 'image/png' });
  });
  it('numeric bounds on string-carried integers (intString and int64 in a body)', () => {
    expect(codec.intString().refine(validate.min(0)).schema).toEqual(codec.intString().schema);
    expect(codec.int64().refine(validate.min(0n)).schema).toEqual(codec.int64().schema);
  });
  it('regex flags other than u', () => {
    expect(string(validate.pattern(/^a$/i)).schema).toEqual({ type: 'string' });
  });
  it('uniqueItems over values whose decoding forgets (instants, stripped keys)', () => {
    const times = codec.array(codec.time()).refine(validate.uniqueItems);
    const wire = ['2020-01-01T00:00:00Z', '2020-01-01T01:00:00+01:00'];
    expect(compile(times.schema)(wire)).toBe(true);
    expect(() => times.decode(wire)).toThrow(/duplicate/);
  });
});
