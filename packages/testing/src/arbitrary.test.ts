import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeString } from './formats.js';
import { arbitrary, type RefusedValue } from './index.js';

const draw = <T>(arb: fc.Arbitrary<T>, n = 200): T[] => fc.sample(arb, { numRuns: n, seed: 42 });

describe('arbitrary: refusals are labelled', () => {
  it('a malformed UUID, a missing field, a number out of range, a nested field', () => {
    const user = codec.object({
      id: codec.string().refine(validate.uuid),
      age: codec.int8().refine(validate.min(0)),
      address: codec.object({ zip: codec.string().refine(validate.pattern(/^\d{5}$/)) }),
    });
    const labels = new Set(draw(arbitrary(user, { valid: false }), 400).map((r) => `${r.constraint}@${r.pointer}`));
    for (const l of ['uuid@/id', 'required@/id', 'min@/age', 'type@/age', 'pattern@/address/zip', 'required@/address/zip', 'type@']) expect(labels).toContain(l);
  });

  it('breaks minLength by one code point at most, counted as JSON Schema counts', () => {
    const c = codec.string().refine(validate.minLength(3));
    for (const r of draw(arbitrary(c, { valid: false }))) {
      if (r.constraint === 'minLength') expect(Array.from(r.value as string).length).toBeLessThan(3);
    }
    for (const v of draw(arbitrary(c))) expect(Array.from(v as string).length).toBeGreaterThanOrEqual(3);
  });

  it('does not break a constraint that cannot be broken alone', () => {
    const c = codec.string().refine(validate.uuid, validate.maxLength(36));
    expect(new Set(draw(arbitrary(c, { valid: false })).map((r) => r.constraint))).toEqual(new Set(['uuid', 'type']));
  });

  it('gives wire values: the text of string-carried values, base64 for bytes', () => {
    expect(draw(arbitrary(codec.intString())).every((v) => typeof v === 'string')).toBe(true);
    expect(draw(arbitrary(codec.int64())).every((v) => typeof v === 'string' && /^-?\d+$/.test(v))).toBe(true);
    expect(draw(arbitrary(codec.bytes().refine(validate.png))).every((v) => codec.fromBase64(v as string)?.[0] === 0x89)).toBe(true);
  });
});

describe('arbitrary: constraints combine', () => {
  it('intersects bounds and keeps every constraint', () => {
    const c = codec.int().refine(validate.min(-3), validate.max(100), validate.range(0, 10), validate.oneOf(2, 4, 12));
    expect(new Set(draw(arbitrary(c)))).toEqual(new Set([2, 4]));
  });

  it("filters the candidates by a constraint of your own (its test), and breaks it", () => {
    const multipleOf7 = validate.constraint({ name: 'multipleOf7', test: (n: number) => n % 7 === 0, message: 'must be a multiple of 7' });
    const c = codec.int().refine(multipleOf7);
    expect(draw(arbitrary(c)).every((n) => (n as number) % 7 === 0)).toBe(true);
    expect(draw(arbitrary(c, { valid: false })).some((r) => r.constraint === 'multipleOf7')).toBe(true);
  });
});

