import type { Constraint, JsonSchema } from '@lib/codec';

/** The parts of a {@link Constraint}, with `message` given as text or a function. */
export interface ConstraintSpec<T> {
  /** The name reported in `Issue.constraint`. */
  readonly name: string;
  /** The arguments, for reflection (`{ minLength: 3 }`). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** True when the value satisfies the constraint; must not throw. */
  readonly test: (value: T) => boolean;
  /** The failure message (without the path). */
  readonly message: string | ((value: T) => string);
  /** The JSON Schema keywords added, or a function refining the codec's schema. */
  readonly schema?: JsonSchema | ((schema: JsonSchema) => JsonSchema);
}

/**
 * Builds a {@link Constraint} for `codec.refine` from its parts. Write your
 * own constraints with it: `constraint({ name: 'even', test: (n: number) => n % 2 === 0, message: 'must be even' })`.
 * The result is frozen.
 */
// @__NO_SIDE_EFFECTS__
export function constraint<T>(spec: ConstraintSpec<T>): Constraint<T> {
  const { message } = spec;
  const c: Constraint<T> = {
    name: spec.name,
    test: spec.test,
    message: typeof message === 'function' ? message : () => message,
  };
  return Object.freeze({
    ...c,
    ...(spec.params !== undefined && { params: spec.params }),
    ...(spec.schema !== undefined && { schema: spec.schema }),
  });
}

/** A value with a length: strings (counted in code points) and arrays. */
export type Lengthy = string | readonly unknown[];

/** A value that can be empty: strings, arrays, byte arrays and records (by their keys). */
export type Sized = Lengthy | Uint8Array | Readonly<Record<string, unknown>>;

/** A number or a 64-bit integer (`codec.int64()`): what numeric constraints accept. */
export type Numeric = number | bigint;
