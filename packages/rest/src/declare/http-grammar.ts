/**
 * HTTP field grammar (RFC 9110 §5.5, §5.6.2) and cookie grammar (RFC 6265 §4.1.1), checked
 * before anything reaches the wire, so that no value a handler or a client produced can split
 * a response or make a transport throw.
 */

/**
 * RFC 9110 §5.5 `field-value`: visible ASCII, obs-text (0x80–0xFF), and spaces or tabs between
 * them; no leading or trailing whitespace, no CR, LF, NUL or other control characters, nothing
 * above U+00FF. The empty string is a valid (empty) field value.
 */
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** RFC 9110 §5.6.2 `token`: the grammar of field names and methods. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `value` may be sent as an HTTP field value (RFC 9110 §5.5). */
export function isFieldValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/** True when `name` is an RFC 9110 token: a valid header field name or cookie name (RFC 6265 §4.1.1). */
export function isToken(name: string): boolean {
  return TOKEN.test(name);
}
