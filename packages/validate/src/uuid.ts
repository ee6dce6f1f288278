import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN);

/**
 * A UUID in RFC 9562 text form (`8-4-4-4-12` hex digits, either case, any version). Applies to
 * strings. Schema: `format: 'uuid'` and the same syntax as `pattern`, because common `uuid`
 * checkers also accept a `urn:uuid:` prefix, which this constraint does not.
 */
export const uuid: Constraint<string> = constraint({
  name: 'uuid',
  test: (v: string) => UUID.test(v),
  message: 'must be a UUID',
  schema: (s) => addKeyword(addKeyword(s, 'format', 'uuid'), 'pattern', UUID_PATTERN),
});
