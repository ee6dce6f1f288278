/** Formatting shared by the benchmarks: markdown tables, numbers, ratios. */

/** A markdown table; the first column is left-aligned, the others right-aligned. */
export function mdTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`;
  return [line(headers), sep, ...rows.map(line)].join('\n');
}

/** `1234567` → `1,234,567`. */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A ratio `ours / theirs` as `×1.23` (above 1: ours is faster / higher). */
export function ratio(ours: number, theirs: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) return '–';
  return `×${(ours / theirs).toFixed(2)}`;
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)}`;
}

/** One target of the benchmark: a ratio measured in this run, and the bound it must keep. */
export interface Target {
  /** What is compared, e.g. `codec decode, valid input: @lib ÷ arktype (ops/s)`. */
  readonly figure: string;
  /** The ratio measured in this run (NaN when a side was not measured). */
  readonly value: number;
  /** The bound, as printed: `≥ 1.00` or `≤ 1.00`. */
  readonly goal: string;
  readonly met: boolean;
}

/** A target met when `value` is at least `min`. */
export function atLeast(figure: string, value: number, min: number): Target {
  return { figure, value, goal: `≥ ${min.toFixed(2)}`, met: value >= min };
}

/** A target met when `value` is at most `max`. */
export function atMost(figure: string, value: number, max: number): Target {
  return { figure, value, goal: `≤ ${max.toFixed(2)}`, met: value <= max };
}

/** The targets as a markdown table: figure, this run's ratio, the bound, met or not. */
export function targetTable(targets: readonly Target[]): string {
  return mdTable(
    ['figure', 'this run', 'target', 'met'],
    targets.map((t) => [t.figure, Number.isFinite(t.value) ? `×${t.value.toFixed(2)}` : '–', t.goal, t.met ? 'yes' : '**no**']),
  );
}
