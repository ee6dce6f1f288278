import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

// The address form that JSON Schema's `email` format checkers accept (RFC 5321 dot-atom local
// part, dotted hostname labels).
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An e-mail address (RFC 5321 mailbox, dot-atom form). Schema: `format: email`. */
export const email: Constraint<string> = constraint({
  name: 'email',
  test: (v: string) => v.length <= 254 && EMAIL.test(v),
  message: 'must be an e-mail address',
  schema: { format: 'email' },
});
