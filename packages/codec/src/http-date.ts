import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/** IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** The obsolete forms a recipient must also accept (RFC 9110 §5.6.7): RFC 850 and asctime. */
const OBSOLETE = /^(?:(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Codec of an HTTP date (RFC 9110 §5.6.7), for headers such as `Last-Modified`, `Expires` or
 * `Retry-After`: decoded as a `Date`, written as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37
 * GMT`, whole seconds, UTC). Decoding also accepts the obsolete RFC 850 and asctime forms, as
 * the RFC requires of recipients. Schema `{ type: 'string' }` (JSON Schema has no format for it).
 * Encoding checks that the value is a valid `Date`.
 */
export class HttpDateCodec extends Codec<Date> {
  readonly kind = 'httpDate';
  protected parse(input: unknown, ctx: DecodeContext): Date | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected an HTTP date string, got ${describeType(input)}`, 'type', input);
    // asctime has no zone: it is GMT, as every HTTP date is.
    const t = IMF_FIXDATE.test(input) ? Date.parse(input) : OBSOLETE.test(input) ? Date.parse(input.endsWith('GMT') ? input : `${input} GMT`) : NaN;
    if (Number.isNaN(t)) return ctx.addIssue('expected an HTTP date such as "Sun, 06 Nov 1994 08:49:37 GMT"', 'format', input);
    return new Date(t);
  }
  protected serialize(value: Date): unknown {
    const v: unknown = value;
    if (!(v instanceof Date) || Number.isNaN(v.getTime())) throw mismatch('a valid Date', v);
    return v.toUTCString();
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string' };
  }
}

/** An HTTP-date codec (RFC 9110 §5.6.7): `Date` ↔ `Sun, 06 Nov 1994 08:49:37 GMT`. */
// @__NO_SIDE_EFFECTS__
export function httpDate(): HttpDateCodec {
  return new HttpDateCodec();
}
