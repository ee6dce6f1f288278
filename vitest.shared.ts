import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The vitest configuration every workspace package uses: sources resolve through the `lib-source`
 * export condition (no build needed), type tests run with `--typecheck`, and a JSON report
 * lands in `.vitest/results.json` for the workspace summary (`scripts/test-summary.mjs`).
 */
const config: ViteUserConfig = defineConfig({
  resolve: { conditions: ['lib-source'] },
  ssr: { resolve: { conditions: ['lib-source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // Property suites are CPU-bound and share two cores with other packages under turbo.
    testTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
  },
});

export default config;
