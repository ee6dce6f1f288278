import { setCookieHeader } from '../cookies.js';
import { CookieParamError, HeaderParamError, ResponseContractError } from '../../declare/errors.js';
import { isFieldValue } from '../../declare/http-grammar.js';
import type { ResponseMergeParam } from '../../declare/params.js';

const INVALID_FIELD_VALUE = 'is not a valid HTTP field value (RFC 9110 §5.5): control characters, CR, LF and characters above U+00FF are not allowed';

/**
 * Encodes response merge fields of `value` (a route's response or error payload, or a
 * middleware's output) into header lines: each getter's value must pass its codec (encode, then
 * decode again), the line must be a valid field value (RFC 9110 §5.5), and a cookie gets its
 * attributes (defaults `Path=/; Secure; HttpOnly; SameSite=Strict`) — an attribute the cookie
 * grammar refuses (RFC 6265 §4.1.1) is a failure too. A required field must be present, unless
 * `lenient` (an error payload fills the fields it has: a field it lacks, or whose getter throws
 * on it, is left out).
 * @throws {HeaderParamError} @throws {CookieParamError} naming the field that failed.
 */
export function encodeResponseFields(params: readonly ResponseMergeParam<unknown, unknown>[], value: unknown, lenient: boolean): [string, string][] {
  const lines: [string, string][] = [];
  for (const m of params) {
    const ErrorClass = m.kind === 'responseHeader' ? HeaderParamError : CookieParamError;
    let v: unknown;
    try {
      v = m.get(value);
    } catch (err) {
      if (lenient) continue;
      throw new ErrorClass(m.name, undefined, err);
    }
    if (v === undefined) {
      if (m.required && !lenient) throw new ErrorClass(m.name, undefined, new Error('is required'));
      continue;
    }
    let wire: string;
    try {
      const w = m.codec.encode(v);
      m.codec.decode(w);
      wire = typeof w === 'string' ? w : String(w);
    } catch (err) {
      throw new ErrorClass(m.name, undefined, err);
    }
    let line = wire;
    if (m.kind === 'responseCookie') {
      try {
        line = setCookieHeader(m.name, wire, m.attributes?.(value));
      } catch (err) {
        throw new CookieParamError(m.name, wire, err);
      }
    }
    if (!isFieldValue(line)) throw new ErrorClass(m.name, line, new Error(INVALID_FIELD_VALUE));
    lines.push(m.kind === 'responseHeader' ? [m.name.toLowerCase(), line] : ['set-cookie', line]);
  }
  return lines;
}

/**
 * Appends the response merge fields of `value` to `headers` (see {@link encodeResponseFields}):
 * for a success response a required field that is absent is a contract violation; for an error
 * payload (`lenient`) a field the payload lacks, or whose getter throws on it, is left out.
 * @throws {ResponseContractError} a value that fails its codec or is not a valid field value.
 */
export function encodeMergeFields(params: readonly ResponseMergeParam<unknown, unknown>[], value: unknown, headers: [string, string][], lenient: boolean): void {
  if (params.length === 0) return;
  try {
    headers.push(...encodeResponseFields(params, value, lenient));
  } catch (err) {
    throw new ResponseContractError(err);
  }
}
