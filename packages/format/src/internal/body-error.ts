import { DecodeError, makeIssue } from '@lib/codec';
import { mediaTypeOf } from '../format.js';

/**
 * The error of a body that cannot be read: a `DecodeError` with one issue at the root, constraint
 * `syntax`, message `body is not valid ${what}: ${reason}`. `reason` must name the problem and
 * its place (`at line 2, column 1`) and never carry a stack trace or a file path; the original
 * error travels as `cause`, for logs.
 */
export function syntaxError(what: string, reason: string, cause?: unknown): DecodeError {
  const issue = makeIssue([], `body is not valid ${what}: ${reason}`, 'syntax', undefined);
  return cause === undefined ? new DecodeError([issue]) : new DecodeError([issue], { cause });
}

/** The first line of an error message, without a trailing `:` (parsers append a source excerpt). */
export function firstLine(message: string): string {
  const nl = message.indexOf('\n');
  const line = (nl === -1 ? message : message.slice(0, nl)).trim();
  return line.endsWith(':') ? line.slice(0, -1) : line;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * The text of a UTF-8 body (a leading byte order mark is dropped).
 * @throws {DecodeError} `syntax`, `body is not valid ${what}: it is not valid UTF-8`.
 */
export function utf8(bytes: Uint8Array, what: string): string {
  try {
    return decoder.decode(bytes);
  } catch (err) {
    throw syntaxError(what, 'it is not valid UTF-8', err);
  }
}

/** The UTF-8 bytes of `text`. */
export function toUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * What a reader of a custom format (`newTyped`, `newStreamed`) threw, as the client is told: its
 * own `DecodeError` as it is; anything else `syntax`, `body is not valid <media type>: it could
 * not be parsed` — its message is not passed on (it may name files, internals or input it should
 * not echo); it is the `cause`, for logs.
 */
export function readerError(contentType: string, err: unknown): DecodeError {
  return err instanceof DecodeError ? err : syntaxError(mediaTypeOf(contentType), 'it could not be parsed', err);
}

/**
 * Checks the media type of a custom format.
 * @throws {TypeError} when `contentType` is not a media type `type/subtype` (parameters allowed).
 */
export function checkMediaType(constructor: string, contentType: string): void {
  if (!/^[^/\s;]+\/[^/\s;]+$/.test(mediaTypeOf(contentType))) {
    throw new TypeError(`format.${constructor}: ${JSON.stringify(contentType)} is not a media type (type/subtype)`);
  }
}
