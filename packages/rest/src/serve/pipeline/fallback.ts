import { Context, nativeRequestKey } from '../../declare/context.js';
import type { CorsPolicy } from '../../declare/cors.js';
import { ErrorPattern, type ErrorRule } from '../../declare/error-rules.js';
import { MethodNotAllowedError, NoRouteError } from '../../declare/errors.js';
import type { Options } from '../../declare/options.js';
import { matchErrorRule } from '../../declare/route.js';
import { defaultErrorHandler, errorResponse, JSON_TYPE, RequestRefusedError, typedErrorResponse } from './error-mapping.js';
import type { FallbackRequest, FallbackResponses, PipelineResponse } from './exchange.js';
import { observeSafely } from './observe.js';
import { NEVER_ABORTED } from './request-context.js';

/**
 * The routing stage, the adapter's: builds its answers to requests no route takes (404, 405, a
 * CORS preflight, a request refused before routing) from the builder's default options
 * (`withDefaultOptions`), CORS policy and error rules (`rest.withErrors`). Never throws.
 */
export function prepareFallback(options: Options, cors?: CorsPolicy, rules: readonly ErrorRule[] = []): FallbackResponses {
  const errorHandler = options.errorHandler ?? defaultErrorHandler;
  const observer = options.observer;
  const mediaType = options.errorMediaType ?? JSON_TYPE;
  const answer = (req: FallbackRequest, err: Error, builtin: number, extra: readonly (readonly [string, string])[]): PipelineResponse => {
    const started = observer?.onResponse === undefined ? 0 : performance.now();
    const ctx = new Context(NEVER_ABORTED);
    ctx.set(nativeRequestKey, req.native);
    const m = matchErrorRule(rules, err);
    const status = m?.rule.status ?? builtin;
    const res = m !== undefined && m.rule instanceof ErrorPattern && m.rule.action === 'respond' ? typedErrorResponse(m.rule, m.value, m.rule.body === options.errorBody ? mediaType : JSON_TYPE) : errorResponse(errorHandler, ctx, err, status, mediaType);
    const out = { ...res, headers: [...res.headers, ...extra, ...(cors?.responseHeaders(req.header?.('origin'), []) ?? [])] };
    observeSafely(() => observer?.onResponse?.({ route: `${req.method} ${req.path}`, status: out.status, durationMs: performance.now() - started, error: err }));
    return out;
  };
  const fallback: FallbackResponses = {
    notFound: (req) => answer(req, new NoRouteError(req.path), 404, []),
    methodNotAllowed: (req, allow) => answer(req, new MethodNotAllowedError(req.method, allow), 405, [['allow', allow.join(', ')]]),
    refused: (req, message, status) => answer(req, new RequestRefusedError(message, status), status, []),
    preflight: (req, allow) => {
      const headers = cors?.preflight((name) => req.header?.(name), allow);
      return headers === undefined ? undefined : { status: 204, headers, body: undefined };
    },
    unrouted: (req, methods) => {
      const allow = [...new Set(methods)];
      if (allow.length === 0) return fallback.notFound(req);
      if (allow.includes('GET') && !allow.includes('HEAD')) allow.push('HEAD');
      allow.sort();
      return (req.method === 'OPTIONS' ? fallback.preflight(req, allow) : undefined) ?? fallback.methodNotAllowed(req, allow);
    },
  };
  return fallback;
}
