import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares, Node 20, with source maps:
 *
 * - ESM mirrors `src/` module by module (no bundling). A bundler that takes one export from
 *   `dist/index.js` then loads only the modules it reaches, as `sideEffects: false` allows: a
 *   browser client never loads the server pipeline, content negotiation or the schema renderer.
 *   One bundled file (or shared chunks) would import every dependency at its top.
 * - CommonJS (Node `require`) is one file per entry.
 * - Type declarations (`.d.ts` for `import`, `.d.cts` for `require`) mirror `src/` too; the
 *   build script writes them after tsup (`scripts/emit-declarations.mjs`), file by file, as
 *   `isolatedDeclarations` allows — a second of work where a bundled declaration build took ten.
 *
 * `entry` lists the package's entry points; `extra` adds or overrides options of both builds
 * (`shims` for `import.meta.url` in CommonJS). The package's `build` script empties `dist`
 * first (the two builds run side by side, so neither may clean it).
 */
export function packageConfig(entry: readonly string[] = ['src/index.ts'], extra: Options = {}): ReturnType<typeof defineConfig> {
  const common: Options = { dts: false, sourcemap: true, target: 'node20' };
  return defineConfig([
    { ...common, entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts'], format: ['esm'], bundle: false, ...extra },
    { ...common, entry: [...entry], format: ['cjs'], treeshake: true, ...extra },
  ]);
}
