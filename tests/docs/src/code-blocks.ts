/**
 * Extracts the TypeScript code blocks of a markdown file as modules for the compiler. Blocks
 * fenced ```ts (or ```typescript) are checked, each as a module of its own; a block fenced
 * ```ts continued goes on in the module of the block before it. A fence ```ts nocheck is left
 * out (another library's code, shown for comparison). An HTML comment `<!-- prelude: … -->`
 * adds code the reader is meant to assume (`declare const signal: AbortSignal;`, an import)
 * to every block after it in the file: checked like the rest, not shown. Import statements go
 * to the top of their module, once each.
 */
import { readFileSync } from 'node:fs';

/** One extracted module: its source and, per generated line, the markdown line it came from. */
export interface ExtractedModule {
  readonly source: string;
  readonly lineMap: readonly number[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/;

type Line = [text: string, markdownLine: number];

export function extractModules(markdownPath: string): ExtractedModule[] {
  const lines = readFileSync(markdownPath, 'utf8').split('\n');
  const preludes: Line[] = [];
  const modules: Line[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim().startsWith('<!-- prelude:')) {
      // One line or several, up to the closing `-->`.
      let text = line.trim().slice('<!-- prelude:'.length);
      let at = i;
      for (;;) {
        const end = text.indexOf('-->');
        const part = end === -1 ? text : text.slice(0, end);
        if (part.trim() !== '') preludes.push([part.trim(), at + 1]);
        if (end !== -1 || at + 1 >= lines.length) break;
        text = lines[++at] as string;
      }
      i = at;
      continue;
    }
    const open = FENCE.exec(line);
    if (open === null) continue;
    const [, indent, fence, lang, rest] = open as unknown as [string, string, string, string, string];
    const checked = (lang === 'ts' || lang === 'typescript') && !/\bnocheck\b/.test(rest);
    let j = i + 1;
    const code: Line[] = [];
    for (; j < lines.length; j++) {
      const l = lines[j] as string;
      if (l.trim().startsWith(fence) && l.trim().replace(/[`~]/g, '') === '') break;
      code.push([l.startsWith(indent) ? l.slice(indent.length) : l, j + 1]);
    }
    i = j;
    if (!checked) continue;
    const previous = modules[modules.length - 1];
    if (/\bcontinued\b/.test(rest) && previous !== undefined) previous.push(...code);
    else modules.push([...preludes, ...code]);
  }
  return modules.map(hoistImports);
}

function hoistImports(code: readonly Line[]): ExtractedModule {
  const imports: Line[] = [];
  const body: Line[] = [];
  for (let k = 0; k < code.length; k++) {
    const [text, at] = code[k] as Line;
    if (!/^import\s/.test(text)) {
      body.push([text, at]);
      continue;
    }
    let stmt = text;
    while (!/from\s+['"][^'"]+['"];?\s*$/.test(stmt) && !/^import\s+['"][^'"]+['"];?\s*$/.test(stmt) && k + 1 < code.length) stmt += ` ${(code[++k] as Line)[0]}`;
    const normal = stmt.replace(/\s+/g, ' ').replace(/;?\s*$/, ';');
    if (!imports.some(([s]) => s === normal)) imports.push([normal, at]);
  }
  const all: Line[] = [...imports, ['export {};', 0], ...body];
  return { source: all.map(([s]) => s).join('\n'), lineMap: all.flatMap(([s, at]) => s.split('\n').map(() => at)) };
}
