/**
 * What a stage of the pipeline is: compiled once per route from the route's {@link RoutePlan},
 * then run for each request on its {@link Exchange}.
 */
import type { Format } from '@lib/format';
import type { Observer, Options } from '../../declare/options.js';
import type { RequestParamSpec } from '../../declare/param-values.js';
import type { Route, RouteHandle } from '../../declare/route.js';
import type { ServingSettings } from '../settings.js';
import type { PipelineRequest, PipelineResponse } from './exchange.js';
import type { PreparedMiddleware } from './middleware.js';
import { RequestContext } from './request-context.js';
import type { PreparedSecurity } from './security.js';

/** What every stage of one route reads when it is compiled: the route, its effective options, and what `prepareRoute` resolved. */
export interface RoutePlan {
  readonly handle: RouteHandle<unknown, unknown>;
  readonly route: Route<unknown, unknown>;
  /** The effective options: the builder's defaults under the route's own. */
  readonly options: Options;
  readonly observer: Observer | undefined;
  readonly settings: ServingSettings;
  /** The route's credentials check; `undefined` when it needs none. */
  readonly security: PreparedSecurity | undefined;
  /** The middleware the server runs for the route; `undefined` when none. */
  readonly middleware: PreparedMiddleware | undefined;
  /** True when the route reads a request body (a body method with a non-empty codec). */
  readonly hasBody: boolean;
  /** True when that body may be absent (`admitsNoBody`: `requestBody.required: false`). */
  readonly bodyOptional: boolean;
  /** True when the main response has no content. */
  readonly respEmpty: boolean;
  /** The request formats, by media type (lower case, without parameters). */
  readonly requestFormats: ReadonlyMap<string, Format<unknown>>;
  /** The request parameters in the order they are checked: query, cookie, header, path. */
  readonly params: readonly RequestParamSpec[];
}

/** A body a streamed format read: its value, or the refusal kept for the 400 that names every failure. */
export type StreamedBody = { readonly value: unknown } | { readonly error: unknown };

/** One request on its way through a route's stages: what each stage found, for those after it. */
export class Exchange {
  readonly req: PipelineRequest;
  readonly ctx: RequestContext;
  /** The format the success response is written in: the negotiated one, else the route's first. */
  respFormat: Format<unknown>;
  /** The format `Accept` chose, for error bodies; `undefined` until negotiated, and on a route without a response body. */
  negotiated: Format<unknown> | undefined = undefined;
  /** The request's `Content-Type` (`''` when absent), on a route with a body. */
  contentType = '';
  /** The request format `Content-Type` names. */
  reqFormat: Format<unknown> | undefined = undefined;
  /** The body read up to its limit: bytes, or what a streamed format made of it. */
  body: Uint8Array | StreamedBody | undefined = undefined;
  /** The decoded parameters, by position in the plan's `params`. */
  decoded: unknown[] | undefined = undefined;
  /** The validation failures found so far, each reported; one 400 names them all. */
  invalid: Error[] | undefined = undefined;
  /** The request value the handler receives. */
  value: unknown = undefined;
  /** The header lines of the middleware that ran, sent with whatever answer goes out. */
  mwHeaders: [string, string][] | undefined = undefined;
  /** What the handler returned. */
  answer: unknown = undefined;
  /** The success response. */
  response: PipelineResponse | undefined = undefined;

  constructor(req: PipelineRequest, respFormat: Format<unknown>) {
    this.req = req;
    this.ctx = new RequestContext(req);
    this.respFormat = respFormat;
  }
}

/**
 * One stage compiled for a route. `run` does its work for a request: it returns what it produced,
 * or a promise of it when it waits (credentials, the body, an asynchronous handler), and
 * `keep` stores that once it is there. A stage that finishes at once costs no turn of the event
 * loop; one that waits costs the one `await` it needs. A refusal is thrown.
 */
export interface Step<T = unknown> {
  run(ex: Exchange): T | Promise<T>;
  keep?(ex: Exchange, value: T): void;
}

/** True for a promise or any other thenable. */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** True for an async iterable (a streamed value). */
export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}
