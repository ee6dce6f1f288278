import fc from 'fast-check';

/** A value as it travels: serialised to JSON text and parsed back (`-0` → `0`, no `undefined`). */
export function viaJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Characters that turn valid texts into near misses: separators, digits, letters of formats, non-ASCII. */
const EDIT_CHARS = '0123456789:-+.TtZz PDHMSWY/=_~%@#?aAfF\u00e9\u{1F600}'.match(/./gu) as string[];

/** One random edit of a string: delete, insert or replace a character. */
export function mutateString(s: string): fc.Arbitrary<string> {
  const chars = Array.from(s);
  const n = chars.length;
  const ch = fc.constantFrom(...EDIT_CHARS);
  return fc.oneof(
    fc.nat(Math.max(0, n - 1)).map((i) => chars.filter((_, j) => j !== i).join('')),
    fc.tuple(fc.nat(n), ch).map(([i, c]) => [...chars.slice(0, i), c, ...chars.slice(i)].join('')),
    fc.tuple(fc.nat(Math.max(0, n - 1)), ch).map(([i, c]) => chars.map((x, j) => (j === i ? c : x)).join('')),
  );
}

/** Near misses of a number: neighbours, a fraction, the sign, its text. */
export function mutateNumber(x: number): fc.Arbitrary<unknown> {
  return fc.constantFrom(x + 1, x - 1, x + 0.5, -x, x * 2, String(x), 2 ** 53, -(2 ** 53));
}

/** Wire values of no particular shape: every JSON type, small. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'x', '0', 'true', [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Near misses of an encoded value, by its JSON type (one level deep for objects and arrays). */
export function mutate(wire: unknown): fc.Arbitrary<unknown> {
  if (typeof wire === 'string') return mutateString(wire);
  if (typeof wire === 'number') return mutateNumber(wire);
  if (Array.isArray(wire)) {
    const n = wire.length;
    return fc.oneof(
      fc.constant(wire.slice(1)),
      fc.constant([...wire, ...wire.slice(0, 1)]),
      fc.tuple(fc.nat(Math.max(0, n - 1)), junk).map(([i, j]) => wire.map((x, k) => (k === i ? j : x))),
    );
  }
  if (typeof wire === 'object' && wire !== null) {
    const keys = Object.keys(wire);
    const rec = wire as Record<string, unknown>;
    return fc.oneof(
      fc.constantFrom(...(keys.length > 0 ? keys : [''])).map((k) => {
        const o = { ...rec };
        delete o[k];
        return o;
      }),
      fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', ...keys), junk).map(([k, v]) => {
        const o = { ...rec };
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        return o;
      }),
    );
  }
  return junk;
}
