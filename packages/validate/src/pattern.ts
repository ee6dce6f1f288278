import type { Constraint } from '@lib/codec';
import { constraint } from './constraint.js';

/**
 * Matches `re` (ECMAScript regular expression, unanchored unless it anchors itself). Flags
 * other than `u` cannot be expressed in JSON Schema; `re.source` is emitted as `pattern`.
 */
// @__NO_SIDE_EFFECTS__
export function pattern(re: RegExp): Constraint<string> {
  const tester = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return constraint({
    name: 'pattern',
    params: { pattern: re.source },
    test: (v: string) => tester.test(v),
    message: `must match ${re}`,
    schema: { pattern: re.source },
  });
}
