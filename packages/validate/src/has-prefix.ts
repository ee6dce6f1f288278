import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { bytesAt } from './internal/magic.js';
import { addKeyword } from './internal/schema.js';

/** `s` escaped for a regular expression run with the `u` flag. */
function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * Starts with `prefix`. With a string prefix it applies to strings (schema:
 * `pattern: '^' + escaped prefix`); with bytes (`Uint8Array` or numbers 0–255) it applies to
 * byte arrays — a magic-byte check of your own (no schema keyword).
 */
export function hasPrefix(prefix: string): Constraint<string>;
export function hasPrefix(prefix: Uint8Array | readonly number[]): Constraint<Uint8Array>;
// @__NO_SIDE_EFFECTS__
export function hasPrefix(prefix: string | Uint8Array | readonly number[]): Constraint<string> | Constraint<Uint8Array> {
  if (typeof prefix === 'string') {
    const source = '^' + escapeRegExp(prefix);
    return constraint({
      name: 'hasPrefix',
      params: { prefix },
      test: (v: string) => v.startsWith(prefix),
      message: `must start with ${JSON.stringify(prefix)}`,
      schema: (s) => addKeyword(s, 'pattern', source),
    });
  }
  const bytes = Uint8Array.from(prefix);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
  return constraint({
    name: 'hasPrefix',
    params: { prefix: bytes },
    test: (v: Uint8Array) => bytesAt(v, bytes),
    message: `must start with the bytes ${hex}`,
  });
}
