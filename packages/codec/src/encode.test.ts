import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

/** The error `f` throws; fails when it throws nothing. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** The issues of the `EncodeError` that `f` throws, as `[pointer, constraint, message]`. */
function encodeIssues(f: () => unknown): [string, string, string][] {
  const err = thrown(f);
  if (!(err instanceof codec.EncodeError)) throw new Error(`expected an EncodeError, got ${String(err)}`);
  return err.issues.map((i) => [i.pointer, i.constraint, i.message]);
}

/** Encoding `value` with `c` throws an `EncodeError` with one issue at the root. */
function rejects(c: codec.AnyCodec, value: unknown, constraint: string, message: string | RegExp): void {
  const err = thrown(() => c.encode(value));
  expect(err, String(value)).toBeInstanceOf(codec.EncodeError);
  const issues = (err as codec.EncodeError).issues;
  expect(issues, String(value)).toHaveLength(1);
  expect(issues[0]).toMatchObject({ path: [], pointer: '', constraint, value });
  if (typeof message === 'string') expect(issues[0]?.message).toBe(message);
  else expect(issues[0]?.message).toMatch(message);
}

const minLength = (n: number): codec.Constraint<string> => ({
  name: 'minLength',
  test: (v) => v.length >= n,
  message: () => `must have at least ${n} characters`,
  schema: { minLength: n },
});

describe('EncodeError', () => {
  it('is thrown for { n: NaN } through object({ n: int() }), with path, pointer, constraint and value', () => {
    const err = thrown(() => codec.object({ n: codec.int() }).encode({ n: NaN }));
    expect(err).toBeInstanceOf(codec.EncodeError);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(codec.DecodeError);
    const e = err as codec.EncodeError;
    expect(e.name).toBe('EncodeError');
    expect(e.message).toBe('n: expected a finite integer, got NaN');
    expect(e.issues).toEqual([{ path: ['n'], pointer: '/n', message: 'expected a finite integer, got NaN', constraint: 'type', value: NaN }]);
  });

  it('withPrefix prefixes every path; toDecodeError keeps the issues and the cause', () => {
    const e = thrown(() => codec.array(codec.string()).encode([1, 'a', true] as never)) as codec.EncodeError;
    expect(e.message).toBe('[0]: expected string, got number; [2]: expected string, got boolean');
    const p = e.withPrefix('body', 'items');
    expect(p).toBeInstanceOf(codec.EncodeError);
    expect(p.issues.map((i) => i.pointer)).toEqual(['/body/items/0', '/body/items/2']);
    expect(p.message).toBe('body.items[0]: expected string, got number; body.items[2]: expected string, got boolean');
    const d = e.toDecodeError();
    expect(d).toBeInstanceOf(codec.DecodeError);
    expect(d.issues).toBe(e.issues);
    expect(d.cause).toBe(e);
    expect(d.message).toBe(e.message);
  });
});

