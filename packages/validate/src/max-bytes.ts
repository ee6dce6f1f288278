import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/**
 * At most `n` bytes (`validate.maxBytes(5 * 1024 * 1024)`). Applies to byte arrays
 * (`codec.bytes()`, binary bodies). No schema keyword: JSON Schema cannot bound the decoded
 * length of base64 text or of a binary body.
 */
// @__NO_SIDE_EFFECTS__
export function maxBytes(n: number): Constraint<Uint8Array> {
  return constraint({
    name: 'maxBytes',
    params: { maxBytes: n },
    test: (v: Uint8Array) => v.length <= n,
    message: `must have at most ${n} byte${n === 1 ? '' : 's'}`,
  });
}
