import {
  BodyTooLargeError,
  MethodNotAllowedError,
  MiddlewareError,
  MiddlewareInputError,
  NoRouteError,
  NotAcceptableError,
  ParamError,
  PreconditionFailedError,
  RequestBodyError,
  RequestValidationError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../../declare/errors.js';
import { PipelineNoResponseError } from '../../declare/http-errors.js';
import { pipelineErrorOf, type PipelineError } from '../../declare/pipeline-errors.js';
import { compileBody } from './body.js';
import { compileBodyLimit } from './body-limit.js';
import { compileEncoding } from './encoding.js';
import { compileHandler } from './handler.js';
import { compileMediaType } from './media-type.js';
import { compileNegotiation } from './negotiation.js';
import { compileParameters } from './parameters.js';
import type { Exchange, RoutePlan, Step } from './stage.js';

/** The name of a stage of the server pipeline. */
export type StageName = 'routing' | 'negotiation' | 'media-type' | 'credentials' | 'body-limit' | 'parameters' | 'body' | 'middleware' | 'handler' | 'encoding';

/** One stage of the server pipeline: what it refuses, and how a route's pipeline gets it. */
export interface PipelineStage {
  readonly name: StageName;
  /**
   * The pipeline's own errors it may raise, as entries of `PIPELINE_ERRORS` (class, status and
   * words). Error rules may map them to another status.
   */
  readonly refuses: readonly PipelineError[];
  /**
   * Compiles the stage for one route, once: `undefined` for a route that does not need it, so
   * that a request pays for none of its checks. Absent for `routing`, which the adapter does
   * before a route is chosen (`prepareFallback`).
   */
  readonly compile?: (plan: RoutePlan) => Step | undefined;
}

/** The credentials stage (401) of a route that needs credentials; `undefined` for one that needs none. */
function compileCredentials(plan: RoutePlan): Step | undefined {
  const security = plan.security;
  if (security === undefined) return undefined;
  return { run: (ex: Exchange) => security.check(ex.ctx, ex.req) };
}

/**
 * The middleware stage (400 for their input or a refusal, 500 for their output) of a route that
 * runs any: the builder's, then the route's. The header lines of each that ran go out with
 * whatever answer is sent.
 */
function compileMiddleware(plan: RoutePlan): Step | undefined {
  const middleware = plan.middleware;
  if (middleware === undefined) return undefined;
  return { run: (ex: Exchange) => middleware.run(ex.ctx, ex.req, ex.value, (ex.mwHeaders = [])) };
}

/**
 * The stages of the server pipeline, in the order a request meets them. The pipeline composes a
 * route's from this list; the document lists the refusals of those a route can give
 * (`describeRoute`); `@lib/testing` reads the statuses a request may get. Every error on the way
 * goes through the route's error mapping (its rules, then the `errorHandler`).
 */
export const PIPELINE_STAGES: readonly PipelineStage[] = [
  // 404 and 405: no route takes the request (the adapter's router decides).
  { name: 'routing', refuses: [pipelineErrorOf(NoRouteError), pipelineErrorOf(MethodNotAllowedError)] },
  // 406: no response format matches Accept.
  { name: 'negotiation', refuses: [pipelineErrorOf(NotAcceptableError)], compile: compileNegotiation },
  // 415: no request format has the body's Content-Type.
  { name: 'media-type', refuses: [pipelineErrorOf(UnsupportedMediaTypeError)], compile: compileMediaType },
  // 401: credentials missing or refused; checked before the body is read.
  { name: 'credentials', refuses: [pipelineErrorOf(UnauthorizedError)], compile: compileCredentials },
  // 413: the body is read up to its limit.
  { name: 'body-limit', refuses: [pipelineErrorOf(BodyTooLargeError)], compile: compileBodyLimit },
  // 400: query, cookie, header and path parameters decoded; failures kept for the body stage.
  { name: 'parameters', refuses: [pipelineErrorOf(ParamError)], compile: compileParameters },
  // 400: the body decoded; one RequestValidationError names every failure, then the parameters are merged.
  { name: 'body', refuses: [pipelineErrorOf(RequestBodyError), pipelineErrorOf(RequestValidationError)], compile: compileBody },
  // 400: a middleware's input, or the middleware itself, refused the request.
  { name: 'middleware', refuses: [pipelineErrorOf(MiddlewareInputError), pipelineErrorOf(MiddlewareError)], compile: compileMiddleware },
  // 412: a handler's checkPreconditions; a redirect or a 304 it asks for are answers, not refusals.
  { name: 'handler', refuses: [pipelineErrorOf(PreconditionFailedError)], compile: compileHandler },
  // 503: the handler returned no value where the response admits none (a broken contract is 500).
  { name: 'encoding', refuses: [pipelineErrorOf(PipelineNoResponseError)], compile: compileEncoding },
];

/** The stage named `name`. */
export function pipelineStage(name: StageName): PipelineStage {
  return PIPELINE_STAGES.find((s) => s.name === name) as PipelineStage;
}
