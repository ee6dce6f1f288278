import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError, EncodeError } from '../src/index.js';
import { catalogue, recursive, scalars } from './support/catalogue.js';
import { decodes, type Entry } from './support/entry.js';
import { viaJson } from './support/wire.js';

/** Stands for "delete this key" among the replacements. */
const DELETE = Symbol('delete');

/** Values of the wrong structure for most codecs: non-finite, unsafe, fractional, wrong types, bad dates. */
const wrong: readonly unknown[] = [
  NaN,
  Infinity,
  -Infinity,
  1.5,
  2 ** 60,
  2 ** 53,
  -1,
  300,
  1500,
  '',
  'x',
  '12',
  null,
  undefined,
  true,
  1n,
  new Date(NaN),
  new Date(0),
  new Date('+010000-01-01T00:00:00.000Z'),
  {},
  [],
  [1, 'a'],
  new Uint8Array([1]),
  DELETE,
];

/** How many nodes (values, items, entries) `v` has, in pre-order. */
function size(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + size(x), 0);
  if (typeof v === 'object' && v !== null && !(v instanceof Date) && !(v instanceof Uint8Array)) {
    return 1 + Object.values(v).reduce((n: number, x) => n + size(x), 0);
  }
  return 1;
}

/** A copy of `v` whose `index`-th node (pre-order) is replaced by `by` (or deleted: a key, an item). */
function corrupt(v: unknown, index: number, by: unknown): unknown {
  let i = index;
  const walk = (x: unknown): unknown => {
    if (i-- === 0) return by;
    if (Array.isArray(x)) return x.map(walk).filter((z) => z !== DELETE);
    if (typeof x === 'object' && x !== null && !(x instanceof Date) && !(x instanceof Uint8Array)) {
      const out: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x)) {
        const z = walk(y);
        if (z !== DELETE) Object.defineProperty(out, k, { value: z, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return x;
  };
  const out = walk(v);
  return out === DELETE ? undefined : out;
}

/** Valid values of `e` with one node replaced by a wrong value or deleted. */
function corrupted(e: Entry): fc.Arbitrary<unknown> {
  return e.valid.chain((v) => fc.tuple(fc.nat(size(v) - 1), fc.constantFrom(...wrong)).map(([i, by]) => corrupt(v, i, by)));
}

/** Entries whose decoder checks more than structure: a value they encode may still fail a constraint. */
const hasConstraints = (e: Entry): boolean => e.name.includes('fromStandardSchema');

/**
 * Encoding `x` either throws an `EncodeError` (or the `DecodeError` of a `mapValidated` encode
 * function) — never a `TypeError` from a wrong value — or writes a wire value that, through JSON
 * text, decodes: the encode checks leave nothing structural to the decoder.
 */
function encodesSoundly(e: Entry, x: unknown, tally: { accepted: number; rejected: number }): void {
  let wire: unknown;
  try {
    wire = e.codec.encode(x);
  } catch (err) {
    if (!(err instanceof EncodeError || err instanceof DecodeError)) expect.fail(`${e.name}: encode threw ${String(err)} for ${String(x)}`);
    tally.rejected++;
    return;
  }
  tally.accepted++;
  if (hasConstraints(e)) return;
  let json: unknown;
  try {
    json = viaJson(wire);
  } catch (err) {
    // `any()` writes whatever it is given: a bigint has no JSON form.
    if (err instanceof TypeError && /BigInt/.test(err.message)) return;
    throw err;
  }
  if (!decodes(e.codec, json)) expect.fail(`${e.name}: encode accepted ${String(x)} but its wire ${JSON.stringify(json)} does not decode`);
}

describe('encode checks structure: a value it accepts decodes, a value it refuses throws EncodeError', () => {
  for (const e of [...scalars, ...recursive]) {
    it(e.name, () => {
      const tally = { accepted: 0, rejected: 0 };
      fc.assert(
        fc.property(fc.oneof(corrupted(e), fc.constantFrom(...wrong.filter((w) => w !== DELETE))), (x) => encodesSoundly(e, x, tally)),
        { numRuns: Number(process.env.FC_RUNS ?? 200) },
      );
      if (e.codec.kind !== 'any' && e.codec.kind !== 'standardSchema') expect(tally.rejected).toBeGreaterThan(0);
    });
  }

  for (const roundTrip of [true, false]) {
    it(`random composites over the whole catalogue (${roundTrip ? 'unambiguous' : 'any'} unions)`, { timeout: 120_000 }, () => {
      const tally = { accepted: 0, rejected: 0 };
      fc.assert(
        fc.property(
          catalogue(roundTrip).chain((e) => fc.tuple(fc.constant(e), fc.array(corrupted(e), { minLength: 4, maxLength: 4 }))),
          ([e, xs]) => {
            for (const x of xs) encodesSoundly(e, x, tally);
          },
        ),
        { numRuns: Number(process.env.FC_RUNS ?? 300) },
      );
      expect(tally.rejected).toBeGreaterThan(0);
      expect(tally.accepted).toBeGreaterThan(0);
    });
  }
});
