import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { IPV6 } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

/**
 * An IPv6 address in RFC 4291 §2.2 text form (`::` compression, an embedded IPv4 tail; no zone
 * index). Applies to strings. Schema: `format: 'ipv6'`.
 */
export const ipv6: Constraint<string> = constraint({
  name: 'ipv6',
  test: (v: string) => IPV6.test(v),
  message: 'must be an IPv6 address',
  schema: (s) => addKeyword(s, 'format', 'ipv6'),
});
