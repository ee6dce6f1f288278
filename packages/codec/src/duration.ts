import { describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import { NumberAsTextCodec } from './internal/number-as-text.js';
import type { JsonSchema } from './json-schema.js';

/**
 * The durations this codec reads, as a JSON Schema `pattern`: the RFC 3339 Appendix A
 * durations (what `format: 'duration'` checks) made of fixed-length units only — weeks, or
 * days, hours, minutes and seconds — with at most 20 digits per unit. Years and months are
 * refused: they have no length in milliseconds.
 */
export const DURATION_PATTERN: string =
  '^P(?!$)(?:\\d{1,20}W|(?:\\d{1,20}D)?(?:T(?=\\d)(?:\\d{1,20}H)?(?:\\d{1,20}M)?(?:\\d{1,20}S)?)?)$';

const DURATION_RE = /* @__PURE__ */ new RegExp(DURATION_PATTERN);
const PARTS = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const UNITS = [604_800_000, 86_400_000, 3_600_000, 60_000, 1000] as const;
/** The longest valid duration in seconds: its milliseconds are the last whole second below 2^53. */
const MAX_SECONDS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/**
 * Codec of a duration in milliseconds. Wire value: an RFC 3339 / ISO 8601 duration (`P1DT2H30M`, `PT90S`, `P2W`), read
 * as `weeks·7d + days·24h + hours + minutes + seconds` (a day is 24 hours). Encoding writes
 * days, hours, minutes and seconds (`PT0S` for zero).
 *
 * RFC 3339 durations have no fraction and no sign, so valid values are non-negative whole
 * seconds, as safe integers of milliseconds: 0 to 9 007 199 254 740 000 (`PT9007199254740S`,
 * about 285 000 years). Encoding checks that: `encode(1500)`, `encode(-1000)` and `encode(NaN)`
 * throw an `EncodeError` (constraint `format` for the first two, `type` for a value that is not
 * a finite number), and `validate` throws the same issues as a `DecodeError`. Decoding refuses a
 * longer duration (`PT9007199254741S`, `P99999999999999999999W`) with constraint `format` too.
 *
 * Schema `{ type: 'string', format: 'duration', pattern }` (see {@link DURATION_PATTERN}). The
 * pattern bounds the digits of each unit, not their sum: a text it accepts whose total is past
 * the longest valid duration is still refused by the decoder. Constraints
 * (`validate.max(3_600_000)`) are checked on decode but not reflected: JSON Schema has no keyword
 * bounding the number a string spells.
 */
export class DurationCodec extends NumberAsTextCodec<number> {
  readonly kind = 'duration';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected duration string, got ${describeType(input)}`, 'type', input);
    const m = DURATION_RE.test(input) ? PARTS.exec(input) : null;
    if (m === null) {
      return ctx.addIssue('expected an RFC 3339 duration of weeks, days, hours, minutes and whole seconds (P1DT2H, PT90S)', 'format', input);
    }
    let ms = 0;
    for (let i = 0; i < UNITS.length; i++) ms += Number(m[i + 1] ?? 0) * (UNITS[i] as number);
    // Each product and sum rounds monotonically and 2^53 is a double: a total past 2^53 − 1 never
    // rounds back into the safe integers, and a smaller one is computed exactly.
    if (!Number.isSafeInteger(ms)) return ctx.addIssue(`expected a duration of at most ${MAX_SECONDS} seconds (a safe integer of milliseconds)`, 'format', input);
    return ms;
  }
  protected serialize(value: number): unknown {
    if (typeof value !== 'number') throw mismatch('number (milliseconds)', value);
    if (!Number.isSafeInteger(value) || value < 0 || value % 1000 !== 0) {
      const problem = 'expected a non-negative whole number of seconds, in milliseconds (a safe integer)';
      throw encodeIssue(`${problem}, got ${value}`, Number.isFinite(value) ? 'format' : 'type', value);
    }
    let s = value / 1000;
    const d = Math.floor(s / 86_400);
    s -= d * 86_400;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    let time = (h > 0 ? `${h}H` : '') + (m > 0 ? `${m}M` : '') + (s > 0 ? `${s}S` : '');
    if (time === '' && d === 0) time = '0S';
    return `P${d > 0 ? `${d}D` : ''}${time === '' ? '' : `T${time}`}`;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', format: 'duration', pattern: DURATION_PATTERN };
  }
}

/** A duration codec: milliseconds ↔ ISO 8601 duration (`PT1H30M`). */
// @__NO_SIDE_EFFECTS__
export function duration(): DurationCodec {
  return new DurationCodec();
}
