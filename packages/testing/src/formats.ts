/**
 * Text formats: generators of the texts a format accepts and of near misses. The string
 * formats of `@lib/validate` (`uuid`, `email`, …, `pattern`, `hasPrefix`) give valid texts and
 * candidates that may break them (the caller keeps those its constraints refuse); the wire texts
 * of `codec.time()`, `codec.date()`, `codec.duration()` and `codec.httpDate()` give valid texts
 * and texts built to be malformed.
 */
import * as fc from 'fast-check';
import { param, type AnyConstraint } from './constraints.js';
import { nothing } from './internal/satisfying.js';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Whether `year` is a Gregorian leap year. */
function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** The days of `month` (1–12) of `year`. */
function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

/** A calendar day, years 0000–9999 (mostly near today), months' last days often. */
interface Day {
  readonly y: number;
  readonly m: number;
  readonly d: number;
}

const year = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1900, max: 2100 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }) });
const day: fc.Arbitrary<Day> = fc
  .tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => ({ y, m, d: Math.min(d, daysIn(y, m)) }));

const fullDateOf = ({ y, m, d }: Day): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** RFC 3339 `full-date` texts of real calendar days (`2024-02-29`), years 0000–9999. */
export function fullDateText(): fc.Arbitrary<string> {
  return day.map(fullDateOf);
}

/** `full-date` texts that are not: month 00 or 13, day 00 or one past the month's end, one-digit months, other separators, five or three year digits. */
export function malformedDate(): fc.Arbitrary<string> {
  return fc.tuple(day, fc.nat(8)).map(([t, how]) => {
    const { y, m, d } = t;
    switch (how) {
      case 0:
        return `${pad(y, 4)}-00-${pad(d)}`;
      case 1:
        return `${pad(y, 4)}-13-${pad(d)}`;
      case 2:
        return `${pad(y, 4)}-${pad(m)}-00`;
      case 3:
        return `${pad(y, 4)}-${pad(m)}-${pad(daysIn(y, m) + 1)}`;
      case 4:
        return `${pad(y, 4)}-${(m % 9) + 1}-${pad(d)}`;
      case 5:
        return `${pad(y, 4)}/${pad(m)}/${pad(d)}`;
      case 6:
        return `1${pad(y, 4)}-${pad(m)}-${pad(d)}`;
      case 7:
        return `${pad(y, 4).slice(1)}-${pad(m)}-${pad(d)}`;
      default:
        return ` ${fullDateOf(t)}`;
    }
  });
}

const fraction = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.stringMatching(/^\.\d{1,9}$/) },
);
const offset = fc.oneof(
  fc.constantFrom('Z', 'z'),
  fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
);
const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }));
/** Leap seconds where RFC 3339 allows them: 23:59:60 in UTC. */
const leapSecond = fc
  .tuple(fc.constantFrom('23:59:60Z', '23:59:60z', '23:59:60+00:00', '23:59:60-00:00', '00:59:60+01:00', '23:29:60-00:30'), fc.stringMatching(/^(?:\.\d{1,3})?$/))
  .map(([t, f]) => t.slice(0, 8) + f + t.slice(8));

/** RFC 3339 `full-time` texts with an offset (`08:30:00.5+02:00`; second 60 only at 23:59 UTC). */
function fullTimeText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 9, arbitrary: fc.tuple(clock, fraction, offset).map(([[h, m, s], f, o]) => `${pad(h)}:${pad(m)}:${pad(s)}${f}${o}`) },
    { weight: 1, arbitrary: leapSecond },
  );
}

/** `full-time` texts that are not: hour 24, minute 60, second 61, second 60 off 23:59 UTC, no or a malformed offset, a bare `.`, a one-digit hour. */
function malformedTime(): fc.Arbitrary<string> {
  return fc.tuple(clock, offset, fc.nat(9)).map(([[h, m, s], o, how]) => {
    const hh = pad(h);
    const mm = pad(m);
    const ss = pad(s);
    switch (how) {
      case 0:
        return `24:${mm}:${ss}${o}`;
      case 1:
        return `${hh}:60:${ss}${o}`;
      case 2:
        return `${hh}:${mm}:61${o}`;
      case 3:
        return `${pad(h % 23)}:${mm}:60Z`;
      case 4:
        return `${hh}:${mm}:${ss}`;
      case 5:
        return `${hh}:${mm}:${ss}+${pad(h)}`;
      case 6:
        return `${hh}:${mm}:${ss}+${pad(h)}${mm}`;
      case 7:
        return `${hh}:${mm}:${ss}+24:00`;
      case 8:
        return `${hh}:${mm}:${ss}.${o}`;
      default:
        return `${h % 10}:${mm}:${ss}${o}`;
    }
  });
}

