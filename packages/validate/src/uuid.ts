import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in RFC 9562 text form (`8-4-4-4-12` hex digits, any version). Schema: `format: uuid`. */
export const uuid: Constraint<string> = constraint({
  name: 'uuid',
  test: (v: string) => UUID.test(v),
  message: 'must be a UUID',
  schema: { format: 'uuid' },
});
