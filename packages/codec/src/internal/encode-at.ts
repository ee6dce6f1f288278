import type { Codec } from '../codec.js';
import { DecodeError, type PathSegment } from '../decode-error.js';

/**
 * Encodes a child value; a {@link DecodeError} thrown by a fallible encoder (`mapValidated`)
 * gets `segment` prefixed to its issue paths, so the error names the failing field.
 */
export function encodeAt<T>(codec: Codec<T>, value: T, segment: PathSegment): unknown {
  try {
    return codec.encode(value);
  } catch (err) {
    throw err instanceof DecodeError ? err.withPrefix(segment) : err;
  }
}
