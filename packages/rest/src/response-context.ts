import type { Codec } from '@lib/codec';
import type { Context } from './context.js';
import { setCookieHeader } from './cookies.js';
import { CookieParamError } from './errors.js';
import type { CookieAttributes } from './params.js';
import { responseHeadersKey } from './context.js';

/**
 * The headers the response will carry, for a handler to add to; `undefined` outside a request served by an HTTP adapter.
 */
export function responseHeadersFromContext(ctx: Context): Headers | undefined {
  return ctx.get(responseHeadersKey);
}

/** Options of {@link setCookie}. */
export interface CookieOptions extends CookieAttributes {
  /** Validates the value before it is written. */
  readonly codec?: Codec<string>;
}

/** Something that takes header lines: `Headers` or a node:http `ServerResponse`. */
export interface HeaderSink {
  append(name: string, value: string): unknown;
}

/**
 * Appends a `Set-Cookie` line (RFC 6265 §4.1) with the library's defaults (`Path=/; Secure;
 * HttpOnly; SameSite=Strict`, a session cookie); `maxAge` in seconds.
 * @throws {CookieParamError} when `options.codec` rejects the value.
 */
export function setCookie(target: HeaderSink | Headers, name: string, value: string, options: CookieOptions = {}): void {
  if (options.codec !== undefined) {
    try {
      options.codec.decode(value);
    } catch (err) {
      throw new CookieParamError(name, value, err);
    }
  }
  const { codec: _codec, ...attributes } = options;
  target.append('set-cookie', setCookieHeader(name, value, attributes));
}

/** A cookie for {@link withResponseCookies}. */
export interface ResponseCookie {
  readonly name: string;
  readonly value: string;
  readonly attributes?: CookieAttributes;
}

/**
 * Adds cookies to the current response.
 * @throws {Error} outside a request served by an HTTP adapter.
 */
export function withResponseCookies(ctx: Context, ...cookies: ResponseCookie[]): void {
  const headers = responseHeadersFromContext(ctx);
  if (headers === undefined) throw new Error('withResponseCookies: no HTTP response in this context');
  for (const c of cookies) headers.append('set-cookie', setCookieHeader(c.name, c.value, c.attributes));
}
