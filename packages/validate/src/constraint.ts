import type { Constraint, JsonSchema } from '@lib/codec';

/** The parts of a {@link Constraint}, with `message` given as text or a function. */
export interface ConstraintSpec<T> {
  readonly name: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly test: (value: T) => boolean;
  readonly message: string | ((value: T) => string);
  readonly schema?: JsonSchema | ((schema: JsonSchema) => JsonSchema);
}

/**
 * Builds a {@link Constraint} for `codec.refine` from its parts (TYPESCRIPT.md §5). Write your
 * own constraints with it: `constraint({ name: 'even', test: (n: number) => n % 2 === 0, message: 'must be even' })`.
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

/** A value with a length: strings (UTF-16 code units) and arrays. */
export type Lengthy = string | readonly unknown[];
