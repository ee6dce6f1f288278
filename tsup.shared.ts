import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares, Node 20, with source maps:
 *
 * - ESM mirrors `src/` module by module (no bundling). A bundler that takes one export from
 *   `dist/index.js` then loads only the modules it reaches, as `sideEffects: false` allows: a
 *   browser client never loads the server pipeline, content negotiation or the schema renderer.
 *   One bundled file (or shared chunks) would import every dependency at its top.
 * - CommonJS (Node `require`) is one file per entry. A dependency published as ESM only (no
 *   `require` or `default` export, such as `cborg`) cannot be `require`d, so it is bundled into
 *   that file ({@link esmOnlyDependencies}).
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
    { ...common, entry: [...entry], format: ['cjs'], treeshake: true, noExternal: esmOnlyDependencies(), ...extra },
  ]);
}

/** The package's dependencies (run from its folder) whose `exports` give `require` nothing. */
export function esmOnlyDependencies(dir: string = process.cwd()): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const req = createRequire(join(dir, 'package.json'));
  return Object.keys(pkg.dependencies ?? {}).filter((name) => {
    // Found where Node looks for it (its package.json need not be exported).
    const file = (req.resolve.paths(name) ?? []).map((p) => join(p, name, 'package.json')).find((f) => existsSync(f));
    if (file === undefined) return false;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { exports?: unknown };
    const root = typeof manifest.exports === 'object' && manifest.exports !== null && '.' in manifest.exports ? (manifest.exports as Record<string, unknown>)['.'] : manifest.exports;
    return requireTarget(root) === false;
  });
}

/** Whether an `exports` entry gives `require` a target: `undefined` when there is no `exports` field (then `main` serves). */
function requireTarget(entry: unknown): boolean | undefined {
  if (entry === undefined) return undefined;
  if (typeof entry === 'string') return true;
  if (Array.isArray(entry)) return entry.some((e) => requireTarget(e) === true);
  if (typeof entry !== 'object' || entry === null) return false;
  const conditions = entry as Record<string, unknown>;
  for (const c of ['require', 'node', 'default']) if (c in conditions && requireTarget(conditions[c]) === true) return true;
  return false;
}
