import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as codec from './index.js';
import { compileDecoder, DecoderEmitter, FAIL, jitMode, setJit } from './internal/compile.js';

const initial = jitMode();
afterEach(() => setJit(initial));

/** The outcome of `decode` as data: the value, or the issues of the DecodeError. */
function outcome(c: codec.Codec<unknown>, wire: unknown): unknown {
  try {
    return { value: c.decode(wire) };
  } catch (err) {
    if (!(err instanceof codec.DecodeError)) throw err;
    return { issues: err.issues, message: err.message };
  }
}

/** `decode` compiled and interpreted, side by side. */
function both(c: codec.Codec<unknown>, wire: unknown): [compiled: unknown, interpreted: unknown] {
  setJit('auto');
  const compiled = outcome(c, wire);
  setJit('off');
  const interpreted = outcome(c, wire);
  setJit(initial);
  return [compiled, interpreted];
}

/** The compiled function itself (it must exist for these codecs). */
function compiled(c: codec.Codec<unknown>): (input: unknown) => unknown {
  return new DecoderEmitter().compile(c, () => FAIL);
}

const address = codec.object({ street: codec.string(), zip: codec.optional(codec.string()) });
const shapes: Record<string, codec.Codec<unknown>> = {
  user: codec.object({
    id: codec.string().refine({ name: 'short', test: (s: string) => s.length < 8, message: () => 'too long' }),
    age: codec.optional(codec.int()),
    score: codec.nullable(codec.number()),
    ok: codec.defaulted(codec.boolean(), true),
    tags: codec.array(codec.string()),
    kind: codec.literal('a'),
    small: codec.optional(codec.uint8()),
    address,
    any: codec.optional(codec.any()),
    when: codec.optional(codec.time()),
  }),
  strict: address.strict(),
  renamed: codec.object({ userId: codec.string(), n: codec.int32() }).withWireNames({ userId: 'user_id' }),
  nested: codec.array(codec.nullable(codec.array(codec.int16()))),
};

const wireValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(undefined, null, true, false, 0, -1, 1.5, 255, 256, 32768, Number.NaN, Infinity, 2 ** 60, '', 'a', 'abcdefghij', '2024-01-02T03:04:05Z'),
    fc.string(),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('id', 'age', 'score', 'ok', 'tags', 'kind', 'small', 'address', 'street', 'zip', 'user_id', 'userId', 'n', 'extra', 'any', 'when'),
      tie('value'),
      { maxKeys: 8 },
    ),
  ),
})).value;

