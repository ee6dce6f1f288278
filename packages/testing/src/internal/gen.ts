import type { AnyCodec, Constraint } from '@lib/codec';
import type * as fc from 'fast-check';
import type { RefusedValue } from '../refused-value.js';

/** What one codec generates at one place: its valid wire values and its refusals. */
export interface Gen {
  /** Wire values the codec accepts, every constraint included. */
  readonly valid: fc.Arbitrary<unknown>;
  /** Ways to break it, each one place and one check; pointers relative to this place. Empty when it refuses nothing. */
  readonly refused: readonly fc.Arbitrary<RefusedValue>[];
}

/**
 * A codec's generator before its own constraints are applied: structurally valid candidates
 * (biased towards the constraints' parameters), the refusals the codec itself or its children
 * make (a wrong type, a missing field, a child's refusal), and where to look for values that
 * break one of its constraints.
 */
export interface Draft {
  /** Structurally valid wire values, not yet filtered by the codec's constraints. */
  readonly valid: fc.Arbitrary<unknown>;
  /** Refusals made before the codec's constraints run (they stay single whatever the constraints). */
  readonly refused: readonly fc.Arbitrary<RefusedValue>[];
  /**
   * Candidates to break `c` with, given the arbitrary of fully valid values; `undefined` for
   * the structurally valid candidates themselves.
   */
  readonly near?: (c: Constraint<unknown>, valid: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined;
}

/** The walk over a codec tree, as the builders of composite codecs see it. */
export interface Walk {
  /** The generator of a child codec. */
  gen(codec: AnyCodec): Gen;
  /**
   * True past the depth limit of recursive codecs: builders then generate the smallest values
   * (no optional field, the fewest items, `null` for nullable) and no refusal.
   */
  readonly terminal: boolean;
}

/** Thrown (past the depth limit) by a recursive codec reached again on the way down: it has no finite smallest value on this path. */
export const UNBOUNDED: unique symbol = Symbol('unbounded');

/** Builds the {@link Draft} of one codec class. */
export type Builder = (codec: never, walk: Walk) => Draft;

/** The name of a codec for messages: its kind and the names of its constraints. */
export function describeCodec(codec: AnyCodec): string {
  const names = codec.constraints.map((c) => c.name);
  return names.length === 0 ? `codec.${codec.kind}()` : `codec.${codec.kind}() refined with ${names.join(', ')}`;
}
