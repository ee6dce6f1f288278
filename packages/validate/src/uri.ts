import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { isUri } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

/**
 * An absolute URI (RFC 3986 `URI`: a scheme, then a hierarchical part, query and fragment), in
 * ASCII (use percent-encoding for other characters). Applies to strings. Schema: `format: 'uri'`.
 */
export const uri: Constraint<string> = constraint({
  name: 'uri',
  test: (v: string) => isUri(v),
  message: 'must be an absolute URI',
  schema: (s) => addKeyword(s, 'format', 'uri'),
});
