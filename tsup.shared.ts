import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares: ESM and CommonJS, type declarations for both,
 * source maps, Node 20. `entry` lists the package's entry points; `extra` adds or overrides
 * options (`shims` for `import.meta.url` in CommonJS).
 */
export function packageConfig(entry: readonly string[] = ['src/index.ts'], extra: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: [...entry],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    treeshake: true,
    ...extra,
  });
}
