/**
 * The documentation compiles: every checked TypeScript block of docs/ and of the READMEs is
 * type-checked against the packages' sources, so that an API change that breaks an example
 * breaks the build. And no user-facing file sends readers to files they do not have.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { extractModules, type ExtractedModule } from './code-blocks.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const out = join(root, 'tests/docs/.generated');

function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const rel = join(dir, name);
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  for (const group of ['packages', 'examples']) {
    for (const name of readdirSync(join(root, group)).sort()) if (existsSync(join(root, group, name, 'README.md'))) files.push(join(group, name, 'README.md'));
  }
  return files;
}

const files = markdownFiles();
const modules = new Map<string, (ExtractedModule & { generated: string })[]>();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const f of files) {
  const ms = extractModules(join(root, f));
  if (ms.length === 0) continue;
  modules.set(
    f,
    ms.map((m, i) => {
      const generated = join(out, `${f.replace(/[\\/]/g, '__').replace(/\.md$/, '')}.${i + 1}.ts`);
      writeFileSync(generated, m.source);
      return { ...m, generated };
    }),
  );
}

function compile(): Map<string, string[]> {
  const config = ts.readConfigFile(join(root, 'tests/docs/tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, join(root, 'tests/docs'));
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false, isolatedDeclarations: false, declaration: false };
  const program = ts.createProgram([...modules.values()].flat().map((m) => m.generated), options);
  const byFile = new Map<string, string[]>();
  for (const [md, ms] of modules) {
    const found: string[] = [];
    for (const m of ms) {
      const sf = program.getSourceFile(m.generated);
      const diags = sf === undefined ? [] : [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
      for (const d of diags) {
        const line = d.start === undefined || sf === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line;
        found.push(`${md}:${m.lineMap[line] ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      }
    }
    byFile.set(md, found);
  }
  return byFile;
}

describe('documentation', () => {
  const results = compile();

  it('has checked code blocks in the README, every docs/ page, and the package READMEs', () => {
    expect(modules.has('README.md')).toBe(true);
    for (const f of files.filter((x) => x.startsWith('docs/') && !x.endsWith('docs/README.md'))) expect(modules.has(f), f).toBe(true);
    expect(modules.size).toBeGreaterThanOrEqual(10);
  });

  it.each(files.filter((f) => modules.has(f)))('%s: every TypeScript block compiles', (f) => {
    expect(results.get(f)).toEqual([]);
  });

  it('the quick start runs: it serves, calls and stops', async () => {
    const qs = modules.get('docs/quick-start.md')?.[0];
    expect(qs).toBeDefined();
    const logged: unknown[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void logged.push(args);
    try {
      await import((qs as { generated: string }).generated);
    } finally {
      console.log = log;
    }
    expect(logged).toEqual([[{ message: 'Hello, Ada!' }]]);
  });

  it('no user-facing file cites the internal specification files', () => {
    const cited: string[] = [];
    const scan = (rel: string): void => {
      const text = readFileSync(join(root, rel), 'utf8');
      if (/\b(SPEC|TYPESCRIPT|STYLE)\.md\b/.test(text)) cited.push(rel);
    };
    for (const f of files) scan(f);
    for (const pkg of readdirSync(join(root, 'packages'))) {
      const walk = (dir: string): void => {
        if (!existsSync(join(root, dir))) return;
        for (const name of readdirSync(join(root, dir))) {
          const rel = join(dir, name);
          if (statSync(join(root, rel)).isDirectory()) walk(rel);
          else if (/\.ts$/.test(name) && !/\.test(-d)?\.ts$/.test(name)) scan(rel);
        }
      };
      walk(join('packages', pkg, 'src'));
    }
    expect(cited.map((f) => relative(root, join(root, f)))).toEqual([]);
  });
});
