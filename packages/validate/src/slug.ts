import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const SLUG = /* @__PURE__ */ new RegExp(SLUG_PATTERN);

/**
 * A URL slug: lower-case ASCII letters and digits in groups joined by single hyphens
 * (`my-post-2`). Applies to strings. Schema: `pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$'`.
 */
export const slug: Constraint<string> = constraint({
  name: 'slug',
  test: (v: string) => SLUG.test(v),
  message: 'must be a slug (lower-case letters and digits joined by hyphens)',
  schema: (s) => addKeyword(s, 'pattern', SLUG_PATTERN),
});
