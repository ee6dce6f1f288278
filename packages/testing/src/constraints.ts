/**
 * Constraint-driven generation: what a codec's constraints declare (`name` and `params`, as
 * `@lib/validate` writes them) read as bounds for the generators, and the step every codec
 * goes through last — its valid candidates kept when every constraint holds, and for each
 * constraint, candidates that break it and no other.
 */
import { DecodeError, type AnyCodec, type Constraint } from '@lib/codec';
import type { Numeric } from '@lib/validate';
import * as fc from 'fast-check';
import { describeCodec, type Draft, type Gen } from './internal/gen.js';
import { satisfying } from './internal/satisfying.js';
import { refusal, type RefusedValue } from './refused-value.js';

/** A constraint of any value type. */
export type AnyConstraint = Constraint<unknown>;

/** A parameter of `c` (`params.minLength`), or `undefined`. */
export function param(c: AnyConstraint, key: string): unknown {
  return c.params === undefined ? undefined : c.params[key];
}

/**
 * The bounds a codec's constraints put on a size: `[lo, hi]` from the constraints named `min`
 * and `max` (whose parameter has the same name: `minLength`/`maxLength`, `minItems`/`maxItems`,
 * `minBytes`/`maxBytes`, `minProperties`/`maxProperties`), and `nonEmpty` (at least 1). The
 * larger lower bound and the smaller upper bound win; `hi` is `Infinity` when unbounded.
 */
export function sizeBounds(constraints: readonly AnyConstraint[], min: string, max: string): [lo: number, hi: number] {
  let lo = 0;
  let hi = Infinity;
  for (const c of constraints) {
    const n = param(c, c.name);
    if (c.name === min && typeof n === 'number') lo = Math.max(lo, Math.ceil(n));
    else if (c.name === max && typeof n === 'number') hi = Math.min(hi, Math.floor(n));
    else if (c.name === 'nonEmpty') lo = Math.max(lo, 1);
  }
  return [lo, hi];
}

/** A numeric bound: its value and whether it is excluded. */
export interface Bound {
  readonly value: Numeric;
  readonly open: boolean;
}

/** What numeric constraints (`min`, `max`, `range`, `positive`, `negative`, `port`, `oneOf`) declare. */
export interface NumericBounds {
  readonly lo: Bound | undefined;
  readonly hi: Bound | undefined;
  /** `port` asks for an integer. */
  readonly integer: boolean;
  /** The values `oneOf` allows (the intersection of several), or `undefined`. */
  readonly values: readonly unknown[] | undefined;
  /** Every number the constraints name: where values that just pass or just fail lie. */
  readonly points: readonly Numeric[];
}

function tighter(a: Bound | undefined, b: Bound, lower: boolean): Bound {
  if (a === undefined) return b;
  if (a.value === b.value) return { value: a.value, open: a.open || b.open };
  return (lower ? b.value > a.value : b.value < a.value) ? b : a;
}

/** Reads the numeric constraints of a codec. */
export function numericBounds(constraints: readonly AnyConstraint[]): NumericBounds {
  let lo: Bound | undefined;
  let hi: Bound | undefined;
  let integer = false;
  let values: unknown[] | undefined;
  const points: Numeric[] = [];
  const isNumeric = (v: unknown): v is Numeric => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint';
  for (const c of constraints) {
    const minimum = param(c, 'minimum');
    const maximum = param(c, 'maximum');
    switch (c.name) {
      case 'min':
      case 'max':
      case 'range':
        if (isNumeric(minimum) && c.name !== 'max') {
          lo = tighter(lo, { value: minimum, open: false }, true);
          points.push(minimum);
        }
        if (isNumeric(maximum) && c.name !== 'min') {
          hi = tighter(hi, { value: maximum, open: false }, false);
          points.push(maximum);
        }
        break;
      case 'positive':
        lo = tighter(lo, { value: 0, open: true }, true);
        points.push(0);
        break;
      case 'negative':
        hi = tighter(hi, { value: 0, open: true }, false);
        points.push(0);
        break;
      case 'port':
        lo = tighter(lo, { value: 0, open: false }, true);
        hi = tighter(hi, { value: 65535, open: false }, false);
        integer = true;
        points.push(0, 65535);
        break;
      case 'oneOf': {
        const given = param(c, 'values');
        if (Array.isArray(given)) {
          values = values === undefined ? [...given] : values.filter((v) => given.includes(v));
          for (const v of given) if (isNumeric(v)) points.push(v);
        }
        break;
      }
      default:
    }
  }
  return { lo, hi, integer, values, points };
}

