import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';
import { addKeyword } from './internal/schema.js';

/** Flags that change what a regex matches and that JSON Schema `pattern` cannot carry. */
const UNEXPRESSIBLE = /[imsv]/;

/**
 * Matches `re` (unanchored unless it anchors itself). Applies to strings. Schema:
 * `pattern: re.source` (in `allOf` beside another pattern).
 *
 * JSON Schema patterns are ECMA-262 regexes run with the `u` flag, so when `re` can be
 * reflected the value is tested with `u` too, and a validator agrees with the decoder. A regex
 * whose flags include `i`, `m`, `s` or `v`, or whose source is not valid with `u`, is tested as
 * given and not reflected: the schema states nothing rather than something wrong. `g` and `y`
 * are ignored.
 */
// @__NO_SIDE_EFFECTS__
export function pattern(re: RegExp): Constraint<string> {
  const flags = re.flags.replace(/[gy]/g, '');
  let tester: RegExp | undefined;
  if (!UNEXPRESSIBLE.test(flags)) {
    try {
      tester = new RegExp(re.source, flags.includes('u') ? flags : flags + 'u');
    } catch {
      tester = undefined;
    }
  }
  const reflected = tester !== undefined;
  const t = tester ?? new RegExp(re.source, flags);
  return constraint({
    name: 'pattern',
    params: { pattern: re.source, flags },
    test: (v: string) => t.test(v),
    message: `must match ${re}`,
    ...(reflected && { schema: (s) => addKeyword(s, 'pattern', re.source) }),
  });
}
