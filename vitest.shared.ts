import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The vitest configuration every workspace package uses: sources resolve through the `lib-source`
 * export condition (no build needed), and a JSON report lands in `.vitest/results.json` for the
 * workspace summary (`scripts/test-summary.mjs`). Type tests (`*.test-d.ts`) are not run here:
 * the package's `typecheck` task (`tsc`) checks them with everything else.
 */
const config: ViteUserConfig = defineConfig({
  resolve: { conditions: ['lib-source'] },
  ssr: { resolve: { conditions: ['lib-source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property suites are CPU-bound and share two cores with other packages under turbo.
    testTimeout: 30_000,
    // One worker runs its files one after another in one module graph: loading the sources
    // once per worker instead of once per file cuts a package's run by half or more.
    isolate: false,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
  },
});

export default config;