/** The outcome of decoding a wire value structurally. */
export type Decoded = { readonly ok: true; readonly value: unknown } | { readonly ok: false };
const FAILED: Decoded = { ok: false };

/**
 * Decodes wire values the way `codec` does but without its own constraints (its children keep
 * theirs): the decoded value its constraints test. A copy of the codec made as its `refine` and
 * `with*` methods make copies, with no constraint.
 */
export function structuralDecoder(codec: AnyCodec): (wire: unknown) => Decoded {
  const bare = Object.assign(Object.create(Object.getPrototypeOf(codec) as object) as AnyCodec, codec, { constraints: [] });
  return (wire) => {
    try {
      return { ok: true, value: bare.decode(wire) };
    } catch (err) {
      if (err instanceof DecodeError) return FAILED;
      throw err;
    }
  };
}

/** `c.test(value)`, false when it throws (a constraint used on a value of another type). */
export function holds(c: AnyConstraint, value: unknown): boolean {
  try {
    return c.test(value);
  } catch {
    return false;
  }
}

/** True when `codec.decode(wire)` throws a `DecodeError`. */
export function refuses(codec: AnyCodec, wire: unknown): boolean {
  try {
    codec.decode(wire);
    return false;
  } catch (err) {
    if (err instanceof DecodeError) return true;
    throw err;
  }
}

/** Refusals of the JSON type: each of `values`, constraint `type` at the root. */
export function wrongTypes(...values: unknown[]): fc.Arbitrary<RefusedValue> {
  return fc.constantFrom(...values).map((v) => refusal(structuredClone(v), 'type'));
}

/**
 * The generator of `codec` from its draft: valid values are the draft's candidates that pass
 * every constraint of the codec; each constraint adds a refusal option of candidates that break
 * it and pass every other constraint (a constraint that cannot be broken alone — `maxLength(36)`
 * beside `uuid` — adds none). Candidates are tested with the constraints' own `test`, on the
 * value the codec decodes structurally.
 * @throws {TypeError} when no candidate satisfies every constraint (constraints that contradict
 * each other, or a constraint of your own whose values the generators rarely meet).
 */
export function finish(codec: AnyCodec, draft: Draft, terminal: boolean): Gen {
  const constraints = codec.constraints as readonly AnyConstraint[];
  if (constraints.length === 0) return { valid: draft.valid, refused: terminal ? [] : draft.refused };
  const decode = structuralDecoder(codec);
  const passing = (wire: unknown, except: number): Decoded => {
    const d = decode(wire);
    if (!d.ok) return d;
    for (let i = 0; i < constraints.length; i++) if (i !== except && !holds(constraints[i] as AnyConstraint, d.value)) return FAILED;
    return d;
  };
  const valid = satisfying(draft.valid, (w) => passing(w, -1).ok, `valid value of ${describeCodec(codec)}`);
  if (valid === undefined) {
    throw new TypeError(`@lib/testing: cannot generate a value of ${describeCodec(codec)}: no candidate satisfies every constraint`);
  }
  if (terminal) return { valid, refused: [] };
  const refused = [...draft.refused];
  constraints.forEach((c, i) => {
    const near = draft.near?.(c, valid);
    const candidates = near === undefined ? draft.valid : fc.oneof(near, draft.valid);
    const breaking = satisfying(
      candidates,
      (w) => {
        const d = passing(w, i);
        return d.ok && !holds(c, d.value);
      },
      `value breaking only ${c.name} of ${describeCodec(codec)}`,
    );
    if (breaking !== undefined) refused.push(breaking.map((value) => refusal(value, c.name)));
  });
  return { valid, refused };
}
