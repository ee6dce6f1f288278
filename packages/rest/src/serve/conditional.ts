import { httpDate as httpDateCodec } from '@lib/codec';
import { requestKey, type Context } from '../declare/context.js';
import type { AnyParam } from '../declare/params.js';
import type { SuccessResponseSpec } from '../declare/success.js';
import { NotModified, type Validators } from '../declare/not-modified.js';
import { PreconditionFailedError } from '../declare/errors.js';

export { PreconditionFailedError, type Precondition } from '../declare/errors.js';

/**
 * Evaluates the request's preconditions against the current representation's validators, in
 * the order of RFC 9110 §13.2.2, for a handler to call before it does its work:
 *
 * 1. `If-Match` (strong comparison; `*` matches any current representation), else
 *    `If-Unmodified-Since`: when it fails, throws {@link PreconditionFailedError} (412).
 * 2. `If-None-Match` (weak comparison), else, for GET and HEAD, `If-Modified-Since`: when the
 *    representation is unchanged, throws a {@link NotModified} (304) for GET and HEAD, and a
 *    `PreconditionFailedError` for any other method.
 *
 * Returns when the request may proceed. Dates that do not parse are ignored, as RFC 9110 §13.1
 * requires. Outside a request served by an adapter (no request in `ctx`) it does nothing.
 * @throws {PreconditionFailedError} @throws {NotModified}
 */
export function checkPreconditions(ctx: Context, current: Validators): void {
  const req = ctx.get(requestKey);
  if (req === undefined) return;
  const safe = req.method === 'GET' || req.method === 'HEAD';
  // The validators stand for the current representation: without either, there is none.
  const exists = current.etag !== undefined || current.lastModified !== undefined;
  const ifMatch = req.header('if-match');
  if (ifMatch !== undefined) {
    if (!matches(ifMatch, current.etag, true, exists)) throw new PreconditionFailedError('If-Match');
  } else {
    const since = httpDate(req.header('if-unmodified-since'));
    if (since !== undefined && current.lastModified !== undefined && seconds(current.lastModified) > since) throw new PreconditionFailedError('If-Unmodified-Since');
  }
  if (isUnchanged(req.method, (name) => req.header(name), current, exists)) {
    if (safe) throw new NotModified(current);
    throw new PreconditionFailedError('If-None-Match', req.header('if-none-match')?.trim() === '*');
  }
}

/**
 * True when the request's `If-None-Match` matches the current `etag` (weak comparison, RFC 9110
 * §13.1.2; `*` when a representation `exists`), or, without `If-None-Match`, a GET or HEAD's
 * `If-Modified-Since` is not before the current `lastModified` (§13.1.3): the representation the
 * client holds is current.
 */
export function isUnchanged(method: string, header: (name: string) => string | undefined, current: Validators, exists: boolean): boolean {
  const ifNoneMatch = header('if-none-match');
  if (ifNoneMatch !== undefined) return matches(ifNoneMatch, current.etag, false, exists);
  const lastModified = current.lastModified;
  if ((method !== 'GET' && method !== 'HEAD') || lastModified === undefined) return false;
  const since = httpDate(header('if-modified-since'));
  return since !== undefined && seconds(lastModified) <= since;
}

/** An entity tag's parts: weak or not, and the opaque tag without quotes. */
function entityTag(tag: string): { readonly weak: boolean; readonly opaque: string } {
  const t = tag.trim();
  const weak = t.startsWith('W/');
  const rest = weak ? t.slice(2) : t;
  return { weak, opaque: rest.length >= 2 && rest.startsWith('"') && rest.endsWith('"') ? rest.slice(1, -1) : rest };
}

/**
 * True when the list `header` (`*`, or entity tags separated by commas) matches `etag`: `*`
 * matches when a representation `exists`; with `strong`, neither tag may be weak (RFC 9110
 * §8.8.3.2).
 */
function matches(header: string, etag: string | undefined, strong: boolean, exists: boolean): boolean {
  if (header.trim() === '*') return exists;
  if (etag === undefined) return false;
  const current = entityTag(etag);
  if (strong && current.weak) return false;
  for (const raw of header.split(/,(?=\s*(?:W\/)?")/)) {
    const candidate = entityTag(raw);
    if (candidate.opaque === current.opaque && !(strong && candidate.weak)) return true;
  }
  return false;
}

const HTTP_DATE = httpDateCodec();

/** Milliseconds of an HTTP date (RFC 9110 §5.6.7), or `undefined` for a missing or invalid one (ignored, §13.1.3). */
function httpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return HTTP_DATE.decode(value).getTime();
  } catch {
    return undefined;
  }
}

/** A time truncated to whole seconds: what an HTTP date can say. */
function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000) * 1000;
}

/**
 * True for a GET or HEAD route one of whose success responses declares an `ETag` or
 * `Last-Modified` header: the server answers a matching `If-None-Match` or `If-Modified-Since`
 * with 304 on its own, and the document lists the 304.
 */
export function isConditional(route: { readonly method: string; readonly params: readonly AnyParam[]; readonly successes: readonly SuccessResponseSpec[] }): boolean {
  if (route.method !== 'GET' && route.method !== 'HEAD') return false;
  const validator = (p: AnyParam): boolean => p.kind === 'responseHeader' && (p.name.toLowerCase() === 'etag' || p.name.toLowerCase() === 'last-modified');
  return route.params.some(validator) || route.successes.some((sr) => sr.params?.some(validator) === true);
}
