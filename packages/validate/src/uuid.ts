import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A UUID in RFC 9562 text form (`8-4-4-4-12` hex digits, either case, any version). Applies to
 * strings. Schema: `format: 'uuid'`, which a checker following RFC 9562 §4 applies exactly as
 * this constraint does (a `urn:uuid:` prefix is a URN, not the UUID string form).
 */
export const uuid: Constraint<string> = constraint({
  name: 'uuid',
  test: (v: string) => UUID.test(v),
  message: 'must be a UUID',
  schema: (s) => addKeyword(s, 'format', 'uuid'),
});
