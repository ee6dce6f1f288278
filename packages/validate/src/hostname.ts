import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { HOSTNAME } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

/**
 * A DNS host name (RFC 1123): ASCII letters, digits and hyphens, labels of 1 to 63 characters
 * not starting or ending with a hyphen, at most 253 characters, an optional final dot.
 * Applies to strings. Schema: `format: 'hostname'`.
 */
export const hostname: Constraint<string> = constraint({
  name: 'hostname',
  test: (v: string) => HOSTNAME.test(v),
  message: 'must be a host name',
  schema: (s) => addKeyword(s, 'format', 'hostname'),
});
