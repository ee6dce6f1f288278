#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { diffDocuments } from './diff.js';
import { importDocument } from './import.js';
import { loadDocument, parseDocument } from './load.js';

const USAGE = `usage:
  openapi-import <document.yaml|json> [-o out.ts]     write the @lib module of a document, print what is refused
  openapi-import diff <expected> <actual> [--strict] [--ignore-docs] [--json]
                                                     compare two documents by meaning; exit 1 when they differ`;

/**
 * The command line: `openapi-import <file> -o out.ts` writes the module of a local document
 * (external `$ref`s to local files brought in) and prints the refusals; `openapi-import diff
 * <expected> <actual>` prints the differences and exits 1 when there are any. Returns the exit code.
 */
export function main(argv: readonly string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`), err: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number {
  const args = [...argv];
  if (args.length === 0 || args.includes('-h') || args.includes('--help')) {
    out(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  try {
    if (args[0] === 'diff') {
      const files = args.slice(1).filter((a) => !a.startsWith('--'));
      if (files.length !== 2) {
        err(USAGE);
        return 2;
      }
      const read = (f: string): object => (f === '-' ? parseDocument(readFileSync(0, 'utf8')) : loadDocument(f));
      const diffs = diffDocuments(read(files[0] as string), read(files[1] as string), { strict: args.includes('--strict'), ignoreDocs: args.includes('--ignore-docs') });
      if (args.includes('--json')) out(JSON.stringify(diffs, null, 2));
      else {
        for (const d of diffs) out(`${d.kind}\t${d.pointer}\t${d.message}${d.expected !== undefined || d.actual !== undefined ? `\t(expected ${JSON.stringify(d.expected)}, actual ${JSON.stringify(d.actual)})` : ''}`);
        out(diffs.length === 0 ? 'the documents agree' : `${diffs.length} difference(s)`);
      }
      return diffs.length === 0 ? 0 : 1;
    }
    const o = args.indexOf('-o');
    const target = o === -1 ? undefined : args[o + 1];
    const file = args.find((a, i) => !a.startsWith('-') && (o === -1 || (i !== o + 1)));
    if (file === undefined || (o !== -1 && target === undefined)) {
      err(USAGE);
      return 2;
    }
    const { source, refused } = importDocument(loadDocument(file), { sourceName: basename(file) });
    if (target === undefined) out(source);
    else writeFileSync(target, source);
    const byKind = new Map<string, number>();
    for (const r of refused) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
    for (const r of refused) err(`refused ${r.kind}\t${r.pointer}\t${r.reason}`);
    err(`${refused.length} refusal(s)${byKind.size > 0 ? `: ${[...byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}${target !== undefined ? `; wrote ${target}` : ''}`);
    return 0;
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return 2;
  }
}

// Run when executed (not when imported by a test).
const self = process.argv[1];
if (self !== undefined && /(?:^|[\\/])(cli\.(?:js|ts|cjs)|openapi-import)$/.test(self)) process.exitCode = main(process.argv.slice(2));
