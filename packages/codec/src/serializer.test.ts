import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as codec from './index.js';
import { jitMode, setJit } from './internal/compile.js';
import { compileSerializer, quote, SerializerEmitter } from './internal/serializer.js';
import { FIRST_INSTANT, instantText, LAST_INSTANT } from './time.js';
import { INVALID } from './codec.js';

const initial = jitMode();
afterEach(() => setJit(initial));

/** What a serialization gives, as data: the text, or the error's class and issues. */
function outcome(run: () => string | undefined): unknown {
  try {
    return { text: run() };
  } catch (err) {
    if (err instanceof codec.EncodeError || err instanceof codec.DecodeError) return { error: err.name, issues: err.issues, message: err.message };
    if (err instanceof TypeError) return { error: 'TypeError' };
    throw err;
  }
}

/** The compiled function itself (it must exist for these codecs). */
function compiled(c: codec.Codec<unknown>): (value: unknown) => unknown {
  const f = compileSerializer(c);
  if (f === undefined) throw new Error('not compiled');
  return f;
}

const address = codec.object({ street: codec.string(), zip: codec.optional(codec.string()) });
const shapes: Record<string, codec.Codec<unknown>> = {
  user: codec.object({
    id: codec.string(),
    age: codec.optional(codec.int()),
    score: codec.nullable(codec.number()),
    ok: codec.defaulted(codec.boolean(), true),
    tags: codec.array(codec.string()),
    kind: codec.literal('a'),
    small: codec.optional(codec.uint8()),
    address,
    any: codec.optional(codec.any()),
    when: codec.optional(codec.time()),
    n: codec.optional(codec.intString()),
  }),
  optionalFirst: codec.object({ a: codec.optional(codec.string()), b: codec.any(), c: codec.optional(codec.nullable(codec.int())), d: codec.boolean() }),
  integerKeys: codec.object({ b: codec.string(), 2: codec.optional(codec.int()), 1: codec.string(), a: codec.optional(codec.string()) }),
  renamed: codec.object({ userId: codec.string(), n: codec.int32() }).withWireNames({ userId: 'user_id' }),
  nested: codec.array(codec.nullable(codec.array(codec.int16()))),
  anyItems: codec.array(codec.any()),
  root: codec.optional(codec.nullable(codec.string())),
};

