import * as fc from 'fast-check';

/** Candidates tried per generated value before {@link satisfying}'s arbitrary gives up. */
const ATTEMPTS = 5000;
/** Candidates drawn, with a fixed seed, to tell whether a predicate can be met at all. */
const PROBES = 150;
/** Hits among the probes for a predicate to count as satisfiable. */
const HITS = 2;
/** The seed of the probes: the same answer on every run. */
const PROBE_SEED = 0x5eed;

/**
 * A filter with a bound: `fc.filter` tries candidates forever, which hangs a test whose
 * predicate can never hold. This one throws after {@link ATTEMPTS} candidates instead.
 */
class BoundedFilter<T> extends fc.Arbitrary<T> {
  private readonly arb: fc.Arbitrary<T>;
  private readonly predicate: (value: T) => boolean;
  private readonly what: string;

  constructor(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean, what: string) {
    super();
    this.arb = arb;
    this.predicate = predicate;
    this.what = what;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    for (let i = 0; i < ATTEMPTS; i++) {
      const v = this.arb.generate(mrng, biasFactor);
      if (this.predicate(v.value)) return v;
    }
    throw new Error(`@lib/testing: found no ${this.what} in ${ATTEMPTS} candidates`);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value) && this.predicate(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arb.shrink(value, context).filter((v) => this.predicate(v.value));
  }
}

/** Up to `n` values of `arb` drawn with a fixed seed, or none when drawing throws. */
function probe<T>(arb: fc.Arbitrary<T>, n: number = PROBES): T[] {
  try {
    return fc.sample(arb, { numRuns: n, seed: PROBE_SEED });
  } catch {
    return [];
  }
}

/**
 * The values of `arb` that satisfy `predicate`, or `undefined` when a probe of
 * {@link PROBES} candidates finds fewer than {@link HITS} of them (the predicate is then taken
 * as one the candidates cannot meet). The arbitrary throws an `Error` naming `what` if it
 * ever draws {@link ATTEMPTS} candidates in a row without a hit.
 */
export function satisfying<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => boolean, what: string): fc.Arbitrary<T> | undefined {
  let hits = 0;
  for (const v of probe(arb)) if (predicate(v) && ++hits >= HITS) break;
  return hits >= HITS ? new BoundedFilter(arb, predicate, what) : undefined;
}

/** A value no codec but `any()` accepts: the candidates of a leaf whose constraints leave nothing. */
const NOTHING: unique symbol = Symbol('nothing');

/** An arbitrary of {@link NOTHING} only: "no candidate", which every predicate refuses. */
export function nothing(): fc.Arbitrary<unknown> {
  return fc.constant(NOTHING);
}

/** One of `arbs`, or `undefined` when there are none. */
export function oneOf<T>(arbs: readonly fc.Arbitrary<T>[]): fc.Arbitrary<T> | undefined {
  return arbs.length === 0 ? undefined : arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}
