import fc from 'fast-check';
import { DecodeError, type Codec } from '../../src/index.js';
import { junk, mutate, viaJson } from './wire.js';

/** One codec of the catalogue under test, with what it accepts and what to throw at it. */
export interface Entry {
  /** A readable name for counterexamples. */
  readonly name: string;
  readonly codec: Codec<unknown>;
  /** Decoded values the codec must round-trip. */
  readonly valid: fc.Arbitrary<unknown>;
  /** Wire values (JSON) to compare decoder and schema on: valid and near-miss. */
  readonly wire: fc.Arbitrary<unknown>;
  /** The wire's JSON type, for building unambiguous untagged unions. */
  readonly wireKind: 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'mixed';
  /**
   * `true` when the schema is exact for this codec (the oracle applies); otherwise the reason
   * JSON Schema cannot say what the decoder checks.
   */
  readonly exact: true | string;
}

/** Fields of an entry; `wire` defaults to encodings of valid values, their near misses and junk. */
export interface EntrySpec {
  readonly name: string;
  readonly codec: Codec<unknown>;
  readonly valid: fc.Arbitrary<unknown>;
  readonly extraWire?: fc.Arbitrary<unknown>;
  readonly wireKind: Entry['wireKind'];
  readonly exact?: true | string;
  /** Replaces the default wire arbitrary entirely. */
  readonly wire?: fc.Arbitrary<unknown>;
  /**
   * The wire values the schema is exact on, when the decoder also checks, at the edges of its
   * range, what JSON Schema cannot say: the others are left out of `wire`, and the codec's unit
   * tests cover them.
   */
  readonly within?: (wire: unknown) => boolean;
}

/** The JSON text of a codec's encoding, parsed back: the wire value of `v`. */
export function wireOf(codec: Codec<unknown>, v: unknown): unknown {
  return viaJson(codec.encode(v));
}

/**
 * {@link wireOf} for the wire arbitraries: `null` when the encoding is not JSON. That happens
 * only for ambiguous untagged unions (the oracle's, not the round trip's): `untaggedUnion(any(),
 * map(… → bigint))` writes a bigint with `any()`, which takes every value.
 */
export function wireOrNull(codec: Codec<unknown>, v: unknown): unknown {
  try {
    return wireOf(codec, v);
  } catch (err) {
    if (err instanceof TypeError && /BigInt/.test(err.message)) return null;
    throw err;
  }
}

/** Builds an entry; the default wire mixes valid encodings, their mutations, extras and junk. */
export function entry(spec: EntrySpec): Entry {
  const encoded = spec.valid.map((v) => wireOrNull(spec.codec, v));
  const arbs: fc.Arbitrary<unknown>[] = [encoded, encoded.chain(mutate), junk];
  if (spec.extraWire !== undefined) arbs.push(spec.extraWire);
  const all = spec.wire ?? fc.oneof(...arbs).map(viaJson);
  const wire = spec.within === undefined ? all : all.filter(spec.within);
  return {
    name: spec.name,
    codec: spec.codec,
    valid: spec.valid,
    wire,
    wireKind: spec.wireKind,
    exact: spec.exact ?? true,
    toString: () => spec.name,
  } as Entry;
}

/** True when `codec` decodes `wire` without issues; an error other than `DecodeError` is a bug and propagates. */
export function decodes(codec: Codec<unknown>, wire: unknown): boolean {
  try {
    codec.decode(wire);
    return true;
  } catch (err) {
    if (err instanceof DecodeError) return false;
    throw err;
  }
}
