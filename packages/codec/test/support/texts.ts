import fc from 'fast-check';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Date texts around the calendar's edges: months 0–13, days 0–32, leap and common years. */
export const dateText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(0, 1900, 1970, 2000, 2023, 2024, 2100, 9999), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);

/** Time texts around the edges: hour 24, minute 60, second 60 (leap), offsets with and without colon. */
export const timeText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(0, 1, 12, 22, 23, 24),
    fc.constantFrom(0, 1, 29, 30, 58, 59, 60),
    fc.constantFrom(0, 1, 59, 60, 61),
    fc.constantFrom('', '.5', '.123', '.123456789', '.'),
    fc.constantFrom('Z', 'z', '', '+00:00', '-00:00', '+01:00', '-01:00', '+23:59', '+24:00', '+01:60', '+01', '+0100', '-0030', '+00:30', '-00:30', '+01:01'),
  )
  .map(([h, m, s, f, o]) => `${pad(h)}:${pad(m)}:${pad(s)}${f}${o}`);

/** Date-time texts: a date text, a separator (`T`, `t`, space, `_`) and a time text. */
export const dateTimeText: fc.Arbitrary<string> = fc
  .tuple(dateText, fc.constantFrom('T', 't', ' ', '_'), timeText)
  .map(([d, sep, t]) => d + sep + t);

/** Duration texts: `P`, optional sign, random units (calendar ones included), fractions. */
export const durationText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.subarray(['Y', 'M', 'W', 'D']),
    fc.constantFrom('', 'T'),
    fc.subarray(['H', 'M', 'S']),
    fc.array(fc.constantFrom('0', '1', '12', '1.5', '999999', '123456789012345678901'), { minLength: 7, maxLength: 7 }),
  )
  .map(([sign, date, t, time, nums]) => {
    let i = 0;
    const part = (u: string): string => `${nums[i++] ?? '1'}${u}`;
    return `${sign}P${date.map(part).join('')}${t}${t === '' ? '' : time.map(part).join('')}`;
  });

/**
 * The milliseconds a duration text spells, exactly, counting every run of digits before a unit
 * letter (`W` 7 days, `D`, `H`, `M` minutes after `T` and months before it, `S`); 0n for a text
 * without digits. A month counts as 0: such texts are refused anyway.
 */
export function durationMs(text: string): bigint {
  const ms: Record<string, bigint> = { W: 604_800_000n, D: 86_400_000n, H: 3_600_000n, S: 1000n, Y: 0n };
  let total = 0n;
  const t = text.indexOf('T');
  for (const m of text.matchAll(/(\d+)(?:\.\d*)?([WDHMSY])/g)) {
    const unit = m[2] === 'M' ? (t >= 0 && (m.index ?? 0) > t ? 60_000n : 0n) : (ms[m[2] as string] ?? 0n);
    total += BigInt(m[1] as string) * unit;
  }
  return total;
}

/** Integer texts near the edges of the safe, 32-bit and 64-bit ranges, and malformed ones. */
export const integerText: fc.Arbitrary<string> = fc.oneof(
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
  fc
    .tuple(
      fc.constantFrom(2n ** 31n, 2n ** 53n, 2n ** 63n, 2n ** 64n),
      fc.constantFrom(-2n, -1n, 0n, 1n),
      fc.boolean(),
    )
    .map(([b, d, neg]) => String((neg ? -1n : 1n) * (b + d))),
  fc.constantFrom('-0', '00', '01', '+1', ' 1', '1 ', '1e3', '0x10', '1.0', '', '-', '9007199254740991', '-9007199254740991'),
);
