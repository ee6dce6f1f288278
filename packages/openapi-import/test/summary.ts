import type { RoundTrip } from './roundtrip.js';

/** Totals over round trips, and the printed summary. */
export function summarise(rs: readonly RoundTrip[]): { text: string; operations: number; operationsEqual: number; schemas: number; schemasEqual: number } {
  const sum = (f: (r: RoundTrip) => number): number => rs.reduce((n, r) => n + f(r), 0);
  const operations = sum((r) => r.operations);
  const operationsEqual = sum((r) => r.operationsEqual);
  const schemas = sum((r) => r.schemas);
  const schemasEqual = sum((r) => r.schemasEqual);
  const kinds = new Map<string, number>();
  for (const r of rs) for (const x of r.refused) kinds.set(x.kind, (kinds.get(x.kind) ?? 0) + 1);
  const diffKinds = new Map<string, number>();
  for (const r of rs) for (const d of [...r.differences, ...r.schemaDifferences]) diffKinds.set(d.kind, (diffKinds.get(d.kind) ?? 0) + 1);
  const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);
  const lines = [
    `documents: ${rs.length} imported, ${rs.filter((r) => r.compiled).length} compiled, ${rs.filter((r) => r.served).length} served, ${rs.filter((r) => r.error === undefined && r.served).length} exported, ${rs.filter((r) => r.differences.length === 0 && r.schemaDifferences.length === 0 && r.compiled && r.served && r.error === undefined).length} round-tripped equal`,
    `operations round-tripped equal: ${operationsEqual}/${operations} (${pct(operationsEqual, operations)})`,
    `schemas round-tripped equal: ${schemasEqual}/${schemas} (${pct(schemasEqual, schemas)})`,
    `refusals by kind: ${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    `differences by kind: ${[...diffKinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    ...rs.filter((r) => !r.compiled || !r.served || r.error !== undefined).map((r) => `  ${r.name}: ${r.error ?? ''} ${r.typeErrors.slice(0, 3).join(' | ')}`),
  ];
  return { text: lines.join('\n'), operations, operationsEqual, schemas, schemasEqual };
}
