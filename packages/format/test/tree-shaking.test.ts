import { describe, expect, it } from 'vitest';
import { bundle, CASES, PARSERS } from './bundle.mjs';

// The same check runs on dist/ after the build, in `pnpm run lint`.
describe('a client bundle of src/index.ts', () => {
  it.each(CASES)('taking %j loads only the parser it uses (%s)', async (names, parser) => {
    const { packages } = await bundle('./src/index.ts', names);
    for (const p of PARSERS) expect(packages.has(p), p).toBe(p === parser);
  });
});
