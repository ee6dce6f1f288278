import * as codec from '@lib/codec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as validate from './index.js';

/** The issues `c` reports for `wire` (empty when it decodes). */
function issues(c: codec.Codec<unknown>, wire: unknown): readonly codec.Issue[] {
  try {
    c.decode(wire);
    return [];
  } catch (err) {
    if (err instanceof codec.DecodeError) return err.issues;
    throw err;
  }
}

/** Checks that `c` accepts every `ok` and rejects every `bad` with constraint `name`. */
function check<T>(c: codec.Codec<T>, name: string, ok: readonly unknown[], bad: readonly unknown[]): void {
  for (const v of ok) expect(issues(c as codec.Codec<unknown>, v), JSON.stringify(v)).toEqual([]);
  for (const v of bad) expect(issues(c as codec.Codec<unknown>, v).map((i) => i.constraint), JSON.stringify(v)).toEqual([name]);
}

describe('string constraints', () => {
  it('minLength and maxLength agree with counting code points, surrogates and lone halves included', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '\u{1F600}', '\uD800', '\uDC00'), maxLength: 24 });
    fc.assert(
      fc.property(text, fc.nat(14), (s, n) => {
        const count = [...s].length;
        expect(validate.minLength(n).test(s)).toBe(count >= n);
        expect(validate.maxLength(n).test(s)).toBe(count <= n);
      }),
      { numRuns: 2000 },
    );
  });

  it('minLength and maxLength count code points and tighten when combined', () => {
    check(codec.string().refine(validate.minLength(2)), 'minLength', ['ab', '\u{1F600}\u{1F600}'], ['a', '\u{1F600}']);
    check(codec.string().refine(validate.maxLength(1)), 'maxLength', ['', '\u{1F600}'], ['ab']);
    expect(codec.string().refine(validate.minLength(3), validate.minLength(1), validate.maxLength(2), validate.maxLength(5)).schema).toEqual({
      type: 'string',
      minLength: 3,
      maxLength: 2,
    });
    expect(() => codec.string().refine(validate.minLength(3)).decode('ab')).toThrow('must have at least 3 characters');
  });

  it('nonEmpty reflects by type: minLength, minItems, minProperties', () => {
    check(codec.string().refine(validate.nonEmpty), 'nonEmpty', ['a'], ['']);
    check(codec.array(codec.int()).refine(validate.nonEmpty), 'nonEmpty', [[1]], [[]]);
    check(codec.record(codec.int()).refine(validate.nonEmpty), 'nonEmpty', [{ a: 1 }], [{}]);
    check(codec.bytes().refine(validate.nonEmpty), 'nonEmpty', ['AA=='], ['']);
    expect(codec.string().refine(validate.nonEmpty).schema).toEqual({ type: 'string', minLength: 1 });
    expect(codec.array(codec.int()).refine(validate.nonEmpty).schema).toEqual({ type: 'array', items: codec.int().schema, minItems: 1 });
    expect(codec.record(codec.int()).refine(validate.nonEmpty).schema.minProperties).toBe(1);
    expect(codec.bytes().refine(validate.nonEmpty).schema.minLength).toBe(1);
  });

  it('pattern is run with u, reflected only when JSON Schema can carry it', () => {
    check(codec.string().refine(validate.pattern(/^.$/)), 'pattern', ['\u{1F600}'], ['ab']);
    expect(codec.string().refine(validate.pattern(/^a/), validate.pattern(/b$/)).schema).toEqual({ type: 'string', pattern: '^a', allOf: [{ pattern: 'b$' }] });
    const insensitive = codec.string().refine(validate.pattern(/^a$/i));
    check(insensitive, 'pattern', ['A'], ['b']);
    expect(insensitive.schema).toEqual({ type: 'string' });
    // Not valid with the u flag: tested as written, not reflected.
    const loose = codec.string().refine(validate.pattern(/^\-$/));
    check(loose, 'pattern', ['-'], ['a']);
    expect(loose.schema).toEqual({ type: 'string' });
  });

  it('oneOf', () => {
    check(codec.string().refine(validate.oneOf('a', 'b')), 'oneOf', ['a'], ['c']);
    expect(codec.string().refine(validate.oneOf('a', 'b')).schema).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(() => codec.int().refine(validate.oneOf(1, 2)).decode(3)).toThrow('must be one of 1, 2');
  });

  it('formats', () => {
    const s = (c: codec.Constraint<string>): codec.Codec<string> => codec.string().refine(c);
    check(s(validate.email), 'email', ['a.b+c@example.co.uk'], ['a@b', 'a..b@c.de', '"a"@b.cd', `${'a'.repeat(250)}@b.cd`]);
    check(s(validate.uuid), 'uuid', ['0191D0C4-8F5E-7A8B-9C2D-3E4F5A6B7C8D'], ['urn:uuid:0191d0c4-8f5e-7a8b-9c2d-3e4f5a6b7c8d', '0191d0c48f5e7a8b9c2d3e4f5a6b7c8d']);
    check(s(validate.uri), 'uri', ['https://a.example/x?y#z', 'mailto:a@b.c', 'urn:isbn:0451450523'], ['/relative', 'no scheme', 'http://a b']);
    check(s(validate.url), 'url', ['https://a.example/x', 'HTTP://A'], ['ftp://a.example', 'mailto:a@b.c', 'http:///x']);
    check(s(validate.ipv4), 'ipv4', ['192.0.2.1', '0.0.0.0'], ['192.0.2.01', '256.1.1.1', '1.2.3']);
    check(s(validate.ipv6), 'ipv6', ['::1', '2001:db8::1', '::ffff:192.0.2.1'], ['fe80::1%eth0', '1:2:3:4:5:6:7:8:9', ':::']);
    check(s(validate.hostname), 'hostname', ['example.com', 'a', 'a.'], ['-a.com', 'a_b.com', `${'a'.repeat(64)}.com`]);
    check(s(validate.date), 'date', ['2024-02-29'], ['2023-02-29', '2024-2-1']);
    check(s(validate.dateTime), 'dateTime', ['2024-02-29T12:00:00Z', '2024-02-29t12:00:00.5+01:00'], ['2024-02-29 12:00:00Z', '2024-02-29T12:00:00+01']);
    check(s(validate.time), 'time', ['12:00:00Z', '23:59:60Z'], ['12:00:00', '12:00:00+0100', '12:00:60Z']);
    check(s(validate.slug), 'slug', ['my-post-2'], ['My-post', 'a--b', '-a']);
    check(s(validate.semver), 'semver', ['1.2.3', '1.0.0-rc.1+build.5'], ['v1.2.3', '1.2', '01.2.3', '1.0.0-01']);
    check(s(validate.hasPrefix('sk_')), 'hasPrefix', ['sk_live'], ['pk_live']);
  });

  it('formats reflect into format alone, and pattern where the constraint is narrower than the format', () => {
    const schema = (c: codec.Constraint<string>): codec.JsonSchema => codec.string().refine(c).schema;
    expect(schema(validate.email)).toEqual({ type: 'string', format: 'email', maxLength: 254 });
    expect(schema(validate.uuid)).toEqual({ type: 'string', format: 'uuid' });
    expect(schema(validate.uri)).toEqual({ type: 'string', format: 'uri' });
    expect(schema(validate.url)).toEqual({ type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]' });
    expect(schema(validate.ipv4)).toEqual({ type: 'string', format: 'ipv4' });
    expect(schema(validate.ipv6)).toEqual({ type: 'string', format: 'ipv6' });
    expect(schema(validate.hostname)).toEqual({ type: 'string', format: 'hostname' });
    expect(schema(validate.date)).toEqual({ type: 'string', format: 'date' });
    expect(schema(validate.dateTime)).toEqual({ type: 'string', format: 'date-time' });
    expect(schema(validate.time)).toEqual({ type: 'string', format: 'time' });
    expect(schema(validate.slug)).toEqual({ type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
    expect(schema(validate.hasPrefix('a.b'))).toEqual({ type: 'string', pattern: '^a\\.b' });
  });

  it('httpPath accepts absolute paths only', () => {
    check(codec.string().refine(validate.httpPath), 'httpPath', ['/', '/users', '/users/x', '/a/b-c/%20/~d'], ['', 'users', '/users/', '//a', '/a?b', '/a#b', '/a b']);
  });
});

describe('numeric constraints', () => {
  it('min, max and range on numbers and bigints', () => {
    check(codec.int().refine(validate.min(0)), 'min', [0, 5], [-1]);
    check(codec.int().refine(validate.max(9)), 'max', [9], [10]);
    check(codec.int().refine(validate.range(1, 3)), 'range', [1, 3], [0, 4]);
    check(codec.int64().refine(validate.min(0n)), 'min', ['0', '9223372036854775807'], ['-1']);
    check(codec.int64().refine(validate.max(2n ** 62n)), 'max', [String(2n ** 62n)], [String(2n ** 62n + 1n)]);
    expect(codec.int().refine(validate.min(0), validate.max(9)).schema).toEqual({ type: 'integer', format: 'double-int', minimum: 0, maximum: 9 });
    expect(codec.int().refine(validate.range(-5, 5)).schema).toEqual({ type: 'integer', format: 'double-int', minimum: -5, maximum: 5 });
    // A wider bound never loosens the codec's own range, which its format states.
    expect(codec.uint8().refine(validate.max(1000)).schema).toMatchObject({ format: 'uint8' });
    expect(() => codec.uint8().refine(validate.max(1000)).decode(256)).toThrow(codec.DecodeError);
    expect(codec.int8().refine(validate.max(0), validate.max(100)).schema).toEqual({ type: 'integer', format: 'int8', maximum: 0 });
    expect(() => validate.range(2, 1)).toThrow(RangeError);
  });

  it('positive and negative use numeric exclusive bounds', () => {
    check(codec.number().refine(validate.positive), 'positive', [1e-9], [0, -1]);
    check(codec.number().refine(validate.negative), 'negative', [-1e-9], [0, 1]);
    check(codec.int64().refine(validate.positive), 'positive', ['1'], ['0']);
    expect(codec.number().refine(validate.positive).schema).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(codec.number().refine(validate.negative).schema).toEqual({ type: 'number', exclusiveMaximum: 0 });
  });

  it('port', () => {
    check(codec.int().refine(validate.port), 'port', [0, 8080, 65535], [-1, 65536]);
    check(codec.number().refine(validate.port), 'port', [443], [80.5]);
    expect(codec.number().refine(validate.port).schema).toEqual({ type: 'integer', minimum: 0, maximum: 65535 });
    expect(new codec.SchemaGenerator().parameterSchema(codec.intString().refine(validate.port))).toEqual({ type: 'integer', format: 'double-int', minimum: 0, maximum: 65535 });
  });
});

describe('collection constraints', () => {
  it('minItems, maxItems, uniqueItems', () => {
    check(codec.array(codec.int()).refine(validate.minItems(1)), 'minItems', [[1]], [[]]);
    check(codec.array(codec.int()).refine(validate.maxItems(1)), 'maxItems', [[1]], [[1, 2]]);
    check(codec.array(codec.any()).refine(validate.uniqueItems), 'uniqueItems', [[1, '1', { a: 1 }, { a: 2 }]], [[1, 1], [{ a: 1, b: 2 }, { b: 2, a: 1 }]]);
    expect(codec.array(codec.int()).refine(validate.minItems(1), validate.maxItems(3), validate.uniqueItems).schema).toEqual({
      type: 'array',
      items: codec.int().schema,
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
    });
  });

  it('minProperties and maxProperties', () => {
    check(codec.record(codec.int()).refine(validate.minProperties(1)), 'minProperties', [{ a: 1 }], [{}]);
    check(codec.record(codec.int()).refine(validate.maxProperties(1)), 'maxProperties', [{ a: 1 }], [{ a: 1, b: 2 }]);
    expect(codec.record(codec.int()).refine(validate.minProperties(1), validate.maxProperties(2)).schema).toMatchObject({ minProperties: 1, maxProperties: 2 });
  });
});

describe('byte constraints', () => {
  const b64 = (...bytes: number[]): string => codec.toBase64(Uint8Array.from(bytes));
  const ascii = (s: string, ...tail: number[]): string => b64(...Array.from(s, (c) => c.charCodeAt(0)), ...tail);

  it('recognise file signatures', () => {
    const bytes = (c: codec.Constraint<Uint8Array>): codec.Codec<Uint8Array> => codec.bytes().refine(c);
    check(bytes(validate.png), 'png', [b64(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)], [b64(0x89, 0x50, 0x4e, 0x47), b64()]);
    check(bytes(validate.jpeg), 'jpeg', [b64(0xff, 0xd8, 0xff, 0xe0)], [b64(0xff, 0xd8)]);
    check(bytes(validate.gif), 'gif', [ascii('GIF87a'), ascii('GIF89a', 1)], [ascii('GIF88a')]);
    check(bytes(validate.webp), 'webp', [ascii('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ')], [ascii('RIFF\u0000\u0000\u0000\u0000WAVE')]);
    check(bytes(validate.pdf), 'pdf', [ascii('%PDF-1.7')], [ascii('%PS-')]);
    check(bytes(validate.zip), 'zip', [ascii('PK\u0003\u0004'), ascii('PK\u0005\u0006')], [ascii('PK\u0001\u0002')]);
    check(bytes(validate.hasPrefix([1, 2])), 'hasPrefix', [b64(1, 2, 3)], [b64(1), b64(2, 1)]);
    expect(bytes(validate.png).schema).toMatchObject({ contentMediaType: 'image/png' });
    expect(() => bytes(validate.jpeg).decode(b64(0))).toThrow('must be a JPEG image');
  });

  it('minBytes and maxBytes', () => {
    check(codec.bytes().refine(validate.minBytes(2)), 'minBytes', [b64(1, 2)], [b64(1)]);
    check(codec.bytes().refine(validate.maxBytes(1)), 'maxBytes', [b64(1)], [b64(1, 2)]);
    expect(codec.bytes().refine(validate.maxBytes(1)).schema).toEqual(codec.bytes().schema);
    expect(validate.maxBytes(5 * 1024 * 1024).params).toEqual({ maxBytes: 5242880 });
  });
});

describe('constraint', () => {
  it('builds frozen constraints from parts', () => {
    const even = validate.constraint({ name: 'even', test: (n: number) => n % 2 === 0, message: 'must be even', schema: { multipleOf: 2 } });
    expect(Object.isFrozen(even)).toBe(true);
    check(codec.int().refine(even), 'even', [2], [3]);
    expect(codec.int().refine(even).schema.multipleOf).toBe(2);
    expect(() => codec.int().refine(even).decode(3)).toThrow('must be even');
  });
});
