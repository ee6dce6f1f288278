// Self time by function and by file of a .cpuprofile: node top.mjs FILE [ROWS]
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = p.timeDeltas; let total = 0;
const counts = new Map();
p.samples.forEach((id, i) => { counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)); total += dt[i] ?? 0; });
const agg = new Map(); const aggFile = new Map();
for (const [id, t] of counts) { const n = byId.get(id); const cf = n.callFrame; const url = cf.url.replace(/.*\/(node_modules\/\.pnpm\/[^/]+|packages\/[^/]+\/src|node:)/, '$1'); const k = `${cf.functionName || '(anon)'} ${url}:${cf.lineNumber + 1}`; agg.set(k, (agg.get(k) ?? 0) + t);
 const fk = cf.url === '' ? cf.functionName : url.replace(/:\d+$/, ''); aggFile.set(fk, (aggFile.get(fk) ?? 0) + t); }
const idle = [...agg].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, t]) => a + t, 0);
console.log('total ms', (total / 1000).toFixed(0), 'idle ms', (idle/1000).toFixed(0));
const busy = total - idle;
for (const [k, t] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, +process.argv[3] || 40)) console.log((100 * t / busy).toFixed(1).padStart(5) + '%', k);
console.log('--- by file');
for (const [k, t] of [...aggFile].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((100 * t / busy).toFixed(1).padStart(5) + '%', k);
