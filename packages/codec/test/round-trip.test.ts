import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogue, recursive, scalars } from './support/catalogue.js';
import { wireOf, type Entry } from './support/entry.js';

/** `decode(encode(x))` equals `x`, through JSON text, and `validate(x)` accepts `x`. */
function roundTrips(e: Entry, x: unknown): void {
  const wire = wireOf(e.codec, x);
  expect(e.codec.decode(wire)).toEqual(x);
  expect(() => e.codec.validate(x)).not.toThrow();
  const std = e.codec['~standard'].validate(wire);
  expect(std).toEqual({ value: x });
}

describe('round trip: decode(encode(x)) equals x', () => {
  for (const e of [...scalars, ...recursive]) {
    it(e.name, () => {
      fc.assert(fc.property(e.valid, (x) => roundTrips(e, x)), { numRuns: Number(process.env.FC_RUNS ?? 200) });
    });
  }

  it('random composites over the whole catalogue', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        catalogue(true).chain((e) => fc.tuple(fc.constant(e), e.valid)),
        ([e, x]) => roundTrips(e, x),
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });
});
