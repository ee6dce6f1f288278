// Writes the type declarations of a package's build, module by module, as its ESM build
// mirrors `src/`: `dist/x.d.ts` for `import` and `dist/x.d.cts` for `require` (relative
// specifiers end in `.cjs` there, so that a CommonJS importer stays in CommonJS types).
//
// Every package compiles with `isolatedDeclarations`, so each file's declarations come from
// that file alone (TypeScript's `transpileDeclaration`): no program, no type-check here — the
// package's `typecheck` task is the check. Run from the package's folder: `node ../../scripts/emit-declarations.mjs`.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import ts from 'typescript';

const src = 'src';
const out = 'dist';
const started = Date.now();

/** Every module of `dir` that ships: not tests, not type tests. */
function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return modules(p);
    return /\.ts$/.test(e.name) && !/\.test(-d)?\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

const options = { isolatedDeclarations: true, declaration: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, stripInternal: false };
let failed = 0;
let count = 0;
for (const file of modules(src)) {
  const result = ts.transpileDeclaration(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: options, reportDiagnostics: true });
  for (const d of result.diagnostics ?? []) {
    failed++;
    const where = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    process.stderr.write(`${file}${where ? `(${where.line + 1},${where.character + 1})` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n`);
  }
  const base = join(out, relative(src, file)).replace(/\.ts$/, '');
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.d.ts`, result.outputText);
  writeFileSync(`${base}.d.cts`, result.outputText.replace(/((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*?)\.js(['"])/g, '$1.cjs$2'));
  count++;
}
if (failed > 0) {
  process.stderr.write(`declarations: ${failed} error(s)\n`);
  process.exit(1);
}
console.log(`declarations: ${count} modules in ${Date.now() - started} ms`);