const strings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', 'a', '"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', 'a\udc00b', '🙂', 'x'.repeat(65), `${'y'.repeat(70)}"`, `${'z'.repeat(70)}\ud83d`),
);
const withToJson = { toJSON: (key: string) => `key:${key}` };
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(undefined, null, true, false, 0, -0, -1, 1.5, 1e21, 255, 256, 32768, Number.NaN, Infinity, 2 ** 60, 'a', withToJson, () => 1, Symbol('s'), new Uint8Array(2)),
    fc.constantFrom(new Date(0), new Date(Number.NaN), new Date(-62167219200001), new Date('2024-01-02T03:04:05.678Z')),
    strings,
    fc.integer(),
    fc.double(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('id', 'age', 'score', 'ok', 'tags', 'kind', 'small', 'address', 'street', 'zip', 'user_id', 'userId', 'n', 'any', 'when', 'a', 'b', 'c', 'd', '1', '2', 'toString'),
      tie('value'),
      { maxKeys: 9 },
    ),
  ),
})).value;

/** Values of `c`'s decoded type (mostly valid ones), so the compiled path writes text, not only refuses. */
function valuesOf(c: codec.Codec<unknown>): fc.Arbitrary<unknown> {
  if (c instanceof codec.StringCodec) return strings;
  if (c instanceof codec.IntCodec) return fc.integer({ min: Math.max(c.range.minimum, -(2 ** 31)), max: Math.min(c.range.maximum, 2 ** 31) });
  if (c instanceof codec.IntStringCodec) return fc.integer();
  if (c instanceof codec.NumberCodec) return fc.double({ noNaN: true, noDefaultInfinity: true });
  if (c instanceof codec.BooleanCodec) return fc.boolean();
  if (c instanceof codec.LiteralCodec) return fc.constant(c.value);
  if (c instanceof codec.TimeCodec) return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true });
  if (c instanceof codec.AnyValueCodec) return fc.jsonValue();
  if (c instanceof codec.OptionalCodec || c instanceof codec.DefaultedCodec) return fc.option(valuesOf(c.inner), { nil: undefined });
  if (c instanceof codec.NullableCodec) return fc.option(valuesOf(c.inner), { nil: null });
  if (c instanceof codec.ArrayCodec) return fc.array(valuesOf(c.item), { maxLength: 4 });
  if (c instanceof codec.ObjectCodec) {
    const shape = c.shape as Record<string, codec.Codec<unknown>>;
    return fc.record(Object.fromEntries(Object.keys(shape).map((k) => [k, valuesOf(shape[k] as codec.Codec<unknown>)])));
  }
  throw new Error(`no values for ${c.kind}`);
}

describe('encodeJson', () => {
  it('compiles every shape here (so the comparisons below compare two paths)', () => {
    setJit('auto');
    for (const c of Object.values(shapes)) expect(compileSerializer(c)).toBeTypeOf('function');
  });

  for (const [name, c] of Object.entries(shapes)) {
    it(`${name}: gives exactly JSON.stringify(encode(value)), or the same error`, () => {
      fc.assert(
        fc.property(fc.oneof(value, valuesOf(c)), (v) => {
          setJit('auto');
          const fast = outcome(() => codec.encodeJson(c, v));
          const slow = outcome(() => JSON.stringify(c.encode(v)));
          expect(fast).toEqual(slow);
          setJit('off');
          expect(outcome(() => codec.encodeJson(c, v))).toEqual(slow);
        }),
        { numRuns: 500 },
      );
    });
  }

  for (const [name, c] of Object.entries(shapes)) {
    it(`${name}: the compiled function writes every valid value itself`, () => {
      fc.assert(
        fc.property(valuesOf(c), (v) => {
          expect(compiled(c)(v)).toBe(JSON.stringify(c.encode(v)));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('writes valid values in one pass, without the fallback', () => {
    const user = shapes['user'] as codec.Codec<unknown>;
    const v = { tags: ['x', 'y\n'], id: 'u"1', kind: 'a', score: null, ok: false, address: { zip: undefined, street: 's' }, when: new Date(0), n: 7, any: { b: [1, undefined] }, extra: 1 };
    const text = compiled(user)(v);
    expect(text).toBe(JSON.stringify(user.encode(v)));
    expect(text).toBe(
      '{"id":"u\\"1","score":null,"ok":false,"tags":["x","y\\n"],"kind":"a","address":{"street":"s"},"any":{"b":[1,null]},"when":"1970-01-01T00:00:00.000Z","n":"7"}',
    );
    // Wrong structure: the compiled function only says so; encode reports why.
    expect(compiled(user)({ ...v, id: 1 })).toBe(INVALID);
    expect(() => codec.encodeJson(user, { ...v, id: 1 })).toThrow(codec.EncodeError);
  });

  it('writes the fields in the order JSON.stringify gives: integer keys first', () => {
    const c = shapes['integerKeys'] as codec.Codec<unknown>;
    const v = { a: 'x', b: 'y', 1: 'one', 2: 2 };
    expect(codec.encodeJson(c, v)).toBe('{"1":"one","2":2,"b":"y","a":"x"}');
  });

  it('reads fields as encode does: getters and prototypes, but not members of Object.prototype', () => {
    class User {
      readonly #id = 'u1';
      get id(): string {
        return this.#id;
      }
    }
    const c = codec.object({ id: codec.string(), toString: codec.optional(codec.string()) });
    expect(compiled(c)(new User())).toBe('{"id":"u1"}');
    expect(codec.encodeJson(c, new User() as never)).toBe(JSON.stringify(c.encode(new User() as never)));
  });

  it('treats hostile keys as data: they reach the generated code only as string literals', () => {
    const keys = ['"];process.exit()//', "'];globalThis.pwned=1//", '__proto__', 'constructor', 'a\u2028b', '\\', '${x}', 'ключ', '🙂'];
    const shape: Record<string, codec.Codec<unknown>> = {};
    for (const k of keys) Object.defineProperty(shape, k, { value: codec.string(), enumerable: true });
    const c = codec.object(shape);
    const e = new SerializerEmitter();
    const fast = e.compile(c);
    expect(e.source()).not.toMatch(/[^\\]"\];process\.exit/);
    const v: Record<string, unknown> = {};
    for (const [i, k] of keys.entries()) Object.defineProperty(v, k, { value: `v${i}`, enumerable: true });
    const text = fast(v);
    expect(text).toBe(JSON.stringify(c.encode(v)));
    expect(Object.getOwnPropertyDescriptor(JSON.parse(text as string), '__proto__')?.value).toBe('v2');
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });

  it('quotes strings exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(strings, (s) => {
        expect(quote(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes instants exactly as toISOString does, over the whole range of the time codec', () => {
    const edges = [FIRST_INSTANT, LAST_INSTANT, 0, -1, 1, -62135596800001, -30610224000000, 946684799999, 951782400000, 253402300799000];
    for (const t of edges) expect(instantText(t)).toBe(new Date(t).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: FIRST_INSTANT, max: LAST_INSTANT }), (t) => {
        expect(instantText(t)).toBe(new Date(t).toISOString());
      }),
      { numRuns: 5000 },
    );
  });
});
