/**
 * The mock's server: every route copied with a handler that answers generated values, registered
 * on a fresh `rest.newServer` and mounted by `@lib/router-adapter` on a Hono app of the mock's
 * own. A request runs the real pipeline (406, 415, 413, 400 for parameters and body, middleware
 * input), so the mock refuses what the server would; only what a valid request gets is made up.
 */
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { newServerTransport, honoContextFromContext, type HonoServerTransport } from '@lib/router-adapter';
import { newServer, responseHeadersFromContext, Route, withBasePath, type Context, type Handler, type MiddlewareAttachment, type RouteHandle, type Server } from '@lib/rest';
import { templateSource } from '@lib/rest/pipeline';
import { AnswerSource, directResponse, middlewareOutput, operationIdOf, routePlan, successValue, type MockOptions } from './mock-answers.js';
import { handleOf, type AnyRoute } from './requests.js';

/** The mock's server, before it serves. */
export interface MockRouter {
  /** The builder the copies are registered with (a transport attached, not yet served). */
  readonly api: Server;
  /** The router adapter: `transport.router` is the Hono app. */
  readonly transport: HonoServerTransport;
  /** The handles of the routes given, in order, as the caller declared them. */
  readonly handles: readonly RouteHandle<unknown, unknown>[];
  /**
   * Answers `request` for the route of `template` (`/users/{id}`): a path that ends with the
   * template after a prefix (`/v1/users/7`, an API under a base path) is routed without it.
   */
  fetch(request: Request, template: string): Promise<Response>;
}

/** The base path the builder of every one of `routes` serves under, when they share one (`''` otherwise). */
export function sharedBasePath(routes: readonly AnyRoute[]): string {
  const paths = new Set(routes.map((r) => handleOf(r).server?.basePath ?? ''));
  return paths.size === 1 ? ([...paths][0] as string) : '';
}

/** Thrown by the handler of a route whose answer the mock writes itself: the Hono middleware puts that answer in place. */
class MockAnswered extends Error {
  constructor() {
    super('answered by the mock');
    this.name = 'MockAnswered';
  }
}

/** Path templates as matchers of the paths that end with them, made once each. */
const SUFFIX_MATCHERS = new Map<string, RegExp>();

/** A path template as a matcher of the paths that end with it: the prefix, then the template. */
function suffixMatcher(template: string): RegExp {
  const known = SUFFIX_MATCHERS.get(template);
  if (known !== undefined) return known;
  const matcher = new RegExp(`^(.*?)${templateSource(template)}$`);
  SUFFIX_MATCHERS.set(template, matcher);
  return matcher;
}

/**
 * Builds the mock's server of `routes`, under `basePath` (none by default): the route's main success, or the status `overrides`
 * names, drawn from `seed`. Security requirements are dropped (any credentials, or none, are
 * accepted); `securityFunc` and `observer` options are not run; `validateResponses` is on.
 * @throws {TypeError} an override names no route, or a status its route does not declare; a
 * codec of an answer cannot be generated.
 * @throws {import('@lib/rest').DuplicateRouteError} two routes have one method and path.
 * @throws {import('@lib/rest').CapabilityCoverageError} a route requires a capability HTTP lacks.
 */
export function newMockRouter(routes: readonly AnyRoute[], options: MockOptions, addr?: string, basePath = ''): MockRouter {
  const handles = routes.map(handleOf);
  const overrides = options.overrides ?? {};
  const ids = new Set(handles.map(operationIdOf));
  for (const id of Object.keys(overrides)) {
    if (!ids.has(id)) throw new TypeError(`testing: overrides[${JSON.stringify(id)}] names no route (the operations are ${[...ids].map((x) => JSON.stringify(x)).join(', ')})`);
  }
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);

  // Requests under a base path, routed without it (see `fetch`).
  const rewritten = new WeakMap<Request, string>();
  const router = new Hono({ getPath: (req) => getPath(rewritten.has(req) ? ({ url: rewritten.get(req) } as Request) : req) });
  // The answers the mock writes itself (an overridden error status), by the request's Hono context.
  const direct = new WeakMap<object, Response>();
  router.use('*', async (c, next) => {
    await next();
    const res = direct.get(c);
    if (res === undefined) return;
    await c.res.body?.cancel().catch(() => undefined);
    // Unset first: Hono copies the headers of the response it replaces into the new one.
    c.res = undefined;
    c.res = res;
  });

  const transport = newServerTransport({ router, ...(addr !== undefined && { addr }) });
  const api = newServer({ title: 'mock', version: '0.0.0' }, withBasePath(basePath));
  for (const handle of handles) {
    const operationId = operationIdOf(handle);
    const plan = routePlan(handle, overrides[operationId]);
    const source = new AnswerSource(seed, operationId);
    const answer = plan.answer;
    const handler = (ctx: Context, _req: unknown, respond: (status: number, value?: unknown) => unknown): unknown => {
      const d = source.of(ctx);
      if (answer.kind === 'direct') {
        const c = honoContextFromContext(ctx);
        if (c !== undefined) direct.set(c, directResponse(answer.plan, d));
        throw new MockAnswered();
      }
      const value = successValue(answer.plan, d, responseHeadersFromContext(ctx));
      return answer.plan.main ? value : respond(answer.plan.status, value);
    };
    // Every middleware the server would run (the builder's, then the route's), its output generated.
    const middleware: MiddlewareAttachment[] = plan.middleware.map((m) => ({ ...m.attachment, receive: (ctx: Context) => middlewareOutput(m, source.of(ctx)) }));
    const route = handle.route as unknown as Route<unknown, unknown>;
    const { security: _security, ...meta } = route.meta;
    const { securityFunc: _securityFunc, observer: _observer, ...routeOptions } = handle.options;
    // A copy of its own (a new identity): registering it leaves the caller's route and its client handle as they were.
    const copy = new Route<unknown, unknown>({
      ...route,
      identity: {},
      meta,
      options: { ...routeOptions, validateResponses: true },
      middleware,
      credentials: [],
      handler: handler as Handler<unknown, unknown>,
    });
    copy.registerHandle(api).withRequestFormats(...handle.requestFormats).withFormats(...handle.responseFormats);
  }
  api.attach(transport);

  return {
    api,
    transport,
    handles,
    fetch(request, template) {
      const url = new URL(request.url);
      const m = suffixMatcher(template).exec(url.pathname);
      const prefix = m?.[1] ?? '';
      if (prefix !== '') rewritten.set(request, `${url.origin}${url.pathname.slice(prefix.length)}${url.search}`);
      return Promise.resolve(router.fetch(request));
    },
  };
}
