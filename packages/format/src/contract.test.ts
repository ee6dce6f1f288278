import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { decode as cborxDecode } from 'cbor-x';
import { parse as tomlParse, TomlDate } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { text, thrown } from '../test/helpers.js';
import * as format from './index.js';

/** A format that writes a codec's whole value, and the same format for another codec. */
type Whole<T> = format.Format<T> & { withCodec<U>(c: codec.Codec<U>): Whole<U> };
/** The four formats that write a codec's whole value, by name. */
const FORMATS: readonly (readonly [string, <T>(c: codec.Codec<T>) => Whole<T>])[] = [
  ['json', format.json],
  ['cbor', format.cbor],
  ['yaml', format.yaml],
  ['toml', format.toml],
];

/** What a reader that knows nothing of the codec gets from a body: the format read through `any()`, as plain data. */
const dataOf = (f: Whole<unknown>, bytes: Uint8Array): unknown => structuredClone(f.withCodec(codec.any()).unmarshal(bytes));

const at = new Date('2025-01-02T03:04:05.678Z');
const day = new Date('2025-01-02T00:00:00.000Z');
const item = codec.object({
  name: codec.string().refine(validate.maxLength(5)),
  at: codec.time(),
  day: codec.date(),
  tags: codec.array(codec.string()),
});

class Point {
  x = 1;
  y = 2;
}
/** Values `any()` passes through as they are: what JSON.stringify makes of them is the contract. */
const opaque = {
  when: at,
  gone: undefined,
  fn: () => 1,
  sym: Symbol('s'),
  nested: [{ at: day, gone: undefined }],
  map: new Map([['k', 1]]),
  set: new Set([1]),
  custom: { toJSON: (key: string) => ({ key, shown: true }) },
  point: new Point(),
  boxed: [Object('s'), Object(1), Object(true)],
  zero: -0,
};
/** What JSON writes as null: an undefined or function array item, non-finite numbers. */
const nulls = { list: [1, undefined, () => 1], nan: Number.NaN, inf: -Infinity };
const passThrough = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Date }) } };
/** An event whose instant a Standard Schema codec passes through as it is (a `Date`). */
const event = codec.object({ at: codec.fromStandardSchema(passThrough, { jsonSchema: { type: 'string', format: 'date-time' } }) });
const dates = codec.object({
  at: codec.time(),
  day: codec.date(),
  first: codec.time(),
  last: codec.date(),
  list: codec.array(codec.object({ at: codec.time(), day: codec.optional(codec.date()) })),
  byName: codec.record(codec.nullable(codec.time())),
});
const dated = {
  at,
  day,
  first: new Date('0000-01-01T00:00:00.000Z'),
  last: new Date('9999-12-31T00:00:00.000Z'),
  list: [{ at: new Date(0), day }, { at }],
  byName: { a: at },
};

