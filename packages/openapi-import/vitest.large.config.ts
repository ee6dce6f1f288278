import { defineConfig } from 'vitest/config';

// `corpus:large`: the whole GitHub document, outside `pnpm test` (whose include it is not in).
export default defineConfig({
  resolve: { conditions: ['lib-source'] },
  ssr: { resolve: { conditions: ['lib-source'] } },
  test: { include: ['test/corpus-large.run.ts'], testTimeout: 1_800_000 },
});