describe('compiled decoders', () => {
  it('compiles every shape here (so the comparisons below compare two paths)', () => {
    setJit('auto');
    for (const c of Object.values(shapes)) expect(compileDecoder(c, () => FAIL)).toBeTypeOf('function');
    setJit('off');
    expect(compileDecoder(address, () => FAIL)).toBeUndefined();
  });

  for (const [name, c] of Object.entries(shapes)) {
    it(`${name}: compiled and interpreted decode give the same value or the same issues`, () => {
      fc.assert(
        fc.property(wireValue, (wire) => {
          const [a, b] = both(c, wire);
          expect(a).toEqual(b);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('decodes valid inputs without the interpreter, with the same key order and a fresh output', () => {
    const user = shapes['user'] as codec.Codec<unknown>;
    const wire = { tags: ['x'], id: 'u1', kind: 'a', score: null, address: { zip: '1', street: 's' }, extra: 1 };
    const fast = compiled(user);
    const out = fast(wire);
    expect(out).not.toBe(FAIL);
    setJit('off');
    expect(JSON.stringify(out)).toBe(JSON.stringify((outcome(user, wire) as { value: unknown }).value));
    expect(Object.keys(out as object)).toEqual(['id', 'score', 'ok', 'tags', 'kind', 'address']);
    expect((out as { address: unknown }).address).not.toBe(wire.address);
    // Invalid input: the compiled function only says so; the interpreter reports why.
    expect(fast({ ...wire, id: 'far too long' })).toBe(FAIL);
  });

  it('reads own properties only, as the interpreter does', () => {
    const c = codec.object({ id: codec.string(), toString: codec.optional(codec.string()) });
    const inherited = Object.create({ id: 'from the prototype' }) as Record<string, unknown>;
    expect(compiled(c)(inherited)).toBe(FAIL);
    expect(compiled(c)({ id: 'a' })).toEqual({ id: 'a' });
    expect(compiled(c)(Object.assign(Object.create(null) as object, { id: 'a', toString: 'b' }))).toEqual({ id: 'a', toString: 'b' });
  });

  it('treats hostile keys as data: they reach the generated code only as string literals', () => {
    const keys = ['"];process.exit()//', "'];globalThis.pwned=1//", '__proto__', 'constructor', 'a\u2028b', '\\', '${x}', 'ключ', '🙂'];
    const shape: Record<string, codec.Codec<unknown>> = {};
    for (const k of keys) Object.defineProperty(shape, k, { value: codec.string(), enumerable: true });
    const c = codec.object(shape);
    const e = new DecoderEmitter();
    const fast = e.compile(c, () => FAIL);
    const src = e.source();
    for (const k of keys) expect(src).toContain(JSON.stringify(k));
    // Every quote of a key is escaped: no key closes the string literal it sits in.
    expect(src).not.toMatch(/[^\\]"\];process\.exit/);

    const wire = JSON.parse(`{${keys.map((k, i) => `${JSON.stringify(k)}: "v${i}"`).join(',')}}`) as Record<string, unknown>;
    const out = fast(wire) as Record<string, unknown>;
    for (const [i, k] of keys.entries()) expect(Object.getOwnPropertyDescriptor(out, k)?.value).toBe(`v${i}`);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['pwned']).toBeUndefined();
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
    expect(c.decode(wire)).toEqual(out);
  });

  it('runs a subclass by its own parse, never by the compiled code of its parent', () => {
    class Upper extends codec.StringCodec {
      protected override parse(input: unknown, ctx: codec.DecodeContext): string | codec.Invalid {
        const s = super.parse(input, ctx);
        return typeof s === 'string' ? s.toUpperCase() : s;
      }
    }
    const c = codec.object({ name: new Upper() });
    expect(c.decode({ name: 'ab' })).toEqual({ name: 'AB' });
    setJit('off');
    expect(c.decode({ name: 'ab' })).toEqual({ name: 'AB' });
  });

  it('codecs it does not compile run by the interpreter inside the compiled code', () => {
    const c = codec.object({ at: codec.time(), n: codec.intString() });
    const [a, b] = both(c, { at: '2024-01-02T03:04:05Z', n: '12' });
    expect(a).toEqual(b);
    expect((a as { value: { at: Date } }).value.at).toBeInstanceOf(Date);
  });

  it('runs in the mode the environment asks for (the CI runs this suite both ways)', () => {
    expect(initial).toBe(process.env['LIB_CODEC_JIT'] === 'off' ? 'off' : 'auto');
  });

  it('setJit accepts auto and off only', () => {
    expect(() => setJit('on' as never)).toThrow(TypeError);
    setJit('off');
    expect(jitMode()).toBe('off');
  });
});

describe('where compiled functions are kept', () => {
  const atLeast3: codec.Constraint<string> = { name: 'atLeast3', test: (s) => s.length >= 3, message: () => 'too short' };

  it('compiles a copy made after the first decode on its own, with its own constraints', () => {
    const loose = codec.object({ name: codec.string() });
    expect(loose.decode({ name: 'x' })).toEqual({ name: 'x' });
    expect(codec.encodeJson(loose, { name: 'x' })).toBe('{"name":"x"}');
    const strict = codec.object({ name: codec.string().refine(atLeast3) }).withTitle('strict');
    const named = loose.withTitle('copy');
    expect(named.decode({ name: 'x' })).toEqual({ name: 'x' });
    expect(() => strict.decode({ name: 'x' })).toThrow(codec.DecodeError);
    const base = codec.string();
    base.decode('x');
    const refined = base.refine(atLeast3);
    expect(() => refined.decode('x')).toThrow(codec.DecodeError);
    expect(refined.decode('xyz')).toBe('xyz');
  });

  it('decodes and writes a codec the user froze', () => {
    const frozen = codec.object({ n: codec.int() });
    Object.freeze(frozen);
    for (let i = 0; i < 3; i++) expect(frozen.decode({ n: i })).toEqual({ n: i });
    expect(() => frozen.decode({ n: 'x' })).toThrow(codec.DecodeError);
    expect(codec.encodeJson(frozen, { n: 1 })).toBe('{"n":1}');
  });
});

describe('arrays returned in place', () => {
  const short: codec.Constraint<string> = { name: 'short', test: (s) => s.length < 4, message: () => 'too long' };
  const inPlace: Record<string, codec.Codec<unknown>> = {
    strings: codec.array(codec.string().refine(short)),
    ints: codec.array(codec.uint8()),
    nullableNumbers: codec.array(codec.nullable(codec.number())),
    nested: codec.array(codec.array(codec.boolean())),
  };

  it('returns an array whose items decode to themselves as it is, checked but not copied', () => {
    setJit('auto');
    const tags = ['a', 'bc'];
    expect(inPlace['strings']?.decode(tags)).toBe(tags);
    const user = codec.object({ name: codec.string(), tags: inPlace['strings'] as codec.Codec<string[]> });
    const wire = { name: 'x', tags };
    const out = user.decode(wire);
    expect(out).not.toBe(wire);
    expect(out.tags).toBe(tags);
    const grid = [[true], [false, true]];
    expect(inPlace['nested']?.decode(grid)).toBe(grid);
    expect(() => inPlace['strings']?.decode(['a', 'too long'])).toThrow(codec.DecodeError);
    expect(() => inPlace['ints']?.decode([1, 256])).toThrow(codec.DecodeError);
  });

  it('copies an array whose items are rebuilt, and an array of another class', () => {
    setJit('auto');
    const objects = [{ a: 'x' }];
    const out = codec.array(codec.object({ a: codec.string() })).decode(objects);
    expect(out).toEqual(objects);
    expect(out).not.toBe(objects);
    class Tags extends Array<string> {}
    const sub = Tags.from(['a']);
    const copied = inPlace['strings']?.decode(sub);
    expect(copied).not.toBe(sub);
    expect(Object.getPrototypeOf(copied)).toBe(Array.prototype);
    expect(copied).toStrictEqual(['a']);
  });

  it('gives each absent value its own copy of an array default', () => {
    setJit('auto');
    const c = codec.object({ grid: codec.defaulted(codec.array(codec.array(codec.int())), [[1]]) });
    const a = c.decode({});
    a.grid.push([2]);
    (a.grid[0] as number[]).push(3);
    expect(c.decode({})).toStrictEqual({ grid: [[1]] });
    const o = codec.object({ prefs: codec.defaulted(codec.object({ tags: codec.array(codec.string()) }), { tags: ['a'] }) });
    o.decode({}).prefs.tags.push('b');
    expect(o.decode({})).toStrictEqual({ prefs: { tags: ['a'] } });
  });

  const item = fc.oneof(fc.constantFrom<unknown>(undefined, null, true, false, 0, 1.5, 255, 256, NaN, '', 'ab', 'abcd'), fc.string({ maxLength: 5 }), fc.integer({ min: -2, max: 300 }));
  const arrays = fc.oneof(fc.array(item, { maxLength: 6 }), fc.sparseArray(item, { maxLength: 6 }), fc.array(fc.array(item, { maxLength: 3 }), { maxLength: 3 }));
  for (const [name, c] of Object.entries(inPlace)) {
    it(`${name}: in place or interpreted, the same value (holes included) or the same issues`, () => {
      fc.assert(
        fc.property(arrays, (wire) => {
          const [a, b] = both(c, wire);
          expect(a).toStrictEqual(b);
        }),
        { numRuns: 500 },
      );
    });
  }
});
