import * as codec from '@lib/codec';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as validate from '../src/index.js';

const { string, int8, number, array, record, bytes } = codec;
const v = validate;

/** Every example of the README's constraint table, as code. */
const rows: Record<string, codec.Codec<unknown>> = {
  'string().refine(minLength(2))': string().refine(v.minLength(2)),
  'string().refine(maxLength(2))': string().refine(v.maxLength(2)),
  'array(int8()).refine(nonEmpty)': array(int8()).refine(v.nonEmpty),
  'string().refine(pattern(/^a/))': string().refine(v.pattern(/^a/)),
  "string().refine(oneOf('a', 'b'))": string().refine(v.oneOf('a', 'b')),
  'string().refine(email)': string().refine(v.email),
  'string().refine(uuid)': string().refine(v.uuid),
  'string().refine(url)': string().refine(v.url),
  'string().refine(uri)': string().refine(v.uri),
  'string().refine(ipv4)': string().refine(v.ipv4),
  'string().refine(ipv6)': string().refine(v.ipv6),
  'string().refine(hostname)': string().refine(v.hostname),
  'string().refine(date)': string().refine(v.date),
  'string().refine(dateTime)': string().refine(v.dateTime),
  'string().refine(time)': string().refine(v.time),
  'string().refine(slug)': string().refine(v.slug),
  'string().refine(semver)': string().refine(v.semver),
  'string().refine(httpPath)': string().refine(v.httpPath),
  "string().refine(hasPrefix('sk_'))": string().refine(v.hasPrefix('sk_')),
  'bytes().refine(hasPrefix([0xca, 0xfe]))': bytes().refine(v.hasPrefix([0xca, 0xfe])),
  'int8().refine(min(0))': int8().refine(v.min(0)),
  'int8().refine(max(9))': int8().refine(v.max(9)),
  'int8().refine(range(1, 9))': int8().refine(v.range(1, 9)),
  'number().refine(positive)': number().refine(v.positive),
  'number().refine(negative)': number().refine(v.negative),
  'number().refine(port)': number().refine(v.port),
  'array(string()).refine(minItems(1))': array(string()).refine(v.minItems(1)),
  'array(string()).refine(maxItems(3))': array(string()).refine(v.maxItems(3)),
  'array(string()).refine(uniqueItems)': array(string()).refine(v.uniqueItems),
  'record(string()).refine(minProperties(1))': record(string()).refine(v.minProperties(1)),
  'record(string()).refine(maxProperties(9))': record(string()).refine(v.maxProperties(9)),
  'bytes().refine(minBytes(1))': bytes().refine(v.minBytes(1)),
  'bytes().refine(maxBytes(1024))': bytes().refine(v.maxBytes(1024)),
  'bytes().refine(png)': bytes().refine(v.png),
  'bytes().refine(jpeg)': bytes().refine(v.jpeg),
  'bytes().refine(gif)': bytes().refine(v.gif),
  'bytes().refine(webp)': bytes().refine(v.webp),
  'bytes().refine(pdf)': bytes().refine(v.pdf),
  'bytes().refine(zip)': bytes().refine(v.zip),
};

/** True when `actual` matches `documented`, where the string `"…"` stands for any value. */
function matches(documented: unknown, actual: unknown): boolean {
  if (documented === '…') return actual !== undefined;
  if (Array.isArray(documented)) return Array.isArray(actual) && actual.length === documented.length && documented.every((d, i) => matches(d, actual[i]));
  if (typeof documented === 'object' && documented !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    const d = documented as Record<string, unknown>;
    return Object.keys(d).length === Object.keys(a).length && Object.keys(d).every((k) => matches(d[k], a[k]));
  }
  return Object.is(documented, actual);
}

/** The table: [constraint, example, schema] per row. */
function table(): [string, string, unknown][] {
  const text = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Constraints'), text.indexOf('What the checks accept'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim().replace(/^`|`$/g, ''));
      return [cells[1] ?? '', cells[3] ?? '', JSON.parse(cells[4] ?? '') as unknown];
    });
}

describe('README constraint table', () => {
  it('has a row for every constraint', () => {
    const names = new Set(table().map(([c]) => /^[A-Za-z0-9]+/.exec(c)?.[0]));
    const exported = Object.keys(validate).filter((k) => k !== 'constraint');
    expect([...names].sort()).toEqual(exported.sort());
    expect(table().map(([, e]) => e).sort()).toEqual(Object.keys(rows).sort());
  });

  for (const [name, example, schema] of table()) {
    it(`${name}: ${example}`, () => {
      const c = rows[example];
      expect(c, `no code for ${example}`).toBeDefined();
      const actual = (c as codec.Codec<unknown>).schema;
      expect(matches(schema, actual), JSON.stringify(actual)).toBe(true);
    });
  }
});
