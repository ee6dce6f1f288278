import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { isUri } from './internal/formats.js';
import { addKeyword } from './internal/schema.js';

const WEB_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]';
const WEB = /* @__PURE__ */ new RegExp(WEB_PATTERN);

/**
 * A web URL: an absolute URI (see `uri`) whose scheme is `http` or `https` (any case) and that
 * has a non-empty authority (`https://example.com/a?b`). Applies to strings. Schema:
 * `format: 'uri'` and `pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]'`.
 */
export const url: Constraint<string> = constraint({
  name: 'url',
  test: (v: string) => WEB.test(v) && isUri(v),
  message: 'must be an http or https URL',
  schema: (s) => addKeyword(addKeyword(s, 'format', 'uri'), 'pattern', WEB_PATTERN),
});