describe('one contract for json, cbor, yaml and toml', () => {
  for (const [name, make] of FORMATS) {
    describe(name, () => {
      it('leaves undeclared fields out, strict or not, as JSON does', () => {
        for (const c of [item, item.strict()]) {
          const value = { name: 'ok', at, day, tags: ['a'] };
          const f = make(c);
          const bytes = f.marshal({ ...value, secret: 'hunter2' } as typeof value);
          expect(Buffer.from(bytes).includes('hunter2')).toBe(false);
          expect(Object.keys(dataOf(f, bytes) as object)).toEqual(['name', 'at', 'day', 'tags']);
          expect(f.unmarshal(bytes)).toEqual(value);
        }
      });

      it('checks the structure on marshal and no constraint; reading refuses the value as JSON does', () => {
        const f = make(item);
        const long = { name: 'too long', at, day, tags: [] };
        const bytes = f.marshal(long);
        expect(() => f.unmarshal(bytes)).toThrow(new codec.DecodeError([codec.makeIssue(['name'], 'must have at most 5 characters', 'maxLength', 'too long')]));
        const err = thrown(() => f.marshal({ ...long, at: '2025-01-02T03:04:05Z' as unknown as Date }));
        expect(err).toBeInstanceOf(codec.EncodeError);
        expect((err as Error).message).toBe('at: expected Date, got string');
      });

      it('writes what JSON writes where the codec passes values through (any()): toJSON, Dates as text, no undefined', () => {
        const expected = JSON.parse(JSON.stringify(opaque)) as unknown;
        expect(expected).toMatchObject({ when: '2025-01-02T03:04:05.678Z', map: {}, custom: { key: 'custom', shown: true } });
        const f = make(codec.object({ meta: codec.any() }));
        expect(dataOf(f, f.marshal({ meta: opaque }))).toStrictEqual({ meta: expected });
        // No value at all (undefined, a function) is an empty body.
        expect(make(codec.any()).marshal(() => 1)).toEqual(new Uint8Array(0));
      });

      it('writes null where JSON does (TOML, which has no null, refuses the value)', () => {
        const f = make(codec.object({ meta: codec.any() }));
        if (name === 'toml') expect(() => f.marshal({ meta: nulls })).toThrow(new TypeError('TOML has no null: meta.list[1] is null'));
        else expect(dataOf(f, f.marshal({ meta: nulls }))).toStrictEqual({ meta: { list: [1, null, null], nan: null, inf: null } });
      });

      it('writes a Date a Standard Schema codec passes through as its RFC 3339 text', () => {
        const f = make(event);
        expect(dataOf(f, f.marshal({ at }))).toStrictEqual({ at: '2025-01-02T03:04:05.678Z' });
      });

      it('refuses a circular value with a TypeError, as JSON does; a value shared twice is written twice', () => {
        const loop: Record<string, unknown> = { a: [1] };
        (loop['a'] as unknown[]).push(loop);
        expect(() => make(codec.object({ meta: codec.any() })).marshal({ meta: loop })).toThrow(TypeError);
        const shared = { x: 1 };
        const f = make(codec.any());
        expect(dataOf(f, f.marshal({ a: shared, b: [shared] }))).toStrictEqual({ a: { x: 1 }, b: [{ x: 1 }] });
      });

      it('reads time() and date() values back as the same Dates, years 0000 to 9999', () => {
        const f = make(dates);
        expect(f.unmarshal(f.marshal(dated))).toEqual(dated);
      });
    });
  }

  it('writes time() and date() as the codec declares them: RFC 3339 date-time and full-date', () => {
    expect(text(format.json(dates).marshal(dated))).toContain('"at":"2025-01-02T03:04:05.678Z","day":"2025-01-02"');
    // CBOR: text strings, as JSON.
    expect(cborxDecode(format.cbor(dates).marshal(dated))).toMatchObject({ at: '2025-01-02T03:04:05.678Z', day: '2025-01-02', first: '0000-01-01T00:00:00.000Z' });
    // YAML 1.2 core schema: plain scalars, read back as that text.
    expect(text(format.yaml(dates).marshal(dated))).toContain('at: 2025-01-02T03:04:05.678Z\nday: 2025-01-02\n');
    // TOML: native offset date-times and local dates, which TOML 1.0 defines as RFC 3339.
    const doc = text(format.toml(dates).marshal(dated));
    expect(doc).toContain('at = 2025-01-02T03:04:05.678Z\nday = 2025-01-02\nfirst = 0000-01-01T00:00:00.000Z\nlast = 9999-12-31\n');
    const parsed = tomlParse(doc) as { at: unknown; day: unknown; list: { at: unknown }[] };
    expect(parsed.at).toBeInstanceOf(TomlDate);
    expect((parsed.at as TomlDate).isLocal()).toBe(false);
    expect((parsed.day as TomlDate).isDate()).toBe(true);
    expect((parsed.list[0]?.at as TomlDate).toISOString()).toBe('1970-01-01T00:00:00.000Z');
  });
});
