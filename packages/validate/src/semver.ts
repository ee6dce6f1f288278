import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

// The regular expression of semver.org (2.0.0), numbered-group form.
const SEMVER_PATTERN =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';
const SEMVER = /* @__PURE__ */ new RegExp(SEMVER_PATTERN);

/**
 * A Semantic Versioning 2.0.0 version (`1.2.3`, `1.0.0-rc.1+build.5`; no `v` prefix). Applies
 * to strings. Schema: the semver.org regular expression as `pattern`.
 */
export const semver: Constraint<string> = constraint({
  name: 'semver',
  test: (v: string) => SEMVER.test(v),
  message: 'must be a semantic version (MAJOR.MINOR.PATCH)',
  schema: (s) => addKeyword(s, 'pattern', SEMVER_PATTERN),
});
