import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

// RFC 3986 path-absolute: "/" followed by segments of pchar (unreserved, pct-encoded,
// sub-delims, ":" and "@"). A lone "/" is allowed; empty segments ("//") are not.
const HTTP_PATH = /^\/(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+)*)?$/;

/**
 * An absolute HTTP request path (RFC 3986 `path-absolute`, no empty segments, no query or
 * fragment), for `rest.withPathConstraints`. Applies to strings. Schema: the same `pattern`.
 */
export const httpPath: Constraint<string> = constraint({
  name: 'httpPath',
  test: (v: string) => HTTP_PATH.test(v),
  message: 'must be an absolute path of non-empty segments',
  schema: (s) => addKeyword(s, 'pattern', HTTP_PATH.source),
});
