import { toJsonPointer } from '@lib/codec';

/**
 * A wire value a codec must refuse, with what it breaks: what `testing.arbitrary(codec, { valid:
 * false })` generates. Decoding `value` throws a `DecodeError` with exactly one issue, whose
 * `constraint` and `pointer` are these.
 */
export interface RefusedValue {
  /** The wire value: a valid value with one place changed (a JSON value, or a `Blob` for `codec.blob()`). */
  readonly value: unknown;
  /**
   * The name the decoder reports in `Issue.constraint`: a constraint's name (`minLength`,
   * `uuid`, `maxBytes`) or a structural check (`type`, `format`, `required`, `unknownKey`,
   * `discriminator`, `anyOf`, `const`, `map`).
   */
  readonly constraint: string;
  /** Where the value is broken, as an RFC 6901 JSON Pointer over wire keys (`''` for the root, `/address/zip`). */
  readonly pointer: string;
}

/** A refusal at the root of the value. */
export function refusal(value: unknown, constraint: string, pointer = ''): RefusedValue {
  return { value, constraint, pointer };
}

/** `r` moved under `segment` of a value that is `value` (the child's refused value in place). */
export function under(segment: string | number, value: unknown, r: RefusedValue): RefusedValue {
  return { value, constraint: r.constraint, pointer: toJsonPointer([segment]) + r.pointer };
}

/** The JSON Pointer of one key or index below the root. */
export function pointerOf(segment: string | number): string {
  return toJsonPointer([segment]);
}
