import { stringifySetCookie } from 'cookie';
import type { CookieAttributes } from '../declare/params.js';

/**
 * A `Set-Cookie` value (RFC 6265 §4.1) with the library's defaults: `Path=/; Secure;
 * HttpOnly; SameSite=Strict`, session cookie. `insecure: true` drops `Secure`. The value is
 * percent-encoded where RFC 6265 does not allow it raw.
 */
export function setCookieHeader(name: string, value: string, attributes: CookieAttributes = {}): string {
  return stringifySetCookie(name, value, {
    path: attributes.path ?? '/',
    secure: attributes.insecure === true ? false : (attributes.secure ?? true),
    httpOnly: attributes.httpOnly ?? true,
    sameSite: attributes.sameSite ?? 'strict',
    ...(attributes.maxAge !== undefined && { maxAge: Math.trunc(attributes.maxAge) }),
    ...(attributes.domain !== undefined && { domain: attributes.domain }),
  });
}