/** RFC 3339 `date-time` texts (`2024-02-29T12:00:00Z`, `t` and `z` in either case). */
export function dateTimeText(): fc.Arbitrary<string> {
  return fc.tuple(fullDateText(), fc.constantFrom('T', 't'), fullTimeText()).map(([d, t, c]) => d + t + c);
}

/** `date-time` texts that are not: a malformed date or time, a space or nothing for `T`, a date alone. */
export function malformedDateTime(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(malformedDate(), fullTimeText()).map(([d, t]) => `${d}T${t}`),
    fc.tuple(fullDateText(), malformedTime()).map(([d, t]) => `${d}T${t}`),
    fc.tuple(fullDateText(), fc.constantFrom(' ', '', '_'), fullTimeText()).map(([d, s, t]) => d + s + t),
    fullDateText(),
  );
}

// Numbers of a unit: small enough that a duration's milliseconds stay a safe integer (the
// values the codec can also write), with leading zeros up to the 20 digits a unit may have.
const units = fc.oneof(
  { weight: 8, arbitrary: fc.nat(100_000).map(String) },
  { weight: 1, arbitrary: fc.nat(99).map((n) => pad(n, 3)) },
  { weight: 1, arbitrary: fc.constantFrom('0', '00000000000000000042') },
);

/**
 * RFC 3339 durations of weeks, or of days, hours, minutes and whole seconds (`P2W`, `P1DT2H`,
 * `PT90S`), of at most 2^53 − 1 milliseconds.
 */
export function durationText(): fc.Arbitrary<string> {
  const part = fc.option(units, { nil: undefined });
  return fc.oneof(
    { weight: 1, arbitrary: units.map((n) => `P${n}W`) },
    {
      weight: 4,
      arbitrary: fc.tuple(part, part, part, part).map(([d, h, m, s]) => {
        const time = (h === undefined ? '' : `${h}H`) + (m === undefined ? '' : `${m}M`) + (s === undefined ? '' : `${s}S`);
        if (d === undefined && time === '') return 'P0D';
        return `P${d === undefined ? '' : `${d}D`}${time === '' ? '' : `T${time}`}`;
      }),
    },
  );
}

/** Durations that are not: empty, years or months, fractions, signs, lower case, weeks with days, 21 digits, units out of order. */
export function malformedDuration(): fc.Arbitrary<string> {
  return fc.constantFrom('P', 'PT', 'P1Y', 'P1M', 'PT1.5S', 'p1d', 'P1W1D', 'P-1D', `P${'1'.repeat(21)}D`, '1D', 'PT1H1H', 'P1DT', 'PT1S1M', ' P1D');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The day of the week (0 for Sunday) of a calendar day of any year. */
function weekday({ y, m, d }: Day): number {
  const t = new Date(Date.UTC(2000, m - 1, d));
  t.setUTCFullYear(y);
  return t.getUTCDay();
}

const hms = ([h, m, s]: readonly [number, number, number]): string => `${pad(h)}:${pad(m)}:${pad(s)}`;
const imf = (t: Day, c: readonly [number, number, number]): string =>
  `${DAY_NAMES[weekday(t)] as string}, ${pad(t.d)} ${MONTHS[t.m - 1] as string} ${pad(t.y, 4)} ${hms(c)} GMT`;

/**
 * HTTP dates (RFC 9110 §5.6.7): mostly IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), also the
 * obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`; no 29 February, whose year its two digits
 * leave open) and asctime (`Sun Nov  6 08:49:37 1994`) forms.
 */
export function httpDateText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(day, clock).map(([t, c]) => imf(t, c)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(day, clock)
        .map(([t, c]) => `${WEEKDAYS[weekday(t)] as string}, ${pad(t.m === 2 ? Math.min(t.d, 28) : t.d)}-${MONTHS[t.m - 1] as string}-${pad(t.y % 100)} ${hms(c)} GMT`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(day, clock)
        .map(([t, c]) => `${DAY_NAMES[weekday(t)] as string} ${MONTHS[t.m - 1] as string} ${String(t.d).padStart(2, ' ')} ${hms(c)} ${pad(t.y, 4)}`),
    },
  );
}