describe('arbitrary: what it cannot generate', () => {
  it('throws a TypeError naming the kind for a stream; a foreign schema and a class of your own are read from their JSON Schema', () => {
    expect(() => arbitrary(codec.stream(codec.int()))).toThrow(/kind "stream".*arbitrary\(streamCodec\.item\)/);
    expect(() => arbitrary(codec.never())).toThrow(/kind "never".*admits no value/);
    const standard = {
      '~standard': { version: 1 as const, vendor: 'mine', validate: (value: unknown) => (typeof value === 'string' ? { value } : { issues: [{ message: 'not a string' }] }) },
    };
    const mine = codec.fromStandardSchema(standard, { jsonSchema: { type: 'string', minLength: 2 } });
    expect(draw(arbitrary(mine)).every((w) => typeof w === 'string' && [...w].length >= 2)).toBe(true);
    expect(draw(arbitrary(mine, { valid: false })).every((r) => typeof r.value !== 'string' && r.constraint === 'type')).toBe(true);
    class Upper extends codec.StringCodec {}
    expect(draw(arbitrary(new Upper())).every((w) => typeof w === 'string')).toBe(true);
    const never = codec.fromStandardSchema({ '~standard': { version: 1 as const, vendor: 'mine', validate: () => ({ issues: [{ message: 'no' }] }) } }, { jsonSchema: {} });
    expect(() => arbitrary(never)).toThrow(/from its JSON Schema: no candidate decodes/);
  });

  it('throws a TypeError for constraints no value satisfies together', () => {
    expect(() => arbitrary(codec.string().refine(validate.minLength(5), validate.maxLength(2)))).toThrow(/no candidate satisfies every constraint/);
    expect(() => arbitrary(codec.int8().refine(validate.min(200)))).toThrow(TypeError);
    expect(() => arbitrary(codec.bytes().refine(validate.png, validate.jpeg))).toThrow(TypeError);
  });

  it('throws a TypeError when asked to refuse for a codec that refuses nothing', () => {
    expect(() => arbitrary(codec.any(), { valid: false })).toThrow(/refuses no value/);
    expect(() => arbitrary(codec.empty(), { valid: false })).toThrow(/refuses no value/);
    expect(draw(arbitrary(codec.array(codec.any()), { valid: false })).every((r) => r.constraint === 'type')).toBe(true);
  });

  it('throws a TypeError for a recursive codec with no finite value, and for a bad maxDepth', () => {
    type Loop = { next: Loop };
    const loop: codec.Codec<Loop> = codec.object({ next: codec.lazy(() => loop) });
    expect(() => arbitrary(loop)).toThrow(/has no finite value/);
    expect(() => arbitrary(codec.int(), { maxDepth: -1 })).toThrow(TypeError);
    expect(() => arbitrary(codec.int(), { maxDepth: 1.5 })).toThrow(TypeError);
  });
});

describe('arbitrary: recursion', () => {
  type Node = { name: string; children: Node[] };
  const node: codec.Codec<Node> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => node)) });
  const depth = (n: Node): number => 1 + Math.max(0, ...n.children.map(depth));

  it('enters a recursive codec at most maxDepth times', () => {
    for (const maxDepth of [0, 1, 3]) {
      const trees = draw(arbitrary(node, { maxDepth }), 100) as Node[];
      expect(Math.max(...trees.map(depth))).toBeLessThanOrEqual(maxDepth + 2);
      for (const t of trees) expect(() => node.decode(t)).not.toThrow();
    }
    expect(Math.max(...(draw(arbitrary(node, { maxDepth: 3 }), 300) as Node[]).map(depth))).toBeGreaterThan(2);
  });

  it('refuses deep inside', () => {
    const pointers = draw(arbitrary(node, { valid: false }), 400).map((r: RefusedValue) => r.pointer);
    expect(pointers.some((p) => /^\/children\/\d+\/children\/\d+\//.test(p))).toBe(true);
  });
});

describe('arbitrary: free text', () => {
  // The unit of any code point is fast-check's `binary` one with an arithmetic way back (fast-check
  // builds a table of every code point for it, over a second): the same draws, the same shrinks.
  const fastChecks = (lo: number, hi: number): fc.Arbitrary<string> =>
    fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: lo, maxLength: hi }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: lo, maxLength: hi }) });

  it("draws and shrinks as fast-check's binary strings do", () => {
    expect(draw(freeString(0, 20), 1000)).toEqual(draw(fastChecks(0, 20), 1000));
    expect(draw(freeString(3, 5), 300)).toEqual(draw(fastChecks(3, 5), 300));
    const astral = (s: unknown): boolean => [...(s as string)].some((c) => (c.codePointAt(0) as number) > 0xffff) && (s as string).length > 4;
    const ours = fc.check(fc.property(freeString(0, 20), (s) => !astral(s)), { seed: 9 });
    const theirs = fc.check(fc.property(fastChecks(0, 20), (s) => !astral(s)), { seed: 9 });
    expect(ours.failed).toBe(true);
    expect(ours.counterexample).toEqual(theirs.counterexample);
    expect(ours.numShrinks).toBe(theirs.numShrinks);
  });
});