describe('encode checks the structure of scalars', () => {
  it('int: NaN, ±Infinity, fractions, unsafe integers and wrong types', () => {
    const c = codec.int();
    rejects(c, NaN, 'type', 'expected a finite integer, got NaN');
    rejects(c, Infinity, 'type', 'expected a finite integer, got Infinity');
    rejects(c, -Infinity, 'type', 'expected a finite integer, got -Infinity');
    rejects(c, 1.5, 'type', 'expected an integer, got 1.5');
    rejects(c, 2 ** 60, 'type', 'expected a safe integer, got 1152921504606847000');
    rejects(c, 2 ** 53, 'type', 'expected a safe integer, got 9007199254740992');
    rejects(c, '1', 'type', 'expected integer, got string');
    rejects(c, 1n, 'type', 'expected integer, got bigint');
    rejects(c, null, 'type', 'expected integer, got null');
    rejects(c, undefined, 'type', 'expected integer, got undefined');
    expect(c.encode(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(c.encode(-0)).toBe(-0);
  });

  it('sized integers: the range decode checks', () => {
    const widths = [
      [codec.int8(), -128, 127],
      [codec.int16(), -32768, 32767],
      [codec.int32(), -(2 ** 31), 2 ** 31 - 1],
      [codec.uint(), 0, Number.MAX_SAFE_INTEGER],
      [codec.uint8(), 0, 255],
      [codec.uint16(), 0, 65535],
      [codec.uint32(), 0, 2 ** 32 - 1],
    ] as const;
    for (const [c, min, max] of widths) {
      expect(c.encode(min)).toBe(min);
      expect(c.encode(max)).toBe(max);
      const range = c.kind === 'uint' ? 'expected a safe integer' : `expected an integer from ${min} to ${max} (${c.kind})`;
      if (c.kind !== 'uint') rejects(c, max + 1, 'type', `${range}, got ${max + 1}`);
      rejects(c, min - 1, 'type', c.kind === 'uint' ? 'expected an integer from 0 to 9007199254740991 (uint), got -1' : `${range}, got ${min - 1}`);
      rejects(c, 0.5, 'type', 'expected an integer, got 0.5');
      rejects(c, NaN, 'type', 'expected a finite integer, got NaN');
    }
  });

  it('number and float32: finite numbers (float32 in its range)', () => {
    rejects(codec.number(), NaN, 'type', 'expected a finite number, got NaN');
    rejects(codec.number(), Infinity, 'type', 'expected a finite number, got Infinity');
    rejects(codec.number(), '1.5', 'type', 'expected number, got string');
    expect(codec.number().encode(1.5)).toBe(1.5);
    rejects(codec.float32(), 3.5e38, 'type', 'expected a number in the float32 range, got 3.5e+38');
    rejects(codec.float32(), -Infinity, 'type', 'expected a finite number, got -Infinity');
    rejects(codec.float32(), true, 'type', 'expected number, got boolean');
    expect(codec.float32().encode(3.4028234663852886e38)).toBe(3.4028234663852886e38);
  });

  it('int64 and uint64: bigints in range', () => {
    rejects(codec.int64(), 1, 'type', 'expected bigint, got number');
    rejects(codec.int64(), '1', 'type', 'expected bigint, got string');
    rejects(codec.int64(), 2n ** 63n, 'type', /^expected an integer from -9223372036854775808 to 9223372036854775807 \(int64\), got 9223372036854775808$/);
    rejects(codec.uint64(), -1n, 'type', 'expected an integer from 0 to 18446744073709551615 (uint64), got -1');
    expect(codec.uint64().encode(2n ** 64n - 1n)).toBe('18446744073709551615');
  });

  it('string, boolean, bytes', () => {
    rejects(codec.string(), 1, 'type', 'expected string, got number');
    rejects(codec.string(), undefined, 'type', 'expected string, got undefined');
    rejects(codec.string(), ['a'], 'type', 'expected string, got array');
    rejects(codec.boolean(), 'true', 'type', 'expected boolean, got string');
    rejects(codec.boolean(), 0, 'type', 'expected boolean, got number');
    rejects(codec.bytes(), 'AAH+/w==', 'type', 'expected Uint8Array, got string');
    rejects(codec.bytes(), [0, 1], 'type', 'expected Uint8Array, got array');
    expect(codec.bytes().encode(Buffer.from([0, 1, 254, 255]))).toBe('AAH+/w==');
  });

  it('time and date: valid Dates of the years 0000 to 9999', () => {
    for (const c of [codec.time(), codec.date()]) {
      rejects(c, new Date(NaN), 'type', 'expected a valid Date, got Invalid Date');
      rejects(c, '2024-01-01T00:00:00.000Z', 'type', 'expected Date, got string');
      rejects(c, Date.UTC(2024, 0, 1), 'type', 'expected Date, got number');
      rejects(c, new Date('+010000-01-01T00:00:00.000Z'), 'format', 'expected a Date of the years 0000 to 9999 (RFC 3339), got +010000-01-01T00:00:00.000Z');
      rejects(c, new Date(-62167219200001), 'format', /got -000001-12-31T23:59:59\.999Z$/);
    }
    expect(codec.time().encode(new Date('9999-12-31T23:59:59.999Z'))).toBe('9999-12-31T23:59:59.999Z');
    expect(codec.date().encode(new Date('0000-01-01T00:00:00.000Z'))).toBe('0000-01-01');
  });

  it('duration: non-negative whole seconds as safe integers of milliseconds', () => {
    const d = codec.duration();
    const msg = 'expected a non-negative whole number of seconds, in milliseconds (a safe integer)';
    rejects(d, 1500, 'format', `${msg}, got 1500`);
    rejects(d, -1000, 'format', `${msg}, got -1000`);
    rejects(d, NaN, 'type', `${msg}, got NaN`);
    rejects(d, Infinity, 'type', `${msg}, got Infinity`);
    rejects(d, 'PT1S', 'type', 'expected number (milliseconds), got string');
    expect(d.encode(90_000)).toBe('PT1M30S');
    expect(d.encode(-0)).toBe('PT0S');
  });

  it('intString and boolString: the value, not its text', () => {
    rejects(codec.intString(), 1.5, 'type', 'expected an integer, got 1.5');
    rejects(codec.intString(), NaN, 'type', 'expected a finite integer, got NaN');
    rejects(codec.intString(), 2 ** 53, 'type', 'expected a safe integer, got 9007199254740992');
    rejects(codec.intString(), '01', 'type', 'expected integer, got string');
    rejects(codec.intString(), '9007199254740992', 'type', 'expected integer, got string');
    expect(codec.intString().encode(-12)).toBe('-12');
    // Record keys are text: the decimal text of a safe integer is written unchanged.
    expect(codec.intString().encode('-12' as never)).toBe('-12');
    rejects(codec.boolString(), 'true', 'type', 'expected boolean, got string');
    expect(codec.boolString().encode(false)).toBe('false');
  });

  it('literal, constant and eq: exactly their value', () => {
    rejects(codec.literal('a'), 'b', 'const', 'expected "a", got "b"');
    rejects(codec.literal(1), 2, 'const', 'expected 1, got 2');
    rejects(codec.literal(null), undefined, 'const', 'expected null, got undefined');
    rejects(codec.literal(true), NaN, 'const', 'expected true, got NaN');
    expect(codec.literal(null).encode(null)).toBeNull();
    const c = codec.constant({ v: 1, list: ['x'] });
    rejects(c, { v: 2, list: ['x'] }, 'const', 'expected {"v":1,"list":["x"]}');
    expect(c.encode({ list: ['x'], v: 1 })).toEqual({ v: 1, list: ['x'] });
    const epoch = codec.eq(codec.time(), new Date(0));
    rejects(epoch, new Date(1), 'const', 'expected "1970-01-01T00:00:00.000Z"');
    rejects(epoch, new Date(NaN), 'type', 'expected a valid Date, got Invalid Date');
    expect(epoch.encode(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('any accepts every value; empty accepts undefined, null and objects', () => {
    for (const v of [undefined, null, NaN, 1n, 'x', { a: [1] }]) expect(codec.any().encode(v)).toBe(v);
    const e = codec.empty();
    for (const v of [undefined, null, {}, { a: 1 }, []]) expect(e.encode(v as never)).toBeUndefined();
    rejects(e, 'ok', 'type', 'expected no body (undefined or an object), got string');
    rejects(e, 0, 'type', 'expected no body (undefined or an object), got number');
  });

  it('fromStandardSchema keeps its identity encoding: no check', () => {
    const c = codec.fromStandardSchema(z.object({ a: z.string() }));
    const wrong = { a: 1 } as never;
    expect(c.encode(wrong)).toBe(wrong);
    expect(() => c.validate(wrong)).toThrow(codec.DecodeError);
  });
});

describe('encode checks the structure of composites, with full paths', () => {
  const item = codec.object({ name: codec.string(), qty: codec.optional(codec.uint8()) });
  const order = codec
    .object({
      id: codec.string(),
      email: codec.string(),
      items: codec.array(item),
      note: codec.nullable(codec.string()),
      limit: codec.defaulted(codec.int(), 20),
      createdAt: codec.time(),
    })
    .withWireNames({ createdAt: 'created_at' });
  const good = { id: 'o1', email: 'a@b.c', items: [{ name: 'a' }, { name: 'b', qty: 2 }], note: null, limit: 5, createdAt: new Date(0) };

  it('encodes valid values exactly as before', () => {
    expect(order.encode(good)).toEqual({
      id: 'o1',
      email: 'a@b.c',
      items: [{ name: 'a' }, { name: 'b', qty: 2 }],
      note: null,
      limit: 5,
      created_at: '1970-01-01T00:00:00.000Z',
    });
    // A defaulted field holding undefined is left out (it decodes to the default).
    expect(order.encode({ ...good, limit: undefined as never })).not.toHaveProperty('limit');
  });

  it('names a nested array item', () => {
    const bad = { ...good, items: [{ name: 'a' }, { name: 'b' }, { name: 3 }] } as never;
    const err = thrown(() => order.encode(bad)) as codec.EncodeError;
    expect(err).toBeInstanceOf(codec.EncodeError);
    expect(err.message).toBe('items[2].name: expected string, got number');
    expect(err.issues[0]).toMatchObject({ path: ['items', 2, 'name'], pointer: '/items/2/name', value: 3 });
  });

  it('reports a missing required field, at its wire key', () => {
    const { email: _email, createdAt: _createdAt, ...rest } = good;
    const err = thrown(() => order.encode(rest as never)) as codec.EncodeError;
    expect(err.message).toBe('email: is required; created_at: is required');
    expect(err.issues[0]).toEqual({ path: ['email'], pointer: '/email', message: 'is required', constraint: 'required', value: undefined });
    expect(encodeIssues(() => order.encode({ ...good, email: undefined } as never))).toEqual([['/email', 'required', 'is required']]);
  });

  it('collects every issue of one encode, in field order', () => {
    const bad = { id: 1, email: 'a', items: [{ name: 'a', qty: 300 }, 'x'], note: undefined, limit: 1.5, createdAt: new Date(NaN) } as never;
    expect(encodeIssues(() => order.encode(bad))).toEqual([
      ['/id', 'type', 'expected string, got number'],
      ['/items/0/qty', 'type', 'expected an integer from 0 to 255 (uint8), got 300'],
      ['/items/1', 'type', 'expected object, got string'],
      ['/note', 'required', 'is required'],
      ['/limit', 'type', 'expected an integer, got 1.5'],
      ['/created_at', 'type', 'expected a valid Date, got Invalid Date'],
    ]);
  });

  it('object and array: the value must be an object / an array', () => {
    for (const v of [null, [], 'x', 1, new Uint8Array(1)]) expect(() => item.encode(v as never), String(v)).toThrow(codec.EncodeError);
    rejects(item, null, 'type', 'expected object, got null');
    rejects(item, [], 'type', 'expected object, got array');
    rejects(codec.array(codec.int()), { 0: 1, length: 1 }, 'type', 'expected array, got object');
    rejects(codec.array(codec.int()), 'ab', 'type', 'expected array, got string');
  });

  it('optional and nullable: absent or null, else the inner checks', () => {
    const o = codec.optional(codec.int());
    expect(o.encode(undefined)).toBeUndefined();
    rejects(o, null, 'type', 'expected integer, got null');
    const n = codec.nullable(codec.int());
    expect(n.encode(null)).toBeNull();
    rejects(n, undefined, 'type', 'expected integer, got undefined');
    rejects(n, NaN, 'type', 'expected a finite integer, got NaN');
    rejects(codec.defaulted(codec.int(), 1), 'x', 'type', 'expected integer, got string');
  });

  it('escapes wire keys in pointers', () => {
    const c = codec.object({ 'a/b~c': codec.object({ n: codec.int() }) });
    expect(thrown(() => c.encode({ 'a/b~c': { n: Infinity } }))).toMatchObject({
      message: '["a/b~c"].n: expected a finite integer, got Infinity',
      issues: [{ path: ['a/b~c', 'n'], pointer: '/a~1b~0c/n' }],
    });
  });

  it('record: an object; issues at the wire key; undefined values left out', () => {
    const r = codec.record(codec.int());
    rejects(r, null, 'type', 'expected object, got null');
    rejects(r, [1], 'type', 'expected object, got array');
    expect(encodeIssues(() => r.encode({ a: 1, b: 1.5, c: 'x' } as never))).toEqual([
      ['/b', 'type', 'expected an integer, got 1.5'],
      ['/c', 'type', 'expected integer, got string'],
    ]);
    expect(r.encode({ a: 1, b: undefined } as never)).toEqual({ a: 1 });
    const byNumber = codec.record(codec.intString(), codec.boolean());
    expect(byNumber.encode({ 1: true, [-2]: false })).toEqual({ '1': true, '-2': false });
    expect(encodeIssues(() => byNumber.encode({ 1: 'no' } as never))).toEqual([['/1', 'type', 'expected boolean, got string']]);
    const upper = codec.map(codec.string(), (s) => s.toUpperCase(), (s) => s.toLowerCase());
    const renamed = codec.record(upper, codec.int());
    expect(encodeIssues(() => renamed.encode({ AB: NaN }))).toEqual([['/ab', 'type', 'expected a finite integer, got NaN']]);
    // A key the key codec cannot write is reported at the key as given.
    const strict = codec.record(codec.literal('a'), codec.int());
    expect(encodeIssues(() => strict.encode({ a: 1, b: 2 } as never))).toEqual([['/b', 'const', 'expected "a", got "b"']]);
  });

  it('taggedUnion: a missing or unknown tag is an issue at the tag; variants check their fields', () => {
    const shape = codec.taggedUnion('kind', {
      circle: codec.object({ r: codec.number() }),
      square: codec.object({ side: codec.number() }),
    });
    expect(shape.encode({ kind: 'circle', r: 1 })).toEqual({ kind: 'circle', r: 1 });
    expect(encodeIssues(() => shape.encode({ r: 1 } as never))).toEqual([['/kind', 'discriminator', 'expected one of "circle", "square", got undefined']]);
    expect(encodeIssues(() => shape.encode({ kind: 'oval', r: 1 } as never))).toEqual([['/kind', 'discriminator', 'expected one of "circle", "square", got "oval"']]);
    expect(encodeIssues(() => shape.encode({ kind: 'toString' } as never))).toEqual([['/kind', 'discriminator', 'expected one of "circle", "square", got "toString"']]);
    expect(encodeIssues(() => shape.encode({ kind: 1 } as never))).toEqual([['/kind', 'discriminator', 'expected one of "circle", "square", got number']]);
    expect(encodeIssues(() => shape.encode({ kind: 'circle', r: NaN }))).toEqual([['/r', 'type', 'expected a finite number, got NaN']]);
    expect(encodeIssues(() => shape.encode({ kind: 'square' } as never))).toEqual([['/side', 'required', 'is required']]);
    rejects(shape, 'circle', 'type', 'expected object, got string');
    const list = codec.object({ shapes: codec.array(shape) });
    expect(thrown(() => list.encode({ shapes: [{ kind: 'circle', r: 1 }, { kind: 'oval' } as never] }))).toMatchObject({
      message: 'shapes[1].kind: expected one of "circle", "square", got "oval"',
    });
  });

  it('untaggedUnion: the value must encode through one alternative', () => {
    const u = codec.untaggedUnion(codec.int(), codec.string());
    expect(u.encode(1)).toBe(1);
    expect(u.encode('a')).toBe('a');
    const err = thrown(() => u.encode(1.5)) as codec.EncodeError;
    expect(err).toBeInstanceOf(codec.EncodeError);
    expect(err.issues).toEqual([
      {
        path: [],
        pointer: '',
        message: 'matches no alternative (expected an integer, got 1.5 | expected string, got number)',
        constraint: 'anyOf',
        value: 1.5,
      },
    ]);
    expect(encodeIssues(() => codec.object({ v: u }).encode({ v: true } as never))).toEqual([
      ['/v', 'anyOf', 'matches no alternative (expected integer, got boolean | expected string, got boolean)'],
    ]);
    // Alternatives are tried quietly; the message of a nested union still names every problem.
    const nested = codec.untaggedUnion(codec.object({ a: u }), codec.string());
    expect(nested.encode({ a: 'x' })).toEqual({ a: 'x' });
    expect(encodeIssues(() => nested.encode({ a: true } as never))).toEqual([
      ['', 'anyOf', 'matches no alternative (a: matches no alternative (expected integer, got boolean | expected string, got boolean) | expected string, got object)'],
    ]);
    // A failing mapValidated or a throwing map function only rules its alternative out.
    const odd = codec.mapValidated(codec.int(), (n) => n, (n: number) => {
      if (n % 2 === 0) throw new Error('must be odd');
      return n;
    });
    const throwing = codec.map(codec.int(), (n) => n, (): number => {
      throw new TypeError('boom');
    });
    const either = codec.untaggedUnion(throwing, odd, codec.literal(2));
    expect(either.encode(3)).toBe(3);
    expect(either.encode(2)).toBe(2);
    expect(encodeIssues(() => either.encode(4))).toEqual([['', 'anyOf', 'matches no alternative (boom | must be odd | expected 2, got 4)']]);
    // Errors stay errors once the union is done.
    expect(() => codec.int().encode(NaN)).toThrow(codec.EncodeError);
    expect(() => odd.encode(2)).toThrow(codec.DecodeError);
    // Constraints do not run on encode: a value only a constraint refuses is still written.
    const short = codec.untaggedUnion(codec.string().refine(minLength(3)), codec.int());
    expect(short.encode('ab')).toBe('ab');
    expect(() => short.validate('ab')).toThrow(codec.DecodeError);
  });

  it('lazy: recursive values get full paths', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => node)) });
    const v = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }, { name: 1, children: [] }] }] } as never;
    expect(thrown(() => node.encode(v))).toMatchObject({ message: 'children[0].children[1].name: expected string, got number' });
    expect(encodeIssues(() => codec.lazy(() => codec.int()).encode(0.5))).toEqual([['', 'type', 'expected an integer, got 0.5']]);
  });

  it("map: the encode function's result goes through the inner checks; its own errors propagate", () => {
    const url = codec.map(codec.string(), (s) => new URL(s), (u) => u.href);
    expect(url.encode(new URL('https://a.example/'))).toBe('https://a.example/');
    expect(encodeIssues(() => url.encode('https://a.example/' as never))).toEqual([['', 'type', 'expected string, got undefined']]);
    const boom = codec.map(codec.string(), (s) => s, (): string => {
      throw new RangeError('boom');
    });
    expect(() => codec.object({ a: boom, b: codec.int() }).encode({ a: 'x', b: NaN })).toThrow(RangeError);
  });

  it('mapValidated: a failed encode function stays a DecodeError alone, and joins structural issues in an EncodeError', () => {
    const https = codec.mapValidated(
      codec.string(),
      (s) => new URL(s),
      (u) => {
        if (u.protocol !== 'https:') throw new Error('must be an https URL');
        return u.href;
      },
    );
    const page = codec.object({ link: https, n: codec.int() });
    const alone = thrown(() => page.encode({ link: new URL('http://a.example/'), n: 1 }));
    expect(alone).toBeInstanceOf(codec.DecodeError);
    expect(alone).toMatchObject({ message: 'link: must be an https URL' });
    expect(encodeIssues(() => page.encode({ link: new URL('http://a.example/'), n: NaN }))).toEqual([
      ['/link', 'map', 'must be an https URL'],
      ['/n', 'type', 'expected a finite integer, got NaN'],
    ]);
  });
});

