import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as codec from '../src/index.js';

interface Tree {
  name: string;
  children: Tree[];
}
const tree: codec.Codec<Tree> = codec.object({ name: codec.string(), children: codec.array(codec.lazy(() => tree)) });

/** Every expression of the README's catalogue table, as code. */
const rows: Record<string, codec.Codec<unknown>> = {
  'string()': codec.string(),
  'int()': codec.int(),
  'int8()': codec.int8(),
  'int16()': codec.int16(),
  'int32()': codec.int32(),
  'int64()': codec.int64(),
  'uint()': codec.uint(),
  'uint8()': codec.uint8(),
  'uint16()': codec.uint16(),
  'uint32()': codec.uint32(),
  'uint64()': codec.uint64(),
  'number()': codec.number(),
  'float32()': codec.float32(),
  'boolean()': codec.boolean(),
  'bytes()': codec.bytes(),
  'blob({ maxBytes })': codec.blob({ maxBytes: 1 }),
  'time()': codec.time(),
  'date()': codec.date(),
  'httpDate()': codec.httpDate(),
  'duration()': codec.duration(),
  'any()': codec.any(),
  "literal('a')": codec.literal('a'),
  'constant({ v: 1 })': codec.constant({ v: 1 }),
  'eq(time(), new Date(0))': codec.eq(codec.time(), new Date(0)),
  'intString()': codec.intString(),
  'numberString()': codec.numberString(),
  'boolString()': codec.boolString(),
  'empty()': codec.empty(),
  'never()': codec.never(),
  'optional(string())': codec.optional(codec.string()),
  'nullable(string())': codec.nullable(codec.string()),
  'defaulted(uint8(), 20)': codec.defaulted(codec.uint8(), 20),
  'array(string())': codec.array(codec.string()),
  'stream(string())': codec.stream(codec.string()),
  'record(boolean())': codec.record(codec.boolean()),
  'record(intString(), string())': codec.record(codec.intString(), codec.string()),
  'withAdditionalProperties(object({ name: string() }), string())': codec.withAdditionalProperties(codec.object({ name: codec.string() }), codec.string()),
  'object({ id: string(), n: optional(boolean()) })': codec.object({ id: codec.string(), n: codec.optional(codec.boolean()) }),
  'object({ id: string() }).strict()': codec.object({ id: codec.string() }).strict(),
  "object({ userId: string() }).withWireNames({ userId: 'user_id' })": codec.object({ userId: codec.string() }).withWireNames({ userId: 'user_id' }),
  "taggedUnion('kind', { a: object({ x: boolean() }) })": codec.taggedUnion('kind', { a: codec.object({ x: codec.boolean() }) }),
  'untaggedUnion(string(), boolean())': codec.untaggedUnion(codec.string(), codec.boolean()),
  'map(string(), (s) => new URL(s), (u) => u.href)': codec.map(codec.string(), (s) => new URL(s), (u) => u.href),
  'mapValidated(string(), decode, encode)': codec.mapValidated(codec.string(), (s) => s, (s) => s),
  'lazy(() => tree)': codec.lazy(() => tree),
  'fromStandardSchema(z.object({ a: z.string() }))': codec.fromStandardSchema(z.object({ a: z.string() })),
};

/** True when `actual` matches `documented`, where the string `"…"` stands for any value. */
function matches(documented: unknown, actual: unknown): boolean {
  if (documented === '…') return actual !== undefined;
  if (Array.isArray(documented)) return Array.isArray(actual) && actual.length === documented.length && documented.every((d, i) => matches(d, actual[i]));
  if (typeof documented === 'object' && documented !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    const d = documented as Record<string, unknown>;
    const keys = Object.keys(d);
    return keys.length === Object.keys(a).length && keys.every((k) => matches(d[k], a[k]));
  }
  return Object.is(documented, actual);
}

/** The catalogue table: [expression, JSON Schema] per row. */
function table(): [string, unknown][] {
  const text = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Catalogue'), text.indexOf('### Named codecs'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      const expr = (cells[1] ?? '').replace(/^`|`$/g, '');
      const schema = JSON.parse((cells[4] ?? '').replace(/^`|`$/g, '')) as unknown;
      return [expr, schema];
    });
}

describe('README catalogue table', () => {
  const documented = table();

  it('has a row for every constructor of the catalogue', () => {
    const exprs = documented.map(([e]) => e);
    expect(exprs.sort()).toEqual(Object.keys(rows).sort());
    const constructors = new Set(exprs.flatMap((e) => [...e.matchAll(/(?:^|[(\s.])([a-z][A-Za-z0-9]*)\(/g)].map((m) => m[1])));
    for (const name of ['string', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'number', 'float32', 'boolean', 'bytes', 'time', 'date', 'duration', 'any', 'literal', 'constant', 'eq', 'intString', 'boolString', 'empty', 'never', 'optional', 'nullable', 'defaulted', 'array', 'record', 'object', 'taggedUnion', 'untaggedUnion', 'map', 'mapValidated', 'lazy', 'fromStandardSchema']) {
      expect(constructors, name).toContain(name);
      expect(typeof (codec as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  for (const [expr, schema] of table()) {
    it(`${expr} has the documented schema`, () => {
      const c = rows[expr];
      expect(c, `no code for row ${expr}`).toBeDefined();
      const actual = (c as codec.Codec<unknown>).schema;
      expect(matches(schema, actual), `${JSON.stringify(actual)}`).toBe(true);
    });
  }
});
