import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTEGER_TEXT, integerTextPattern } from './integer-text.js';

describe('integerTextPattern', () => {
  const ranges: [bigint, bigint][] = [
    [-(2n ** 63n), 2n ** 63n - 1n],
    [0n, 2n ** 64n - 1n],
    [-9007199254740991n, 9007199254740991n],
    [-100n, 99n],
    [0n, 0n],
    [-1n, 10n],
  ];
  for (const [min, max] of ranges) {
    it(`matches exactly the texts of ${min}…${max}`, () => {
      const re = new RegExp(integerTextPattern(min, max), 'u');
      const near = fc.oneof(
        fc.bigInt({ min: min * 2n - 10n, max: max * 2n + 10n }),
        fc.constantFrom(min, max, min - 1n, max + 1n, 0n).chain((b) => fc.bigInt({ min: b - 3n, max: b + 3n })),
      );
      const text = fc.oneof(near.map(String), fc.constantFrom('-0', '00', '01', '+1', '', '-', '1.0'));
      fc.assert(
        fc.property(text, (s) => {
          const inRange = INTEGER_TEXT.test(s) && BigInt(s) >= min && BigInt(s) <= max;
          expect(re.test(s)).toBe(inRange);
        }),
        { numRuns: 500 },
      );
    });
  }
});
