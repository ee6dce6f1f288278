import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { EMAIL } from './internal/formats.js';
import { addKeyword, lower } from './internal/schema.js';

/**
 * An e-mail address: a dot-atom local part, `@`, and a dotted domain name (no quoted local
 * parts, no address literals), at most 254 characters (RFC 5321 §4.5.3.1.3). Applies to
 * strings. Schema: `format: 'email'`, `maxLength: 254`; the syntax is the one JSON Schema
 * `email` checkers (ajv-formats) accept.
 */
export const email: Constraint<string> = constraint({
  name: 'email',
  test: (v: string) => v.length <= 254 && EMAIL.test(v),
  message: 'must be an e-mail address',
  schema: (s) => lower(addKeyword(s, 'format', 'email'), 'maxLength', 254),
});
