import type { Codec } from '@lib/codec';
import type { Context } from '../declare/context.js';
import { setCookieHeader } from './cookies.js';
import { CookieParamError } from '../declare/errors.js';
import type { CookieAttributes } from '../declare/params.js';
import { responseHeadersKey } from '../declare/context.js';

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

/** Something that takes header lines: a `Headers`. */
export interface HeaderSink {
  append(name: string, value: string): unknown;
}

/** A response that takes header lines before it is sent: a node:http `ServerResponse` (Node ≥ 18.3). */
export interface ResponseHeaderSink {
  appendHeader(name: string, value: string): unknown;
}

/**
 * Appends a `Set-Cookie` line (RFC 6265 §4.1) with the library's defaults (`Path=/; Secure;
 * HttpOnly; SameSite=Strict`, a session cookie); `maxAge` in seconds. `target` is a `Headers`
 * (`responseHeadersFromContext(ctx)`) or a node:http `ServerResponse` whose head has not been
 * sent: the line is added beside the cookies already set, never in place of them.
 * @throws {CookieParamError} when `options.codec` rejects the value.
 * @throws {TypeError} when `target` is neither (or a response whose head is sent: node:http's own error).
 */
export function setCookie(target: HeaderSink | ResponseHeaderSink | Headers, name: string, value: string, options: CookieOptions = {}): void {
  if (options.codec !== undefined) {
    try {
      options.codec.decode(value);
    } catch (err) {
      throw new CookieParamError(name, value, err);
    }
  }
  const { codec: _codec, ...attributes } = options;
  const line = setCookieHeader(name, value, attributes);
  if (typeof (target as Partial<ResponseHeaderSink>).appendHeader === 'function') (target as ResponseHeaderSink).appendHeader('set-cookie', line);
  else if (typeof (target as Partial<HeaderSink>).append === 'function') (target as HeaderSink).append('set-cookie', line);
  else throw new TypeError('setCookie: the target must be a Headers or a node:http ServerResponse');
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
