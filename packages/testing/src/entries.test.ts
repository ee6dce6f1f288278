// What each entry loads: `@lib/testing` imports neither `msw` nor `hono` (optional peers) — the
// mock server loads hono when it starts — and `@lib/testing/msw` holds `mswHandlers`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The static imports of a module, `import type` and `export type` left out, dynamic `import()` too. */
function staticImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) if (m[2] === undefined) out.push(m[3] as string);
  return out;
}

/** The packages a module reaches by static imports, following its relative imports. */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
        continue;
      }
      const target = resolve(dirname(file), spec);
      visit(file.endsWith('.ts') ? target.replace(/\.js$/, '.ts') : target);
    }
  };
  visit(entry);
  return packages;
}

describe('entries', () => {
  it('the main entry imports neither msw nor hono, in the sources and in the built files', () => {
    const src = packagesReached(join(root, 'src/index.ts'));
    expect(src).toContain('fast-check');
    expect(src).not.toContain('msw');
    expect(src).not.toContain('hono');
    expect(src).not.toContain('@lib/router-adapter');
    const built = join(root, 'dist/index.js');
    // The built files, when they were built from these sources.
    if (existsSync(built) && statSync(built).mtimeMs >= statSync(join(root, 'src/index.ts')).mtimeMs) {
      const dist = packagesReached(built);
      expect(dist).toContain('fast-check');
      expect(dist).not.toContain('msw');
      expect(dist).not.toContain('hono');
      // The CommonJS file is one bundle: what `require` loads with it, read from Node's module cache.
      const script = `require(${JSON.stringify(join(root, 'dist/index.cjs'))}); console.log(JSON.stringify(Object.keys(require.cache)))`;
      const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
      expect(loaded.filter((f) => /[\\/]node_modules[\\/](msw|hono)[\\/]/.test(f))).toEqual([]);
    }
  });

  it('@lib/testing/msw gives mswHandlers, and the main entry no longer does', async () => {
    const main: Record<string, unknown> = await import('./index.js');
    const msw: Record<string, unknown> = await import('./msw.js');
    expect(main['mswHandlers']).toBeUndefined();
    expect(typeof main['mockServer']).toBe('function');
    expect(typeof msw['mswHandlers']).toBe('function');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };
    expect(pkg.dependencies['hono']).toBeUndefined();
    expect(pkg.peerDependenciesMeta).toMatchObject({ msw: { optional: true }, hono: { optional: true } });
  });
});
