import { mediaTypeOf } from '@lib/format';

/** No lone surrogate: text that UTF-8 and percent-encoding can carry. */
export function wellFormed(s: string): boolean {
  return !/\p{Surrogate}/u.test(s);
}

/**
 * A field value (RFC 9110 §5.5) as this kit sends and answers it: visible ASCII and spaces, no
 * leading or trailing space (stricter than the RFC, which also allows tabs and obs-text).
 */
export const FIELD_VALUE: RegExp = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/** JSON media types (RFC 8259; `+json` structured syntax suffix, RFC 6839 §3.1), parameters ignored. */
export function isJsonMediaType(mediaType: string): boolean {
  const m = mediaTypeOf(mediaType);
  return m === 'application/json' || m.endsWith('+json');
}
