import type { JsonSchema } from '@lib/codec';

/** The JSON type a schema describes: its `type`, or the first non-`null` one of a type list. */
export function schemaType(s: JsonSchema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  return undefined;
}

/** `s` with the lower bound `key` (`minimum`, `minLength`, …) raised to at least `n`. */
export function raise(s: JsonSchema, key: string, n: number): JsonSchema {
  const cur = s[key];
  return { ...s, [key]: typeof cur === 'number' ? Math.max(cur, n) : n };
}

/** `s` with the upper bound `key` (`maximum`, `maxLength`, …) lowered to at most `n`. */
export function lower(s: JsonSchema, key: string, n: number): JsonSchema {
  const cur = s[key];
  return { ...s, [key]: typeof cur === 'number' ? Math.min(cur, n) : n };
}

/**
 * `s` with keyword `key` set to `value`. When `s` already holds another value for it (two
 * `pattern`s, two `format`s), the new one goes into `allOf`, so both apply.
 */
export function addKeyword(s: JsonSchema, key: string, value: unknown): JsonSchema {
  if (!(key in s)) return { ...s, [key]: value };
  if (JSON.stringify(s[key]) === JSON.stringify(value)) return s;
  return { ...s, allOf: [...(s.allOf ?? []), { [key]: value }] };
}

/** A number or bigint bound as a JSON number, or `undefined` when a JSON number cannot hold it exactly. */
export function jsonNumber(n: number | bigint): number | undefined {
  if (typeof n === 'number') return n;
  const x = Number(n);
  return BigInt(x) === n ? x : undefined;
}

/** The number of Unicode code points of `s` (what JSON Schema `minLength` counts). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low surrogate is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
