/**
 * The oracle of the schema test suites: Ajv in JSON Schema 2020-12 mode, strict, with the formats
 * a document of ours may carry, each checked as its standard defines it — written here from the
 * standards, never taken from the library under test.
 *
 * - Integer formats of the OpenAPI Format Registry (`int8` … `int64`, `uint8` … `uint64`,
 *   `double-int`): a number without a fraction in the format's range. A schema carrying one of
 *   these needs no `minimum`/`maximum` to be exact.
 * - `uuid` (RFC 9562 §4): `8-4-4-4-12` hexadecimal digits in either case. ajv-formats also
 *   accepts a `urn:uuid:` prefix, which is a URN, not the UUID string form.
 * - `date-time` and `time` (RFC 3339 §5.6): the ABNF exactly (`T`/`Z` in either case, numeric
 *   offsets `±hh:mm`), then ajv-formats for calendar days and the leap-second rule. ajv-formats
 *   alone also accepts a space for `T` and offsets like `+01` or `+0100`.
 * - Every other format: ajv-formats, "full" mode.
 *
 * Options: `strict` (an unknown keyword or format is an error, so schemas must be standard),
 * `ownProperties` (JSON objects have no prototype; without it Ajv's `required` counts an inherited
 * `constructor` as present), and `discriminator` as an annotation (Ajv's own implementation
 * rejects `mapping`; every branch of ours pins its tag with `const` anyway).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

type Check = (s: string) => boolean;

/** The inclusive ranges of the Format Registry's integer formats. */
export const INTEGER_FORMATS: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  'double-int': [-(2n ** 53n - 1n), 2n ** 53n - 1n],
};

/** True when `n` is an integer in `[lo, hi]`, compared exactly (no rounding through doubles). */
function inRange(n: number, [lo, hi]: readonly [bigint, bigint]): boolean {
  if (!Number.isInteger(n)) return false;
  const b = BigInt(n);
  return b >= lo && b <= hi;
}

// RFC 3339 §5.6, ABNF transcribed: time-hour 00-23, time-minute 00-59, time-second 00-60,
// time-secfrac = "." 1*DIGIT, time-numoffset = ("+" / "-") time-hour ":" time-minute,
// date-month 01-12, date-mday 01-31 (the calendar and leap-second rules of §5.7 are
// ajv-formats'); "T" and "Z" may be lower case (§5.6, NOTE).
const HOUR = '(?:[01]\\d|2[0-3])';
const MINUTE = '[0-5]\\d';
const PARTIAL_TIME = `${HOUR}:${MINUTE}:(?:[0-5]\\d|60)(?:\\.\\d+)?`;
const OFFSET = `(?:[Zz]|[+-]${HOUR}:${MINUTE})`;
const FULL_DATE = '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const RFC3339_FULL_TIME = new RegExp(`^${PARTIAL_TIME}${OFFSET}$`);
const RFC3339_DATE_TIME = new RegExp(`^${FULL_DATE}[Tt]${PARTIAL_TIME}${OFFSET}$`);
const RFC9562_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ajvCheck(name: 'date-time' | 'time'): Check {
  const f = fullFormats[name] as { validate: Check };
  return (s) => f.validate(s);
}
const ajvDateTime = ajvCheck('date-time');
const ajvTime = ajvCheck('time');

/** The string formats the oracle checks by the standard rather than by ajv-formats alone. */
export const STRING_FORMATS: Readonly<Record<string, Check>> = {
  uuid: (s) => RFC9562_UUID.test(s),
  'date-time': (s) => RFC3339_DATE_TIME.test(s) && ajvDateTime(s),
  time: (s) => RFC3339_FULL_TIME.test(s) && ajvTime(s),
};

/** Options of {@link makeAjv}. */
export interface OracleOptions {
  /** Report every error, not only the first (Ajv's `allErrors`). Default false. */
  readonly allErrors?: boolean;
}

/** A fresh oracle instance (see the module comment for what it checks). */
export function makeAjv(options: OracleOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictTypes: true, ownProperties: true, allErrors: options.allErrors ?? false, logger: false });
  addFormats(ajv);
  for (const [name, range] of Object.entries(INTEGER_FORMATS)) {
    ajv.addFormat(name, { type: 'number', validate: (n: number) => inRange(n, range) });
  }
  for (const [name, check] of Object.entries(STRING_FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
}

const shared = makeAjv();

/** A validator of `schema`, compiled by a shared oracle instance. */
export function compile(schema: object): (value: unknown) => boolean {
  const v = shared.compile(schema);
  return (value) => v(value) === true;
}