/** HTTP dates that are not: another zone, a day past the month's end, hour 24, second 60, a lower-case month, a one-digit day, no comma, an ISO text, two year digits in IMF-fixdate. */
export function malformedHttpDate(): fc.Arbitrary<string> {
  return fc.tuple(day, clock, fc.nat(8)).map(([t, c, how]) => {
    const text = imf(t, c);
    switch (how) {
      case 0:
        return text.replace('GMT', 'UTC');
      case 1:
        return imf({ ...t, d: daysIn(t.y, t.m) + 1 }, c);
      case 2:
        return imf(t, [24, c[1], c[2]]);
      case 3:
        return imf(t, [c[0], c[1], 60]);
      case 4:
        return text.replace(MONTHS[t.m - 1] as string, (MONTHS[t.m - 1] as string).toLowerCase());
      case 5:
        return text.replace(`, ${pad(t.d)} `, `, ${(t.d % 9) + 1} `);
      case 6:
        return text.replace(',', '');
      case 7:
        return `${fullDateOf(t)}T${hms(c)}Z`;
      default:
        return text.replace(` ${pad(t.y, 4)} `, ` ${pad(t.y % 100)} `);
    }
  });
}

/** Characters edits insert: separators, letters, digits, a space, non-ASCII and astral ones. */
const PALETTE = [...Array.from('0aZg.-_:/@%#?+ ~'), '\u00e9', '\u{1F600}'];

/** One edit of `s`: a code point deleted, inserted or replaced. */
function edit(s: string): fc.Arbitrary<string> {
  const cps = Array.from(s);
  const ch = fc.constantFrom(...PALETTE);
  const at = fc.nat(Math.max(0, cps.length - 1));
  return fc.oneof(
    at.map((i) => cps.filter((_, j) => j !== i).join('')),
    fc.tuple(fc.nat(cps.length), ch).map(([i, c]) => [...cps.slice(0, i), c, ...cps.slice(i)].join('')),
    fc.tuple(at, ch).map(([i, c]) => cps.map((x, j) => (j === i ? c : x)).join('')),
  );
}

/** Near misses of the texts of `valid`: one or two edits (a code point deleted, inserted or replaced). */
export function mutations(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: valid.chain(edit) }, { weight: 1, arbitrary: valid.chain(edit).chain(edit) });
}

/** Code points below the surrogates (U+0000–U+D7FF), then the surrogates' 2 048 (U+D800–U+DFFF) are skipped. */
const BELOW_SURROGATES = 0xd800;
const SURROGATES = 0x800;

/**
 * One code point of any plane but a surrogate, as a string: the unit of fast-check's
 * `string({ unit: 'binary' })` — the same values, drawn and shrunk the same way (an index
 * from 0, U+0000 first) — whose way back from a value to its index is arithmetic. fast-check's
 * own builds a table of all 1 112 064 code points the first time a string is shrunk or its
 * slices are made, over a second of every run's start.
 */
const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < BELOW_SURROGATES ? i : i + SURROGATES),
  (value) => {
    if (typeof value !== 'string') throw new TypeError('not a string');
    const cp = value.codePointAt(0);
    if (cp === undefined || String.fromCodePoint(cp) !== value || (cp >= BELOW_SURROGATES && cp < BELOW_SURROGATES + SURROGATES)) throw new TypeError('not one code point');
    return cp < BELOW_SURROGATES ? cp : cp - SURROGATES;
  },
);

/** Strings of `lo` to `hi` code points (`hi` infinite: up to `lo + 12`), mostly printable ASCII, some of any code point. */
export function freeString(lo: number, hi: number): fc.Arbitrary<unknown> {
  const max = Number.isFinite(hi) ? hi : lo + 12;
  if (lo > max) return nothing();
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: lo, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: binaryUnit, minLength: lo, maxLength: max }) },
  );
}

/** The texts a string format accepts, and candidates to break it. */
export interface TextFormat {
  /** Texts of the format. */
  readonly valid: fc.Arbitrary<string>;
  /** Texts close to the format, most of them outside it. */
  readonly misses: fc.Arbitrary<string>;
}

/** Applies `how` to each text of `arb`. */
const each = (arb: fc.Arbitrary<string>, ...how: ((s: string) => string)[]): fc.Arbitrary<string> =>
  fc.tuple(arb, fc.constantFrom(...how)).map(([s, f]) => f(s));

