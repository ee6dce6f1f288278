import { defineConfig } from 'tsup';

const common = { dts: { entry: 'src/index.ts' }, sourcemap: true, target: 'node20' } as const;

export default defineConfig([
  {
    // ESM mirrors src/ module by module (no bundling), so a bundler that takes `json` from
    // `dist/index.js` skips `yaml.js`, `toml.js` and `cbor.js` — and the parsers they import —
    // as `sideEffects: false` allows. One bundled file would import every parser at its top.
    ...common,
    entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts'],
    format: ['esm'],
    bundle: false,
  },
  {
    // CommonJS (Node `require`) is one file.
    ...common,
    entry: ['src/index.ts'],
    format: ['cjs'],
    treeshake: true,
  },
]);
