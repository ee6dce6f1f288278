/**
 * Regular expressions (as JSON Schema `pattern` sources) for the decimal text of integers in a
 * range. They let string-carried integers (`intString`, `int64`, `uint64`) state their exact
 * range in a schema, so any JSON Schema validator accepts exactly what the decoder accepts.
 */

/** Source of a regex matching the canonical decimal text of every integer in [1, n] (n ≥ 1). */
function upTo(n: string): string {
  const alts: string[] = [];
  const len = n.length;
  // Every shorter number: 1 … 10^(len-1) − 1.
  if (len === 2) alts.push('[1-9]');
  else if (len > 2) alts.push(`[1-9]\\d{0,${len - 2}}`);
  // Numbers of the same length, below n: share a prefix, then a smaller digit, then anything.
  for (let i = 0; i < len; i++) {
    const d = Number(n[i]);
    const lo = i === 0 ? 1 : 0;
    if (d <= lo) continue;
    const digit = d - 1 === lo ? String(lo) : `[${lo}-${d - 1}]`;
    const rest = len - i - 1;
    alts.push(n.slice(0, i) + digit + (rest === 0 ? '' : rest === 1 ? '\\d' : `\\d{${rest}}`));
  }
  alts.push(n);
  return alts.length === 1 ? n : `(?:${alts.join('|')})`;
}

/**
 * Anchored regex source matching exactly the decimal texts of the integers in [min, max]
 * (min ≤ 0 ≤ max): no sign for positives, no leading zeros, no `+`; `-0` is a text of zero.
 */
export function integerTextPattern(min: bigint, max: bigint): string {
  const alts = ['0', '-0'];
  if (max >= 1n) alts.push(upTo(max.toString()));
  if (min <= -1n) alts.push(`-${upTo((-min).toString())}`);
  return `^(?:${alts.join('|')})$`;
}

/** Loose syntax of an integer's decimal text, checked before the range. */
export const INTEGER_TEXT: RegExp = /^-?(?:0|[1-9][0-9]*)$/;