const uuid = fc.mixedCase(fc.uuid());
/** Built on first use: fast-check's `webUrl` takes over a second to build (its path arbitrary), too much for every import. */
let webUrlArb: fc.Arbitrary<string> | undefined;
const webUrl = (): fc.Arbitrary<string> =>
  (webUrlArb ??= fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('HTTPS://EXAMPLE.COM', 'http://[::1]:8080/a', 'http://192.0.2.1/x?y=z#w')));
const slug = fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){0,3}$/);
const preRelease = fc.oneof(fc.nat(99).map(String), fc.stringMatching(/^[0-9]{0,2}[a-zA-Z-][0-9a-zA-Z-]{0,5}$/));
const semver = fc
  .tuple(
    fc.nat(99),
    fc.nat(99),
    fc.nat(99),
    fc.option(fc.array(preRelease, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    fc.option(fc.array(fc.stringMatching(/^[0-9a-zA-Z-]{1,6}$/), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  )
  .map(([a, b, c, pre, build]) => `${a}.${b}.${c}${pre === undefined ? '' : `-${pre.join('.')}`}${build === undefined ? '' : `+${build.join('.')}`}`);
const pathSegment = fc.stringMatching(/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}){1,8}$/);
const httpPath = fc.array(pathSegment, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`);

/** The string formats of `@lib/validate`, by constraint name: valid texts (the standard each follows) and near misses. */
const FORMATS: Readonly<Record<string, () => TextFormat>> = {
  // RFC 9562 text form: 8-4-4-4-12 hex digits, either case.
  uuid: () => ({
    valid: uuid,
    misses: fc.oneof(
      each(
        uuid,
        (u) => u.slice(0, -1),
        (u) => `${u}0`,
        (u) => u.replace(/[0-9a-f]/i, 'g'),
        (u) => u.replace('-', ''),
        (u) => `{${u}}`,
        (u) => `urn:uuid:${u}`,
        (u) => u.replaceAll('-', '_'),
      ),
    ),
  }),
  // A dot-atom local part and a dotted domain, at most 254 characters (RFC 5321 §4.5.3.1.3).
  email: () => ({
    valid: fc.emailAddress(),
    misses: fc.oneof(
      each(
        fc.emailAddress(),
        (e) => e.replace('@', ''),
        (e) => e.replace('@', '@@'),
        (e) => `.${e}`,
        (e) => `${e}.`,
        (e) => e.replace('@', ' @'),
        (e) => `${'a'.repeat(250)}${e.slice(e.indexOf('@'))}`,
      ),
      fc.constantFrom('a@b', 'a..b@c.d', '"q"@x.y', '@b.c', 'a@'),
    ),
  }),
  // RFC 3986 absolute URIs whose scheme is http or https, with an authority.
  url: () => ({
    valid: webUrl(),
    misses: fc.oneof(
      each(webUrl(), (u) => u.replace(':', ''), (u) => u.replace('//', '/'), (u) => u.replace(/^https?/i, 'ftp'), (u) => u.replace('//', '/// ')),
      fc.constantFrom('http:///x', 'http://', 'mailto:a@b.c', '//a.b', 'https//a.b'),
    ),
  }),
  // RFC 3986 absolute URIs (a scheme, then the rest).
  uri: () => ({
    valid: fc.oneof(webUrl(), fc.constantFrom('urn:isbn:0451450523', 'mailto:a@b.c', 'tag:example.com,2024:x', 'file:///etc/hosts', 'a:b')),
    misses: fc.oneof(each(webUrl(), (u) => u.replace(/^[a-z]+:/i, ''), (u) => `1${u}`, (u) => u.replace('.', ' ')), fc.constantFrom('/relative', 'a b:c', '', '//x.y')),
  }),
  // Dotted quads without leading zeros.
  ipv4: () => ({
    valid: fc.ipV4(),
    misses: fc.oneof(each(fc.ipV4(), (a) => `${a}.1`, (a) => a.slice(0, a.lastIndexOf('.')), (a) => `0${a}`, (a) => a.replace(/\d+$/, '256')), fc.constantFrom('1.2.3.04', '1.2.3.4 ')),
  }),
  // RFC 4291 §2.2 text forms, no zone index.
  ipv6: () => ({
    valid: fc.ipV6(),
    misses: fc.oneof(each(fc.ipV6(), (a) => `${a}%eth0`, (a) => `${a}:1:2:3:4:5:6:7:8`, (a) => a.replace(/[0-9a-f]/, 'g'), (a) => `[${a}]`), fc.constantFrom(':::', '12345::', '1::2::3', '1:2:3:4:5:6:7:8:9')),
  }),
  // RFC 1123 host names.
  hostname: () => ({
    valid: fc.oneof(fc.domain(), fc.domain().map((d) => `${d}.`), fc.constantFrom('localhost', 'a', 'xn--bcher-kva.example')),
    misses: fc.oneof(
      each(fc.domain(), (d) => `-${d}`, (d) => d.replace('.', '-.'), (d) => d.replace('.', '..'), (d) => d.replace('.', '_'), (d) => `${'a'.repeat(64)}.${d}`),
      fc.constantFrom('', `${'a.'.repeat(127)}b`),
    ),
  }),
  slug: () => ({ valid: slug, misses: fc.oneof(each(slug, (s) => s.toUpperCase() + 'A', (s) => `-${s}`, (s) => `${s}-`, (s) => `${s}--a`, (s) => `${s} a`, (s) => `${s}_a`), fc.constant('')) }),
  // Semantic Versioning 2.0.0.
  semver: () => ({
    valid: semver,
    misses: fc.oneof(each(semver, (v) => `v${v}`, (v) => v.replace(/^\d+\./, ''), (v) => `0${v}`, (v) => `${v}-`, (v) => `${v}+`), fc.constant('1.2.3-01')),
  }),
  // RFC 3986 path-absolute without empty segments.
  httpPath: () => ({ valid: httpPath, misses: fc.oneof(each(httpPath, (p) => p.slice(1), (p) => `${p}/`, (p) => `/${p}`, (p) => `${p}?q`, (p) => `${p}#f`, (p) => `${p}%2`, (p) => `${p} `), fc.constant('')) }),
  date: () => ({ valid: fullDateText(), misses: malformedDate() }),
  dateTime: () => ({ valid: dateTimeText(), misses: malformedDateTime() }),
  time: () => ({ valid: fullTimeText(), misses: malformedTime() }),
};

/** Texts matching `pattern`'s regular expression (a pattern fast-check cannot generate, such as one with flag `i` or a lookahead, gives none). */
function patternFormat(c: AnyConstraint): TextFormat | undefined {
  const source = param(c, 'pattern');
  const flags = param(c, 'flags');
  if (typeof source !== 'string') return undefined;
  const given = typeof flags === 'string' ? flags.replace(/[gyiu]/g, '') : '';
  // fast-check cannot read flag `i`: texts of the case-sensitive pattern, then in mixed case.
  const caseless = typeof flags === 'string' && flags.includes('i');
  let matching: fc.Arbitrary<string> | undefined;
  // As the constraint tests it: with `u` where the source allows it.
  for (const f of [`${given}u`, given]) {
    try {
      matching = fc.stringMatching(new RegExp(source, f));
      break;
    } catch {
      matching = undefined;
    }
  }
  if (matching === undefined) return undefined;
  const valid = caseless ? fc.mixedCase(matching) : matching;
  return { valid, misses: fc.string({ maxLength: 8 }) };
}

/** Texts starting with `hasPrefix`'s text prefix. */
function prefixFormat(c: AnyConstraint): TextFormat | undefined {
  const prefix = param(c, 'prefix');
  if (typeof prefix !== 'string') return undefined;
  const valid = fc.string({ maxLength: 8 }).map((s) => prefix + s);
  return { valid, misses: each(valid, (s) => s.slice(1), (s) => `x${s}`, (s) => s.toUpperCase() === s ? s.toLowerCase() : s.toUpperCase()) };
}

/**
 * The text format a string constraint declares, by its name and parameters: the `@lib/validate`
 * formats (`uuid` per RFC 9562, `email`, `url` and `uri` per RFC 3986, `ipv4`, `ipv6` per
 * RFC 4291, `hostname` per RFC 1123, `slug`, `semver` per Semantic Versioning 2.0.0, `httpPath`,
 * `date`, `dateTime` and `time` per RFC 3339 §5.6), `pattern(re)` and `hasPrefix(text)`; or
 * `undefined` for any other constraint.
 */
export function textFormat(c: AnyConstraint): TextFormat | undefined {
  if (c.name === 'pattern') return patternFormat(c);
  if (c.name === 'hasPrefix') return prefixFormat(c);
  return Object.hasOwn(FORMATS, c.name) ? (FORMATS[c.name] as () => TextFormat)() : undefined;
}