describe('constraints stay on decode and validate', () => {
  const name = codec.string().refine(minLength(3));

  it('encode runs no constraint', () => {
    expect(name.encode('a')).toBe('a');
    expect(codec.object({ name }).encode({ name: '' })).toEqual({ name: '' });
  });

  it('validate throws only DecodeError: structural issues come with the EncodeError as cause', () => {
    const c = codec.object({ name, n: codec.int() });
    const structural = thrown(() => c.validate({ name: 'abc', n: NaN }));
    expect(structural).toBeInstanceOf(codec.DecodeError);
    expect(structural).not.toBeInstanceOf(codec.EncodeError);
    expect((structural as codec.DecodeError).cause).toBeInstanceOf(codec.EncodeError);
    expect((structural as codec.DecodeError).issues).toEqual([
      { path: ['n'], pointer: '/n', message: 'expected a finite integer, got NaN', constraint: 'type', value: NaN },
    ]);
    const constrained = thrown(() => c.validate({ name: 'a', n: 1 }));
    expect(constrained).toBeInstanceOf(codec.DecodeError);
    expect((constrained as codec.DecodeError).issues[0]).toMatchObject({ pointer: '/name', constraint: 'minLength' });
    expect(() => codec.duration().validate(1500)).toThrow(codec.DecodeError);
  });

  it('validate reports the constraints of sound fields beside structural issues, as decoding the wire does', () => {
    const minLength = (n: number): codec.Constraint<string> => ({ name: 'minLength', test: (v) => v.length >= n, message: () => `must have at least ${n} characters` });
    const min = (n: number): codec.Constraint<number> => ({ name: 'min', test: (v) => v >= n, message: () => `must be at least ${n}` });
    const book = codec.object({
      title: codec.string().refine(minLength(1)),
      year: codec.int().refine(min(1450)),
      tags: codec.array(codec.string().refine(minLength(2))),
      kind: codec.taggedUnion('type', { print: codec.object({ pages: codec.int().refine(min(1)) }) }),
    });
    const value = { title: '', year: 'x', tags: ['a', 3], kind: { type: 'print', pages: 0 } } as unknown as codec.Infer<typeof book>;
    const issues = (thrown(() => book.validate(value)) as codec.DecodeError).issues.map((i) => `${i.pointer} ${i.constraint}`);
    expect(issues).toEqual(['/title minLength', '/year type', '/tags/0 minLength', '/tags/1 type', '/kind/pages min']);
    const decoded = (thrown(() => book.decode(JSON.parse(JSON.stringify(value)))) as codec.DecodeError).issues.map((i) => `${i.pointer} ${i.constraint}`);
    expect(issues).toEqual(decoded);
  });

  it('newValue and must report structural issues as a DecodeError', () => {
    const c = codec.object({ n: codec.uint8() });
    expect(() => codec.newValue(c, { n: 2 ** 60 })).toThrow(codec.DecodeError);
    const err = thrown(() => codec.must(c, { n: Infinity }));
    expect(err).toBeInstanceOf(codec.MustError);
    expect((err as codec.MustError).cause).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.MustError).issues[0]).toMatchObject({ pointer: '/n', message: 'expected a finite integer, got Infinity' });
  });

  it('codecs built from values check them: defaulted and validate throw DecodeError, eq and withExample EncodeError', () => {
    expect(() => codec.defaulted(codec.int(), NaN)).toThrow(codec.DecodeError);
    expect(() => codec.eq(codec.int(), 0.5)).toThrow(codec.EncodeError);
    expect(() => codec.int().withExample(Infinity)).toThrow(codec.EncodeError);
    expect(codec.int().withExample(3).meta.examples).toEqual([3]);
  });
});
