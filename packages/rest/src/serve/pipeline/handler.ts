import type { Context } from '../../declare/context.js';
import { NotModified, type Validators } from '../../declare/not-modified.js';
import { Redirect } from '../../declare/redirect.js';
import { Answer, type DeclaredSuccess, type Responder } from '../../declare/success.js';
import type { PipelineResponse, ResponseBody } from './exchange.js';
import type { Exchange, RoutePlan, Step } from './stage.js';

/** The `respond` every handler receives: the compiler checks its status against the route's. */
const respondWith = ((status: number, value?: unknown) => new Answer(status, value)) as Responder<DeclaredSuccess>;

type Handler = (ctx: Context, req: unknown, respond: typeof respondWith) => unknown;

/**
 * The handler stage: calls the route's handler with the context and the request value. A
 * synchronous handler's value is used as it is, with no extra turn of the event loop; a
 * redirect or a 304 it returns is answered as one it throws (412 comes from a handler's
 * `rest.checkPreconditions`).
 */
export function compileHandler(plan: RoutePlan): Step {
  const handler = plan.route.handler as Handler;
  return {
    run: (ex: Exchange) => handler(ex.ctx, ex.value, respondWith),
    keep(ex: Exchange, out: unknown): void {
      if (out instanceof Redirect || out instanceof NotModified) throw out;
      ex.answer = out;
    },
  };
}

/**
 * The answer to a redirect a handler returned or threw (`rest.redirect`): its status and
 * `Location` — a same-origin path gets the builder's base path in front, since a route's path is
 * relative to the API's root — and the headers the handler set.
 */
export function redirectResponse(r: Redirect, basePath: string, set: Headers | undefined): PipelineResponse {
  const sameOrigin = r.location.startsWith('/') && !r.location.startsWith('//');
  const headers: [string, string][] = [['location', sameOrigin ? basePath + r.location : r.location]];
  set?.forEach((v, k) => headers.push([k, v]));
  return { status: r.status, headers, body: undefined };
}

/** The answer to a handler's or `checkPreconditions`' 304: the validators it names, and the cache headers the handler set. */
export function notModifiedAnswer(n: NotModified, set: Headers | undefined): Promise<PipelineResponse> {
  const headers: [string, string][] = [];
  if (n.etag !== undefined) headers.push(['etag', n.etag]);
  if (n.lastModified !== undefined) headers.push(['last-modified', n.lastModified.toUTCString()]);
  set?.forEach((v, k) => headers.push([k, v]));
  return notModifiedResponse(headers, undefined);
}

/** The headers a 304 keeps of the response it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS: ReadonlySet<string> = new Set(['etag', 'last-modified', 'cache-control', 'expires', 'content-location', 'vary', 'date']);

/**
 * A 304 Not Modified for a response with `headers` (RFC 9110 §15.4.5): no body, and only the
 * headers a cache needs. A streamed body already started is ended.
 */
export async function notModifiedResponse(headers: readonly (readonly [string, string])[], body: ResponseBody): Promise<PipelineResponse> {
  if (typeof body === 'object' && !(body instanceof Uint8Array)) {
    try {
      await body[Symbol.asyncIterator]().return?.();
    } catch {
      // The producer's cleanup failed: nothing is left to tell.
    }
  }
  return { status: 304, headers: headers.filter(([k]) => NOT_MODIFIED_HEADERS.has(k.toLowerCase())), body: undefined };
}

/** The `ETag` and `Last-Modified` of a response's header lines. */
export function validatorsOf(headers: readonly (readonly [string, string])[]): Validators {
  let etag: string | undefined;
  let lastModified: Date | undefined;
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    if (name === 'etag') etag = v;
    else if (name === 'last-modified') {
      const t = Date.parse(v);
      if (!Number.isNaN(t)) lastModified = new Date(t);
    }
  }
  return { etag, lastModified };
}
