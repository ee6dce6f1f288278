import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/**
 * At least `n` bytes. Applies to byte arrays (`codec.bytes()`, binary bodies). No schema
 * keyword: JSON Schema cannot bound the decoded length of base64 text or of a binary body.
 */
// @__NO_SIDE_EFFECTS__
export function minBytes(n: number): Constraint<Uint8Array> {
  return constraint({
    name: 'minBytes',
    params: { minBytes: n },
    test: (v: Uint8Array) => v.length >= n,
    message: `must have at least ${n} byte${n === 1 ? '' : 's'}`,
  });
}
