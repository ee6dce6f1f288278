import { describe, expect, it } from 'vitest';
import { bundle, CASES, PARSERS } from './bundle.mjs';

// The same check runs on dist/ after the build, in `pnpm run lint`.
describe('a client bundle of src/index.ts', () => {
  it.each(CASES)('taking %j loads only the parser it uses (%s), and %s on first use', async (names, parser, lazyParser) => {
    const { packages, lazy, files } = await bundle('./src/index.ts', names);
    for (const p of PARSERS) {
      expect(packages.has(p), p).toBe(p === parser);
      expect(lazy.has(p), `${p} on first use`).toBe(p === lazyParser);
    }
    // A lazy chunk that shared a module with the entry would split the entry in two files.
    expect(files).toBe(1);
  });
});
