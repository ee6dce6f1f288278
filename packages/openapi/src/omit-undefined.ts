/** The optional keys of `T`. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];

/** Input of {@link omitUndefined}: `T` whose optional properties may also be `undefined`. */
export type MaybeUndefined<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & {
  [K in OptionalKeys<T>]?: T[K] | undefined;
};

/**
 * A copy of `object` without its `undefined` properties, keeping the key order of the literal.
 * Lets renderers write one ordered object literal under `exactOptionalPropertyTypes`.
 */
export function omitUndefined<T extends object>(object: MaybeUndefined<T>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out as T;
}
