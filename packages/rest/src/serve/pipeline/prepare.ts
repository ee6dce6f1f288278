import { mediaTypeOf, type Format } from '@lib/format';
import { traced, type TraceStart } from '../../declare/options.js';
import { NotModified } from '../../declare/not-modified.js';
import { Redirect } from '../../declare/redirect.js';
import { admitsNoBody, BODY_METHODS, type RouteHandle } from '../../declare/route.js';
import { registrySettings, type ServingSettings } from '../settings.js';
import { routeHeaders } from './encoding.js';
import { compileErrorMapping } from './error-mapping.js';
import type { PipelineRequest, PipelineResponse, PreparedRoute } from './exchange.js';
import { prepareMiddleware, type PreparedMiddleware } from './middleware.js';
import { observeSafely } from './observe.js';
import { inCheckOrder } from './parameters.js';
import { prepareSecurity, type PreparedSecurity } from './security.js';
import { Exchange, isThenable, type RoutePlan, type Step } from './stage.js';
import { PIPELINE_STAGES } from './stages.js';

export { builtinStatus, defaultErrorHandler, errorEnvelopeResponse, RequestRefusedError } from './error-mapping.js';
export { prepareFallback } from './fallback.js';

/**
 * Prepares a registered route for serving. What its declaration must get right — a handler,
 * registered security schemes and a `securityFunc` for them, a server function for every
 * middleware — is resolved now, so that a wrong declaration fails `api.serve()`; the pipeline
 * itself is compiled at the route's first request, so that a server of many routes is ready
 * without compiling those nobody calls yet. `settings` are the builder's (`api.servingSettings()`);
 * without them, those of the route's registry, with no base path.
 * @throws {RouteDeclarationError} as {@link prepareSecurity} and {@link prepareMiddleware}.
 */
export function prepareRoute(handle: RouteHandle<unknown, unknown>, settings: ServingSettings = registrySettings(handle.server)): PreparedRoute {
  const route = handle.route;
  if (route.handler === undefined) throw new Error(`${route.id} has no handler`);
  const middleware = prepareMiddleware(handle, handle.options.observer);
  const security = prepareSecurity(route.id, route.meta.security ?? settings.globalSecurity, settings.securitySchemes, handle.options.securityFunc);
  let run: ((req: PipelineRequest) => Promise<PipelineResponse>) | undefined;
  return { method: route.method, path: settings.basePath + route.path, handle, run: (req) => (run ??= compilePipeline(routePlan(handle, settings, security, middleware)))(req) };
}

/** What every stage of a route reads when it is compiled (`prepareRoute` resolves `security` and `middleware` first). */
export function routePlan(handle: RouteHandle<unknown, unknown>, settings: ServingSettings, security: PreparedSecurity | undefined, middleware: PreparedMiddleware | undefined): RoutePlan {
  const route = handle.route;
  const requestFormats = new Map<string, Format<unknown>>();
  for (const f of handle.requestFormats) requestFormats.set(mediaTypeOf(f.contentType), f);
  return {
    handle,
    route,
    options: handle.options,
    observer: handle.options.observer,
    settings,
    security,
    middleware,
    hasBody: BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty',
    bodyOptional: BODY_METHODS.has(route.method) && admitsNoBody(route.reqCodec),
    respEmpty: route.respCodec.kind === 'empty',
    requestFormats,
    params: inCheckOrder(handle.requestParams),
  };
}

/**
 * Compiles a route's pipeline: the stages of {@link PIPELINE_STAGES} the route needs, in that
 * order; whatever one throws goes through the route's error mapping; the headers of every answer
 * (middleware, `Vary`, CORS) are added; the observer hears of the response and, with a tracer,
 * the request is one span.
 */
function compilePipeline(plan: RoutePlan): (req: PipelineRequest) => Promise<PipelineResponse> {
  const steps: Step[] = [];
  for (const stage of PIPELINE_STAGES) {
    const step = stage.compile?.(plan);
    if (step !== undefined) steps.push(step);
  }
  const mapError = compileErrorMapping(plan);
  const addRouteHeaders = routeHeaders(plan);
  const { route, observer } = plan;
  const firstFormat = plan.handle.responseFormats[0] as Format<unknown>;

  async function runRoute(req: PipelineRequest, outcome?: { failure?: unknown }): Promise<PipelineResponse> {
    const started = observer?.onResponse === undefined ? 0 : performance.now();
    const ex = new Exchange(req, firstFormat);
    let res: PipelineResponse;
    let failure: unknown;
    try {
      for (const step of steps) {
        let out = step.run(ex);
        // A stage that finished at once costs no turn of the event loop.
        if (isThenable(out)) out = await out;
        step.keep?.(ex, out);
      }
      res = ex.response as PipelineResponse;
    } catch (err) {
      if (!(err instanceof Redirect) && !(err instanceof NotModified)) failure = err;
      const answered = mapError(ex.ctx, err, ex.negotiated);
      res = isThenable(answered) ? await answered : answered;
    }
    addRouteHeaders(req, res, ex.mwHeaders);
    if (observer?.onResponse !== undefined) {
      const status = res.status;
      observeSafely(() => observer.onResponse?.({ route: route.id, status, durationMs: performance.now() - started, ...(failure !== undefined && { error: failure }) }));
    }
    if (outcome !== undefined) outcome.failure = failure;
    return res;
  }

  const trace = observer?.trace;
  if (trace === undefined) return runRoute;
  return (req) => {
    const outcome: { failure?: unknown } = {};
    const start: TraceStart = { kind: 'server', route: route.id, method: route.method, path: route.path, header: (name) => req.header(name.toLowerCase()), setHeader: () => undefined };
    return traced(
      observer,
      start,
      () => runRoute(req, outcome),
      (res) => ({ status: res.status, ...(outcome.failure !== undefined && { error: outcome.failure }) }),
      (err) => ({ status: 500, error: err }),
    );
  };
}
