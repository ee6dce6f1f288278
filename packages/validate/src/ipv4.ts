import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { IPV4 } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

/** An IPv4 address in dotted-quad form (`192.0.2.1`, no leading zeros). Applies to strings. Schema: `format: 'ipv4'`. */
export const ipv4: Constraint<string> = constraint({
  name: 'ipv4',
  test: (v: string) => IPV4.test(v),
  message: 'must be an IPv4 address',
  schema: (s) => addKeyword(s, 'format', 'ipv4'),
});
