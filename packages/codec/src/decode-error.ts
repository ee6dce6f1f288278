/** One segment of an issue's path: an object key or an array index. */
export type PathSegment = string | number;

/**
 * One problem found while decoding, validating or encoding a value: the shape of the issues of
 * {@link DecodeError} and of `EncodeError`.
 */
export interface Issue {
  /** Where the problem is, from the root of the value: wire keys and array indexes. */
  readonly path: readonly PathSegment[];
  /** The same path as an RFC 6901 JSON Pointer (`''` for the root, `/items/0/name`). */
  readonly pointer: string;
  /** A human-readable sentence, without the path. */
  readonly message: string;
  /** The name of the failed constraint (`minLength`, `uuid`) or structural check (`type`, `required`). */
  readonly constraint: string;
  /** The offending wire or decoded value (`undefined` for a missing key). */
  readonly value: unknown;
}

/** Renders a path as `a.b[0].c`; the empty path renders as `''`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Renders a path as an RFC 6901 JSON Pointer. */
export function toJsonPointer(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    const s = String(seg);
    // Most keys need no escape: test once instead of replacing twice.
    out += `/${/[~/]/.test(s) ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s}`;
  }
  return out;
}

/** Builds an {@link Issue}, deriving its pointer from its path. */
export function makeIssue(
  path: readonly PathSegment[],
  message: string,
  constraint: string,
  value: unknown,
): Issue {
  return { path, pointer: toJsonPointer(path), message, constraint, value };
}

/**
 * Thrown by `Codec.decode` and `Codec.validate` when the input does not satisfy the codec.
 * `issues` holds every problem found (or only the first, with `abortEarly`), in input order.
 * The message names the field of the first issue: `name: must have at least 1 character`.
 */
export class DecodeError extends Error {
  /** Every issue found, never empty. */
  readonly issues: readonly Issue[];

  constructor(issues: readonly Issue[], options?: ErrorOptions) {
    super(DecodeError.describe(issues), options);
    this.name = 'DecodeError';
    this.issues = issues;
  }

  /** Renders issues as `path: message; path: message`. */
  static describe(issues: readonly Issue[]): string {
    if (issues.length === 0) return 'invalid value';
    return issues
      .map((i) => {
        const where = formatPath(i.path);
        return where === '' ? i.message : `${where}: ${i.message}`;
      })
      .join('; ');
  }

  /** A copy of this error with every issue's path prefixed by `prefix` (used for parameters). */
  withPrefix(...prefix: PathSegment[]): DecodeError {
    return new DecodeError(
      this.issues.map((i) => makeIssue([...prefix, ...i.path], i.message, i.constraint, i.value)),
      { cause: this.cause },
    );
  }
}
