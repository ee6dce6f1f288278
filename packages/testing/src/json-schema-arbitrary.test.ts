import * as codec from '@lib/codec';
import { DecodeError, type AnyCodec } from '@lib/codec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arbitrary } from './index.js';

const draw = <T>(arb: fc.Arbitrary<T>, numRuns = 200): T[] => fc.sample(arb, { numRuns, seed: 42 });

/** Every valid value decodes; every refusal is refused; returns the labels seen. */
function check(c: AnyCodec): Set<string> {
  for (const w of draw(arbitrary(c))) expect(() => c.decode(w), JSON.stringify(w)).not.toThrow();
  const seen = new Set<string>();
  for (const r of draw(arbitrary(c, { valid: false }), 400)) {
    expect(() => c.decode(r.value), `${r.constraint}@${r.pointer}: ${JSON.stringify(r.value)}`).toThrow(DecodeError);
    seen.add(`${r.constraint}@${r.pointer}`);
  }
  return seen;
}

describe('arbitrary: schemas of zod, valibot and arktype, from their JSON Schema', () => {
  it('zod: objects, strings, numbers, arrays, enums, formats, unions, nullable, records, recursion', () => {
    const Tag = z.object({ name: z.string().regex(/^[a-z]+$/).max(8) });
    const Node: z.ZodType<{ id: number; children: unknown[] }> = z.object({ id: z.number().int(), get children() { return z.array(Node); } });
    const Book = z.strictObject({
      title: z.string().min(1).max(40),
      year: z.number().int().min(0).max(2100),
      price: z.number().positive().multipleOf(0.5),
      isbn: z.uuid(),
      email: z.email(),
      published: z.iso.datetime(),
      day: z.iso.date(),
      site: z.url().optional(),
      kind: z.enum(['novel', 'essay']),
      format: z.literal('paper'),
      tags: z.array(Tag).min(1).max(3),
      note: z.string().nullable(),
      extra: z.record(z.string(), z.number()),
      either: z.union([z.string(), z.object({ n: z.number() })]),
      count: z.union([z.string(), z.number()]),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.boolean() })),
      tree: Node,
    });
    const seen = check(codec.fromStandardSchema(Book));
    for (const label of ['type@', 'required@/title', 'minLength@/title', 'maxLength@/title', 'minimum@/year', 'maximum@/year', 'type@/year', 'exclusiveMinimum@/price', 'format@/isbn', 'format@/email', 'enum@/kind', 'const@/format', 'minItems@/tags', 'maxItems@/tags', 'pattern@/tags/0/name', 'additionalProperties@/unknownKey', 'anyOf@/either', 'type@/count', 'type@/note', 'type@/tree/children/0/id']) {
      expect([...seen], label).toContain(label);
    }
  });

  it('valibot and arktype: the same checks, from their JSON Schema', () => {
    const vb = codec.fromStandardSchema(toStandardJsonSchema(v.object({ id: v.pipe(v.number(), v.integer(), v.minValue(1)), title: v.pipe(v.string(), v.minLength(2)), tags: v.array(v.string()) })));
    const seenV = check(vb);
    for (const label of ['type@', 'required@/id', 'minimum@/id', 'type@/id', 'minLength@/title', 'type@/tags/0']) expect([...seenV], label).toContain(label);
    const ak = codec.fromStandardSchema(type({ id: 'number.integer >= 1', title: 'string >= 2', 'note?': 'string | null', kind: "'a' | 'b'" }));
    const seenA = check(ak);
    for (const label of ['type@', 'required@/id', 'minimum@/id', 'minLength@/title', 'required@/kind']) expect([...seenA], label).toContain(label);
  });

  it('gives a parameter text, and a class of your own values from its schema', () => {
    const id = codec.fromStandardSchema(z.number().int().positive(), { parameter: true });
    for (const w of draw(arbitrary(id))) expect(w).toMatch(/^[1-9][0-9]*$/);
    expect(draw(arbitrary(id, { valid: false })).every((r) => typeof r.value === 'string' && !/^[1-9][0-9]*$/.test(r.value))).toBe(true);
    class Upper extends codec.StringCodec {}
    expect(draw(arbitrary(new Upper())).every((w) => typeof w === 'string')).toBe(true);
  });
});
