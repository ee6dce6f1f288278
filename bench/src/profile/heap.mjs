// Bytes allocated by function in an allocation profile of heap-sample.mjs: node heap.mjs FILE [ROWS]
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const self = new Map(); let total = 0;
function walk(n, stack) {
  const cf = n.callFrame;
  const url = cf.url.replace(/.*\/(node_modules\/\.pnpm\/[^/]+|packages\/[^/]+\/dist|node:)/, '$1');
  const k = `${cf.functionName || '(anon)'} ${url}:${cf.lineNumber + 1}`;
  const s = n.selfSize; total += s;
  self.set(k, (self.get(k) ?? 0) + s);
  for (const c of n.children) walk(c, stack);
}
walk(p.head, []);
console.log('total MB sampled', (total / 1e6).toFixed(1));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, +process.argv[3] || 30)) console.log((100 * v / total).toFixed(1).padStart(5) + '%', k);
