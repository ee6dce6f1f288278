import { DecodeError, EncodeError, type Issue } from '@lib/codec';
import { expect } from 'vitest';

/** The error `fn` throws (fails the test when it returns). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** Text a client must never see in a body error: stack frames, file paths, source excerpts. */
const LEAKS = /\n|\bat \S+ \(|file:\/\/|node_modules|\/work\/|\/home\/|\/etc\/|[A-Za-z]:\\|\.[cm]?[jt]s:\d/;

/**
 * Checks that `fn` throws a `DecodeError` with exactly one issue at the root, constraint
 * `syntax`, whose message starts `body is not valid ${what}: ` and matches `message`, and
 * carries no stack, path or excerpt. Returns the error.
 */
export function expectSyntaxError(fn: () => unknown, what: string, message?: RegExp | string): DecodeError {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(DecodeError);
  const e = err as DecodeError;
  expect(e.issues).toHaveLength(1);
  const issue = e.issues[0] as Issue;
  expect(issue).toMatchObject({ path: [], pointer: '', constraint: 'syntax' });
  expect(issue.message.startsWith(`body is not valid ${what}: `)).toBe(true);
  expect(e.message).toBe(issue.message);
  expect(issue.message).not.toMatch(LEAKS);
  if (message !== undefined) expect(issue.message).toMatch(message);
  return e;
}

/** Checks that `fn` throws a `DecodeError` whose message and first issue equal `expected`'s. */
export function expectSameDecodeError(fn: () => unknown, expected: () => unknown): DecodeError {
  const want = thrown(expected) as DecodeError;
  expect(want).toBeInstanceOf(DecodeError);
  const err = thrown(fn);
  expect(err).toBeInstanceOf(DecodeError);
  const e = err as DecodeError;
  expect(e.message).toBe(want.message);
  expect(e.issues.map(({ path, message, constraint }) => ({ path, message, constraint }))).toEqual(
    want.issues.map(({ path, message, constraint }) => ({ path, message, constraint })),
  );
  return e;
}

/** Checks that `fn` throws an `EncodeError` whose message matches `message`. */
export function expectEncodeError(fn: () => unknown, message: RegExp | string): EncodeError {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(EncodeError);
  expect((err as EncodeError).message).toMatch(message);
  return err as EncodeError;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
/** UTF-8 bytes of `s`. */
export const utf8 = (s: string): Uint8Array => enc.encode(s);
/** Text of UTF-8 `b`. */
export const text = (b: Uint8Array): string => dec.decode(b);

/** Strings that text formats must quote or escape to round-trip (spaces, line breaks, indicators, look-alike numbers). */
export const TRICKY: string[] = [
  'word '.repeat(40),
  'a  b   c '.repeat(20) + '\n x\n\ny  ',
  ' lead',
  'trail ',
  '\t tab',
  'x'.repeat(300),
  '- a',
  'a: b',
  "'q'",
  '"dq"',
  '\u2028 ls',
  '\u0085nel',
  '~',
  '0o17',
  '.nan',
];
