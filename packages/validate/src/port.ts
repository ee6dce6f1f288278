import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { lower, raise } from './internal/schema.js';

/**
 * A TCP/UDP port number: an integer from 0 to 65535 (0 asks the system for a free port).
 * Applies to numbers (`codec.int()`, `codec.intString()`). Schema: `minimum: 0`,
 * `maximum: 65535`, and `type: 'integer'` on a `number` schema.
 */
export const port: Constraint<number> = constraint({
  name: 'port',
  test: (v: number) => Number.isInteger(v) && v >= 0 && v <= 65535,
  message: 'must be a port number from 0 to 65535',
  schema: (s) => {
    const out = lower(raise(s, 'minimum', 0), 'maximum', 65535);
    if (s.type === 'number') return { ...out, type: 'integer' };
    if (Array.isArray(s.type)) return { ...out, type: s.type.map((t) => (t === 'number' ? 'integer' : t)) };
    return out;
  },
});
