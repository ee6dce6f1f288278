import type { Codec, SchemaLike, VarField } from '@lib/codec';
import type { SecurityRequirement } from '@lib/openapi';
import { json, mediaTypeOf, type Format } from '@lib/format';
import type { Context } from './context.js';
import type { CorsPolicy } from './cors.js';
import type { NotModified } from './not-modified.js';
import type { Redirect } from './redirect.js';
import type { Answer, DeclaredSuccess, Responder, SuccessResponseOption, SuccessResponseSpec } from './success.js';
import type { CredentialProvider, SecurityScheme } from './security.js';
import { DuplicateErrorStatusError, MissingPathVarError, PathParamError } from './errors.js';
import { wireStatus, type DeclaredError, type Status, type ErrorPattern, type ErrorRule, type StatusNumber } from './error-rules.js';
import { ErrorPatternResponse } from './http-errors.js';
import { isToken } from './http-grammar.js';
import type { RequestFormats, ResponseFormats } from './formats.js';
import { DEFAULT_MAX_BODY_BYTES, type Observer, type Options } from './options.js';
import type { BoundReceiveFunc, BoundSendFunc, Middleware, MiddlewareAttachment } from './middleware.js';
import { decodeParam, paramStyles, requestParamSpec, type RequestParamSpec } from './param-values.js';
import type { PathVarValue } from './styled.js';
import { asCodec, FORBIDDEN_HEADER_PARAMS, paramKey, type AnyParam, type ParamLocation, type PlainParam, type RequestMergeParam } from './params.js';
import { fillEncodedTemplate, RouteDeclarationError, templateVars } from './path-template.js';
import type { CapabilityRequirement } from './requirements.js';
import { frozenMeta, type ResponseMeta, type ResponseMetaFields, type RouteMeta, type RouteMetaFields } from './route-meta.js';
import type { RouteOption } from './route-option.js';

/**
 * What a route is registered with: the API builder (`rest.newServer`), seen from the declaration.
 * The builder keeps the handle, checks built paths, and gives the options and middleware every
 * route inherits.
 */
export interface RouteRegistry {
  /** The server-side handle of `route` for this builder ({@link RegisteredRouteHandle}), not yet added. */
  newHandle<Req, Resp>(route: Route<Req, Resp>): RegisteredRouteHandle<Req, Resp>;
  /** Adds a registered route's handle. @throws as {@link Route.register}. */
  add(handle: RouteHandle<unknown, unknown>): void;
  /** Checks a concrete path against the builder's path codec and constraints. @throws {InvalidPathError} */
  checkPath(path: string): void;
  /** The options every route inherits (`withDefaultOptions`). */
  readonly defaultOptions: Options;
  /** The builder's middleware (`api.use`), in order. */
  middleware(): readonly MiddlewareAttachment[];
  /** The CORS policy of every route, when any. */
  readonly cors: CorsPolicy | undefined;
  /** The security schemes added with `addSecurityScheme`, by name. */
  securitySchemes(): ReadonlyMap<string, SecurityScheme<unknown>>;
  /** The requirements of routes that declare none (`addGlobalSecurity`). */
  globalSecurity(): readonly SecurityRequirement[];
  /** The builder's error rules (`rest.withErrors`), consulted after a route's own. */
  readonly errorRules?: readonly ErrorRule[];
  /** The path every route is served under (`rest.withBasePath`), `''` for none. */
  readonly basePath?: string;
  /** The status the builder's pipeline answers for an error no rule maps (its own refusals' statuses, else 500). */
  errorStatus?(err: unknown): number;
}

/** What a handler may return: the main response value, another declared success, a redirect or a 304. */
export type HandlerResult<Resp> = Resp | Answer | Redirect | NotModified;

/** The typed error responses of a list of error rules or route options: one {@link DeclaredError} per `errorPattern`. */
export type DeclaredErrors<E> = E extends readonly (infer X)[] ? (X extends ErrorPattern<infer _E, infer B, infer S, infer H> ? DeclaredError<StatusNumber<S>, B, H> : never) : never;

/**
 * A route's handler: returns the response value, `respond(status, value)` for another declared
 * success response, a `rest.redirect(...)` or a `rest.notModified(...)`, or throws an error the
 * error rules map (or a redirect, or a 304). `respond` is typed by the route's declared
 * responses: only their statuses compile.
 */
export type Handler<Req, Resp, Ok extends DeclaredSuccess = DeclaredSuccess<number, Resp>, Ctx extends Context = Context> = (
  ctx: Ctx,
  req: Req,
  respond: Responder<Ok>,
) => HandlerResult<Resp> | Promise<HandlerResult<Resp>>;

/** The default success status of a method: 201 Created for POST (RFC 9110 §15.3.2), 200 OK otherwise. */
export function defaultStatus(method: string): number {
  return method === 'POST' ? 201 : 200;
}

/**
 * The status a route's main success is sent with: `meta.respStatus` (a range such as `'2XX'` is
 * sent as its first status), else — and for `'default'`, which documents the main response as
 * OpenAPI's `default` — the method's {@link defaultStatus}.
 * @throws {RangeError} `respStatus` is not a status from 200 to 599.
 */
export function mainStatus(method: string, respStatus: Status | undefined): number {
  return respStatus === undefined || respStatus === 'default' ? defaultStatus(method) : wireStatus(respStatus);
}

/** Methods whose requests carry a body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The builders each declaration was registered with, in order, by its {@link Route.identity}
 * (shared by the `with*` copies of a route): `route.buildPath` checks a path against all of them.
 */
const registeredWith = new WeakMap<object, RouteRegistry[]>();
/** The client handle of each route, for the builder it was made with. */
const clientHandles = new WeakMap<Route<unknown, unknown>, RouteHandle<unknown, unknown>>();

/**
 * A declared route: a plain, immutable value shared by server and client.
 * `with*` methods return new routes.
 */
export class Route<Req, Resp, P extends string = string, ReqIn = Req, Err extends DeclaredError = DeclaredError, Ok extends DeclaredSuccess = DeclaredSuccess<number, Resp>, Ctx extends Context = Context> {
  /**
   * Types only, never set: what a caller may send (`ReqIn`: defaulted and optional fields may be
   * left out), the typed error responses the route declares (`Err`) and its success responses
   * (`Ok`: the main one and those of `successes`), read by `client.call` and `client.safeCall`.
   */
  declare readonly '~types'?: { input(value: ReqIn): void; errors(value: Err): void; successes(value: Ok): void };
  /**
   * The declaration this route comes from, shared by its `with*` copies: a registration of any
   * copy (`route.withHandler(h).register(api)`) counts for all of them, so that `buildPath`
   * on the declared route checks the path against that builder.
   */
  declare readonly identity: object;
  /** Upper-case HTTP method. */
  declare readonly method: string;
  /** The path template, `{var}` placeholders included (its literal type when declared with a literal). */
  declare readonly path: P;
  /** The request body codec (`codec.empty<Req>()` for routes without a body). */
  declare readonly reqCodec: Codec<Req>;
  /** The response body codec. */
  declare readonly respCodec: Codec<Resp>;
  /** Merged route metadata. */
  declare readonly meta: RouteMetaFields;
  /** Extra documented responses. */
  declare readonly responses: readonly ResponseMetaFields[];
  /** Success responses besides the main one, each with its status, body codec and headers (`rest.route({ successes })`). */
  declare readonly successes: readonly SuccessResponseSpec[];
  /** Parameter declarations, in order. */
  declare readonly params: readonly AnyParam[];
  /** Error rules, in declaration order. */
  declare readonly errorRules: readonly ErrorRule[];
  /** Declared request formats (`undefined`: JSON of `reqCodec`). */
  declare readonly requestFormats: readonly Format<Req>[] | undefined;
  /** Declared response formats (`undefined`: JSON of `respCodec`). */
  declare readonly responseFormats: readonly Format<Resp>[] | undefined;
  /** Capability requirements (`requireQoS`, `requireHWM`). */
  declare readonly requirements: readonly CapabilityRequirement[];
  /** The path template's variables, in order. */
  declare readonly pathVars: readonly string[];
  /**
   * The handler, once `withHandler` was called. Typed with every success status, so that routes
   * of any declared responses are one type here; `withHandler` checks the handler against the
   * route's own.
   */
  declare readonly handler: Handler<Req, Resp, DeclaredSuccess> | undefined;
  /** Adapter options set with `withOptions`. */
  declare readonly options: Options;
  /**
   * The route's own middleware (`use`, `handleMW`, `clientMW`), in attachment order. The server
   * runs the builder's (`api.use`) before these; the client runs only these.
   */
  declare readonly middleware: readonly MiddlewareAttachment[];
  /**
   * The client's credential providers (`route.clientMW(scheme, fn)`), in attachment order: each
   * gives the credential of a security scheme for a call; the client writes it where the scheme
   * says (`Authorization`, an API-key header, query parameter or cookie).
   */
  declare readonly credentials: readonly CredentialProvider[];

  /** Use {@link newRoute}. */
  constructor(init: Omit<Route<Req, Resp, P, ReqIn, Err, Ok, Ctx>, '~types' | 'withHandler' | 'withOptions' | 'register' | 'registerHandle' | 'clientHandle' | 'buildPath' | 'id' | 'handleMW' | 'clientMW' | 'use'>) {
    // The fields are declared, not initialised, so that one assignment sets them all.
    Object.assign(this, init);
  }

  /** `METHOD /path`, for messages. */
  get id(): string {
    return `${this.method} ${this.path}`;
  }

  /** A copy served by `fn`. */
  withHandler(fn: Handler<Req, Resp, Ok, Ctx>): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx> {
    return new Route({ ...this, handler: fn as unknown as Handler<Req, Resp, DeclaredSuccess> });
  }

  /** A copy with adapter options merged over the current ones. */
  withOptions(options: Options): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx> {
    return new Route({ ...this, options: { ...this.options, ...options } });
  }

  /**
   * A copy with `mw` bound for the server (Go's `HandleMW`): after the request's parameters and
   * body are decoded and merged, `fn` receives the context, that request and the decoded `In`,
   * and returns `Out`, which the handler reads with `mw.output(ctx)`. It runs after the builder's
   * middleware and the route's earlier ones. Give the same `mw` value to {@link Route.clientMW}
   * for the client side: both functions share one attachment.
   * @throws {AmbiguousMiddlewareAttachmentError} `mw` has bundled functions (`withReceive`,
   * `withSend`), or the route already uses a bundled middleware of the same declaration.
   * @throws {DuplicateMiddlewareNameError} another middleware of that name is already attached (or `mw` already bound for the server).
   * @throws {RouteDeclarationError} a parameter of `mw` is already declared by the route or another middleware.
   */
  handleMW<In, Out>(mw: Middleware<In, Out>, fn: BoundReceiveFunc<Req, NoInfer<In>, NoInfer<Out>>): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx> {
    const receive = fn as unknown as MiddlewareAttachment['receive'];
    return new Route({ ...this, middleware: mw.attachTo(this.id, this.params, this.middleware, { receive }) });
  }

  /**
   * A copy with `mw` bound for the client (Go's `ClientMW`): before each call, the client calls
   * `fn` with the request value and writes the merge fields of the `In` it returns into the
   * request (headers, cookies, query parameters), checked like the route's own (explicit
   * `headerParams`/`queryParams`/`cookieParams` of the call win). A throw, or an `In` that fails
   * `inCodec.validate`, aborts the call with `RequestBuildError`: nothing is sent.
   * @throws {AmbiguousMiddlewareAttachmentError} @throws {DuplicateMiddlewareNameError} @throws {RouteDeclarationError} as {@link Route.handleMW}.
   */
  clientMW<In, Out>(mw: Middleware<In, Out>, fn: BoundSendFunc<Req, NoInfer<In>>): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx>;
  /**
   * A copy whose client calls carry a credential of `scheme` (the same value registered with
   * `api.addSecurityScheme`): before each call the client calls `fn(req)` and writes its result
   * where the scheme says — `Authorization: Bearer …` or `Basic …`, or the API key's header,
   * query parameter or cookie — encoded and checked by the scheme's codec. `undefined` sends no
   * credential (the server then answers 401). A throw, or a credential the codec refuses, aborts
   * the call with `RequestBuildError` before anything is sent. An explicit per-call entry of the
   * same name (`headerParams: { Authorization }`) wins.
   */
  clientMW<C>(scheme: SecurityScheme<C>, fn: (req: Req) => C | undefined | Promise<C | undefined>): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx>;
  clientMW(mw: Middleware<unknown, unknown> | SecurityScheme<unknown>, fn: (req: Req) => unknown): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx> {
    // A security scheme places credentials; a middleware attaches itself. Told apart by shape so
    // that a route carries the code of neither unless it uses it.
    if (!('attachTo' in mw)) {
      const provider: CredentialProvider = { scheme: mw, send: fn as (req: unknown) => unknown };
      return new Route({ ...this, credentials: [...this.credentials, provider] });
    }
    const send = fn as unknown as MiddlewareAttachment['send'];
    return new Route({ ...this, middleware: mw.attachTo(this.id, this.params, this.middleware, { send }) });
  }

  /**
   * A copy that uses a middleware with bundled functions (`mw.withReceive` for the server,
   * `mw.withSend` for the client), after the route's earlier middleware.
   * @throws {RouteDeclarationError} `mw` has no bundled function, or one of its parameters is already declared.
   * @throws {AmbiguousMiddlewareAttachmentError} the route binds the same declaration with `handleMW`/`clientMW`.
   * @throws {DuplicateMiddlewareNameError} a middleware of that name is already attached.
   */
  use<In, Out>(mw: Middleware<In, Out>): Route<Req, Resp, P, ReqIn, Err, Ok, Ctx> {
    return new Route({ ...this, middleware: mw.attachTo(this.id, this.params, this.middleware) });
  }

  /**
   * Registers the route with a builder.
   * @throws {InvalidPathError} when the path fails the builder's path codec or constraints.
   * @throws {DuplicateRouteError} when the builder has a route with this method and path.
   * @throws {DuplicateMiddlewareNameError} @throws {AmbiguousMiddlewareAttachmentError} when the
   * route's middleware clash with the builder's (`api.use`).
   */
  register(api: RouteRegistry): void {
    this.registerHandle(api);
  }

  /**
   * Registers the route and returns its server-side handle (the client-side one's members, and
   * error mapping, merge fields and parameter checks). Throws as {@link Route.register}.
   */
  registerHandle(api: RouteRegistry): RegisteredRouteHandle<Req, Resp> {
    const handle = api.newHandle<Req, Resp>(this as unknown as Route<Req, Resp>);
    api.add(handle as unknown as RouteHandle<unknown, unknown>);
    const servers = registeredWith.get(this.identity);
    if (servers === undefined) registeredWith.set(this.identity, [api]);
    else if (!servers.includes(api)) servers.push(api);
    return handle;
  }

  /**
   * A client-side handle carrying the same patterns and formats: what a call needs (formats,
   * error rules, parameters, `buildPath`, `decodeErrorFor`), without the server's error mapping,
   * merge fields and parameter checks ({@link RegisteredRouteHandle}, from `registerHandle`), so
   * that a browser client carries none of their code. The same handle is returned
   * until the route is registered with another builder (`client.call` prepares a route once).
   */
  clientHandle(): RouteHandle<Req, Resp> {
    const self = this as unknown as Route<unknown, unknown>;
    const server = registeredWith.get(this.identity)?.at(-1);
    const cached = clientHandles.get(self);
    if (cached !== undefined && cached.server === server) return cached as unknown as RouteHandle<Req, Resp>;
    const handle = new RouteHandle<Req, Resp>(this as unknown as Route<Req, Resp>, server);
    clientHandles.set(self, handle as unknown as RouteHandle<unknown, unknown>);
    return handle;
  }

  /**
   * The concrete path for `vars`: each value is checked by its path parameter's codec and
   * percent-encoded — a styled path parameter's list or object of texts written in its style
   * (OpenAPI 3.1 §4.8.12.4: `{ ids: ['3', '4'] }` → `3,4` in `simple`, `.3.4` in exploded
   * `label`) —; the result is checked against the path checks of every builder the
   * declaration was registered with (through this route or any `with*` copy of it).
   * @throws {PathParamError} a value fails its codec, or cannot be written in its style.
   * @throws {MissingPathVarError} a variable is absent.
   * @throws {InvalidPathError} the assembled path fails a builder's checks.
   */
  buildPath(vars: Readonly<Record<string, PathVarValue>>): string {
    const path = this.clientHandle().buildPath(vars);
    for (const server of registeredWith.get(this.identity) ?? []) server.checkPath(path);
    return path;
  }
}

/** An option of {@link newRoute}: typed by the route's request and response, declaring the error `E`. */
type Opt<Req, Resp, E> = RouteOption<NoInfer<Req>, NoInfer<Resp>, E>;

/** What an `errorPattern` past the sixteenth option of {@link newRoute} meets: the sentence of the compile error. */
type ErrorPatternTooLate = 'the errorPattern options of a route go among its first 16 options: declare this one earlier';

/**
 * The options of {@link newRoute} and `newSSERoute`: each of the first sixteen positions is typed
 * on its own, so that every `errorPattern` among them adds its {@link DeclaredError} (`E1`…`E16`)
 * while parameter callbacks stay typed by the request.
 * @internal
 */
export type PositionalOptions<Req, Resp, E1, E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13, E14, E15, E16> = [
  o1?: Opt<Req, Resp, E1>, o2?: Opt<Req, Resp, E2>, o3?: Opt<Req, Resp, E3>, o4?: Opt<Req, Resp, E4>,
  o5?: Opt<Req, Resp, E5>, o6?: Opt<Req, Resp, E6>, o7?: Opt<Req, Resp, E7>, o8?: Opt<Req, Resp, E8>,
  o9?: Opt<Req, Resp, E9>, o10?: Opt<Req, Resp, E10>, o11?: Opt<Req, Resp, E11>, o12?: Opt<Req, Resp, E12>,
  o13?: Opt<Req, Resp, E13>, o14?: Opt<Req, Resp, E14>, o15?: Opt<Req, Resp, E15>, o16?: Opt<Req, Resp, E16>,
  ...more: Opt<Req, Resp, ErrorPatternTooLate>[],
];

/**
 * Declares a route: method, path template, request and response
 * codecs, then any mix of `routeMeta`, `responseMeta`, parameters, `errorStatus`,
 * `errorPattern`, `requestFormats`, `formats`, `requireQoS`/`requireHWM`. The request and
 * response codecs (and parameters' codecs) may be Standard Schemas (zod 4, valibot 1, arktype 2),
 * made codecs once, here, as `rest.route` does.
 * @throws {TypeError} a Standard Schema without JSON Schema, or one its library cannot write.
 * @throws {RouteDeclarationError} for a bad method or template, a path parameter missing from
 * the template, a parameter declared twice, or a forbidden header parameter (`Accept`,
 * `Content-Type`, `Authorization`), a header or cookie name that is not an HTTP token, or a
 * `respStatus` outside 200–599, or a request codec other than `codec.empty()` on a method without
 * a body (anything but POST, PUT and PATCH).
 * @throws {DuplicateErrorStatusError} when two error patterns share a status.
 *
 * The route's type carries the status and body of every `errorPattern` among the first sixteen
 * options (each position is typed on its own, which keeps `r => r.id` in a parameter typed by
 * the request codec): `client.safeCall` narrows the error body by its status. An error pattern
 * further down does not compile; declare it earlier.
 */
export function newRoute<Req, Resp, const P extends string = string, E1 extends DeclaredError = never, E2 extends DeclaredError = never, E3 extends DeclaredError = never, E4 extends DeclaredError = never, E5 extends DeclaredError = never, E6 extends DeclaredError = never, E7 extends DeclaredError = never, E8 extends DeclaredError = never, E9 extends DeclaredError = never, E10 extends DeclaredError = never, E11 extends DeclaredError = never, E12 extends DeclaredError = never, E13 extends DeclaredError = never, E14 extends DeclaredError = never, E15 extends DeclaredError = never, E16 extends DeclaredError = never>(
  method: string,
  path: P,
  reqCodec: SchemaLike<Req>,
  respCodec: SchemaLike<Resp>,
  ...opts: PositionalOptions<Req, Resp, E1, E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13, E14, E15, E16>
): Route<Req, Resp, P, Req, E1 | E2 | E3 | E4 | E5 | E6 | E7 | E8 | E9 | E10 | E11 | E12 | E13 | E14 | E15 | E16> {
  return declareRoute(method, path, reqCodec, respCodec, opts as readonly RouteOption<never, never, unknown>[]);
}

/**
 * {@link newRoute} over a list of options, the way `rest.route` and `newSSERoute` build theirs;
 * they type the route themselves.
 * @internal
 */
export function declareRoute<Req, Resp, P extends string>(method: string, path: P, reqSchema: SchemaLike<Req>, respSchema: SchemaLike<Resp>, opts: readonly RouteOption<never, never, unknown>[]): Route<Req, Resp, P, Req, never> {
  // A Standard Schema becomes a codec here, once; a codec stays as it is.
  const reqCodec = asCodec(reqSchema, 'request codec');
  const respCodec = asCodec(respSchema, 'response codec');
  const m = method.toUpperCase();
  const id = `${m} ${path}`;
  if (!isToken(m)) throw new RouteDeclarationError(id, `invalid method ${JSON.stringify(method)}`);
  const pathVars = templateVars(id, path);
  let meta: RouteMetaFields = {};
  const responses: ResponseMetaFields[] = [];
  const params: AnyParam[] = [];
  const errorRules: ErrorRule[] = [];
  const successes: SuccessResponseSpec[] = [];
  const requirements: CapabilityRequirement[] = [];
  let reqFormats: readonly Format<Req>[] | undefined;
  let respFormats: readonly Format<Resp>[] | undefined;
  const seen: string[] = [];
  // Options are told apart by their `optionKind`, not by class, so that a route carries the code
  // of no option kind it does not use (a browser client bundles only what its routes declare).
  // Indexed loops: declarations run once, mostly in the interpreter, where `for…of` allocates
  // an iterator result per step.
  for (let i = 0; i < opts.length; i++) {
    const opt = opts[i] as RouteOption<never, never, unknown>;
    const kind = opt.optionKind;
    if (kind === 'routeMeta') meta = frozenMeta({ ...meta, ...(opt as RouteMeta).fields });
    else if (kind === 'responseMeta') responses.push((opt as ResponseMeta).fields);
    else if (kind === 'param') {
      const p = opt as unknown as AnyParam;
      const key = paramKey(p);
      if (seen.includes(key)) throw new RouteDeclarationError(id, `${p.kind} parameter ${JSON.stringify(p.name)} is declared twice`);
      seen.push(key);
      if (p.kind === 'path' && !pathVars.includes(p.name)) throw new RouteDeclarationError(id, `path parameter ${JSON.stringify(p.name)} is not in the template`);
      if (p.kind === 'header' && FORBIDDEN_HEADER_PARAMS.has(p.name.toLowerCase())) {
        throw new RouteDeclarationError(id, `${p.name} may not be declared as a header parameter; request formats and security schemes describe it`);
      }
      if (p.kind !== 'path' && p.kind !== 'query' && !isToken(p.name)) {
        throw new RouteDeclarationError(id, `${p.kind} parameter name ${JSON.stringify(p.name)} is not an HTTP token (RFC 9110 §5.6.2)`);
      }
      if (p.kind === 'path' || p.kind === 'query' || p.kind === 'header' || p.kind === 'cookie') {
        try {
          requestParamSpec(p as RequestMergeParam<unknown, unknown> | PlainParam<ParamLocation>);
        } catch (err) {
          throw new RouteDeclarationError(id, `${p.kind} parameter ${JSON.stringify(p.name)}: ${(err as Error).message}`);
        }
      }
      params.push(p);
    } else if (kind === 'errorPattern') {
      const pattern = opt as unknown as ErrorPattern<unknown, unknown>;
      // Patterns of one status are told apart by their own media types: each names some, none twice.
      const types = (r: ErrorPattern<unknown, unknown>): string[] | undefined => r.mediaTypes?.map((t) => mediaTypeOf(t));
      const clash = (r: ErrorRule): boolean => {
        if (r.optionKind !== 'errorPattern' || r.status !== pattern.status) return false;
        const mine = types(pattern);
        const theirs = types(r);
        return mine === undefined || theirs === undefined || mine.some((t) => theirs.includes(t));
      };
      if (errorRules.some(clash)) throw new DuplicateErrorStatusError(id, pattern.status);
      errorRules.push(pattern);
    } else if (kind === 'errorStatus') errorRules.push(opt as unknown as ErrorRule);
    else if (kind === 'requestFormats') reqFormats = (opt as unknown as RequestFormats<Req>).formats;
    else if (kind === 'responseFormats') respFormats = (opt as unknown as ResponseFormats<Resp>).formats;
    else if (kind === 'requirement') requirements.push(opt as unknown as CapabilityRequirement);
    else if (kind === 'success') successes.push((opt as unknown as SuccessResponseOption).spec);
    else throw new RouteDeclarationError(id, `unknown route option ${JSON.stringify(kind)}`);
  }
  // An exploded form object's properties are query keys: no other query parameter may read one.
  const query = params.filter((p) => p.kind === 'query').map((p) => requestParamSpec(p as RequestMergeParam<unknown, unknown>));
  if (query.some((p) => p.style !== undefined)) paramStyles().checkQueryKeys(id, query);
  if (!BODY_METHODS.has(m) && reqCodec.kind !== 'empty') {
    throw new RouteDeclarationError(
      id,
      `${m} requests carry no body here (only POST, PUT and PATCH do): declare the request codec as codec.empty<Req>() and its fields as path, query, header or cookie parameters`,
    );
  }
  let main: number;
  try {
    main = mainStatus(m, meta.respStatus);
  } catch (err) {
    throw new RouteDeclarationError(id, `respStatus: ${(err as Error).message}`);
  }
  const statuses = [main];
  for (let i = 0; i < successes.length; i++) {
    const sr = successes[i] as SuccessResponseSpec;
    if (!Number.isInteger(sr.status) || sr.status < 200 || sr.status > 299) throw new RouteDeclarationError(id, `success response ${String(sr.status)}: a success status is an integer from 200 to 299`);
    if (statuses.includes(sr.status)) throw new RouteDeclarationError(id, `success response ${sr.status} is declared twice (the main response has status ${main})`);
    statuses.push(sr.status);
  }
  return new Route<Req, Resp, P>({
    identity: {},
    method: m,
    path,
    reqCodec,
    respCodec,
    meta,
    responses,
    successes,
    params,
    errorRules,
    requestFormats: reqFormats,
    responseFormats: respFormats,
    requirements,
    pathVars,
    handler: undefined,
    options: {},
    middleware: [],
    credentials: [],
  });
}

/**
 * A route bound to a builder, or to no builder for client use: the client-side handle
 * (`route.clientHandle()`). Resolves the route's defaults (formats, options, body limits),
 * exposes its error rules and parameters, builds paths and decodes declared error bodies.
 * Formats may still change after registration. The server's handle
 * ({@link RegisteredRouteHandle}, `route.registerHandle(api)`) adds error mapping, merge fields
 * and parameter checks.
 */
export class RouteHandle<Req, Resp> {
  /** The declared route. */
  readonly route: Route<Req, Resp, string, never, never>;
  /** The builder, for server handles and client handles of registered routes. */
  readonly server: RouteRegistry | undefined;
  #requestFormats: readonly Format<Req>[] | undefined;
  #responseFormats: readonly Format<Resp>[] | undefined;
  #defaultResponseFormats: readonly Format<Resp>[] | undefined;
  /** The formats of each other success response, built once ({@link RouteHandle.successFormats}). */
  #successFormats: Map<SuccessResponseSpec, readonly Format<unknown>[]> | undefined;
  #errorRules: readonly ErrorRule[] | undefined;

  /**
   * The error rules that answer this route's errors, in matching order: the route's own, then
   * the builder's (`rest.withErrors`). A client handle has only the route's.
   */
  get errorRules(): readonly ErrorRule[] {
    if (this.#errorRules === undefined) {
      const shared = this.server?.errorRules ?? [];
      this.#errorRules = shared.length === 0 ? this.route.errorRules : [...this.route.errorRules, ...shared];
    }
    return this.#errorRules;
  }
  /** Request parameters (merge and plain), in declaration order. */
  readonly requestParams: readonly RequestParamSpec[];

  constructor(route: Route<Req, Resp, string, never, never>, server: RouteRegistry | undefined) {
    this.route = route;
    this.server = server;
    this.requestParams = route.params
      .filter((p: AnyParam): p is Exclude<AnyParam, { kind: 'responseHeader' | 'responseCookie' }> => p.kind !== 'responseHeader' && p.kind !== 'responseCookie')
      .map((p) => requestParamSpec(p as RequestMergeParam<unknown, unknown> | PlainParam<ParamLocation>));
  }

  /**
   * The adapter options in effect: the builder's defaults (`withDefaultOptions`) overridden by
   * the route's own (`route.withOptions`). A client handle of an unregistered route has only the
   * route's.
   */
  get options(): Options {
    const defaults = this.server?.defaultOptions;
    return defaults === undefined ? this.route.options : { ...defaults, ...this.route.options };
  }

  /**
   * The middleware the server runs for this route, in order: the builder's (`api.use`, in `use`
   * order, whether the route was registered before or after), then the route's own (`route.use`,
   * `handleMW`, `clientMW`, in attachment order).
   */
  get serverMiddleware(): readonly MiddlewareAttachment[] {
    const shared = this.server?.middleware() ?? [];
    return shared.length === 0 ? this.route.middleware : [...shared, ...this.route.middleware];
  }

  /**
   * The request body limit for a body in format `f`, in bytes: the route's own `maxBodyBytes`
   * (`route.withOptions`), else the limit the format states (a multipart body's parts and
   * fields, a binary body's `validate.maxBytes`: {@link Format.maxBodyBytes}), else the builder's
   * `maxBodyBytes` (`withDefaultOptions`), else 1 MiB. A limit stated in the codec is thus
   * honoured without being written again, larger than the default or not.
   */
  bodyLimit(f: Format<unknown>): number {
    return this.route.options.maxBodyBytes ?? f.maxBodyBytes ?? this.server?.defaultOptions?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /**
   * Where {@link RouteHandle.bodyLimit} comes from, in the words the limits were written in, when
   * the format derived it from its parts' limits ({@link Format.maxBodyBytesFrom}); `undefined`
   * for a limit stated as it is.
   */
  bodyLimitFrom(f: Format<unknown>): string | undefined {
    return this.route.options.maxBodyBytes === undefined && f.maxBodyBytes !== undefined ? f.maxBodyBytesFrom : undefined;
  }

  /** The request formats: set on the handle, else declared on the route, else JSON of the request codec under `options.contentType`. */
  get requestFormats(): readonly Format<Req>[] {
    if (this.#requestFormats !== undefined) return this.#requestFormats;
    if (this.route.requestFormats !== undefined) return this.route.requestFormats;
    const type = this.options.contentType;
    return [type === undefined ? json(this.route.reqCodec) : json(this.route.reqCodec).withContentType(type)];
  }

  /** The response formats: set on the handle, else declared on the route, else JSON of the response codec (`options.contentType` governs requests only). */
  get responseFormats(): readonly Format<Resp>[] {
    // The default is built once: callers (the client, per call) may key caches on it.
    return this.#responseFormats ?? this.route.responseFormats ?? (this.#defaultResponseFormats ??= [json(this.route.respCodec)]);
  }

  /**
   * The body formats of another declared success response: each response format of the route
   * that can carry another codec (`json`, `yaml`, `toml`, `cbor`: `withCodec`), with that
   * response's codec, else JSON; none for a response without content.
   */
  successFormats(spec: SuccessResponseSpec): readonly Format<unknown>[] {
    if (spec.codec.kind === 'empty') return [];
    const known = this.#successFormats?.get(spec);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const formats: Format<unknown>[] = [];
    for (const f of this.responseFormats as readonly Format<unknown>[]) {
      const type = mediaTypeOf(f.contentType);
      if (f.withCodec === undefined || seen.has(type)) continue;
      seen.add(type);
      formats.push(f.withCodec(spec.codec));
    }
    if (formats.length === 0) formats.push(json(spec.codec));
    (this.#successFormats ??= new Map()).set(spec, formats);
    return formats;
  }

  /** Replaces the request formats after registration. Returns this handle. */
  withRequestFormats(...formats: Format<Req>[]): this {
    this.#requestFormats = formats;
    return this;
  }

  /** Replaces the response formats after registration. Returns this handle. */
  withFormats(...formats: Format<Resp>[]): this {
    this.#responseFormats = formats;
    return this;
  }

  /**
   * Decodes a non-2xx response body by the `ErrorRespond` pattern of that status. `undefined` when no pattern has the status.
   * `contentType` is the response's `Content-Type`: a body in one of `formats` (default: the
   * route's response formats) that can carry the pattern's codec is read in that format, any
   * other in JSON.
   * @throws {DecodeError} when the body does not decode through the pattern's codec.
   */
  decodeErrorFor(status: number, body: Uint8Array, contentType?: string, formats: readonly Format<unknown>[] = this.responseFormats as readonly Format<unknown>[]): ErrorPatternResponse | undefined {
    return decodeErrorWith(this.errorRules, status, body, contentType, formats);
  }

  /**
   * The concrete path for `vars`: each value is checked by its path parameter's codec and
   * written into its segment — percent-encoded, or, for a styled path parameter (a list, an
   * object, a `label` or `matrix` value: OpenAPI 3.1 §4.8.12.4), as its style writes it from the
   * list or object of texts given (`{ ids: ['3', '4'] }` → `3,4`, `.3.4`, `;ids=3;ids=4`) — and
   * the result checked by the builder's path checks.
   * @throws {MissingPathVarError} @throws {PathParamError} a value fails its codec, is empty, or
   * cannot be written in its style. @throws {InvalidPathError}
   */
  buildPath(vars: Readonly<Record<string, PathVarValue>>): string {
    const segments: Record<string, string> = {};
    for (const name of this.route.pathVars) {
      if (!Object.prototype.hasOwnProperty.call(vars, name)) throw new MissingPathVarError(name);
      const value = vars[name] as PathVarValue;
      const p = this.requestParams.find((q) => q.kind === 'path' && q.name === name);
      const style = p?.style;
      if (style === undefined) {
        if (value === '') throw new PathParamError(name, value, new Error('must not be empty'));
        if (p !== undefined) decodeParam(p, value);
        if (typeof value !== 'string') throw new PathParamError(name, undefined, new TypeError(`expected a text, got ${Array.isArray(value) ? 'a list' : typeof value}`));
        segments[name] = encodeURIComponent(value);
        continue;
      }
      decodeParam(p as RequestParamSpec, value);
      segments[name] = (paramStyles().write(p as RequestParamSpec, style, value) as { readonly text: string }).text;
    }
    const path = fillEncodedTemplate(this.route.path, segments);
    this.server?.checkPath(path);
    return path;
  }
}

/**
 * The server-side handle of a registered route (`route.registerHandle(api)`, `api.handles()`):
 * the client-side {@link RouteHandle}, and what the server does with the declaration — error
 * mapping, merge fields for `codec.decodeVars`, and parameter checks. `@lib/rest`'s builder
 * makes it (`RouteRegistry.newHandle`).
 */
export interface RegisteredRouteHandle<Req, Resp> extends RouteHandle<Req, Resp> {
  /** All request merge fields, flat, for `codec.decodeVars`. */
  mergeFields(): VarField<Req>[];
  /** Path merge fields. */
  pathMergeFields(): VarField<Req>[];
  /** Query merge fields. */
  queryMergeFields(): VarField<Req>[];
  /** Header merge fields. */
  headerMergeFields(): VarField<Req>[];
  /** Cookie merge fields. */
  cookieMergeFields(): VarField<Req>[];
  /** The first error rule matching `err`, with its match. */
  matchRule(err: unknown): { readonly rule: ErrorRule; readonly value: unknown } | undefined;
  /** The status of the first error rule matching `err`. */
  errorStatusFor(err: unknown): number | undefined;
  /**
   * The typed response of the first matching rule when it is an `ErrorRespond` pattern;
   * `undefined` when no rule matches or the rule writes no typed body.
   * @throws when the pattern's `mapFn` throws or its body cannot be encoded.
   */
  errorResponseFor(err: unknown): ErrorPatternResponse | undefined;
  /**
   * As {@link RegisteredRouteHandle.errorResponseFor}, and reports to `observer`: the match or
   * miss (`onErrorPattern`), an `ErrorLog` match (`onErrorLog`), and the span attributes
   * `http.route`, `http.response.status_code`, `error.type` and `error.pattern` (`onSpanTags`).
   * An observer that throws is ignored.
   */
  observeErrorResponseFor(ctx: Context, observer: Observer | undefined, err: unknown): ErrorPatternResponse | undefined;
  /** Checks the declared query parameters; an array-valued one gets every value of its key. @throws {QueryParamError} */
  validateQuery(query: URLSearchParams): void;
  /** Checks the declared cookies. @throws {CookieParamError} */
  validateCookies(cookies: Readonly<Record<string, string>>): void;
  /** Checks the declared request headers. @throws {HeaderParamError} */
  validateHeaders(headers: Headers): void;
}

/** The first of `rules` matching `err`, with its match (the error found in `err`'s chain). */
export function matchErrorRule(rules: readonly ErrorRule[], err: unknown): { readonly rule: ErrorRule; readonly value: unknown } | undefined {
  for (const rule of rules) {
    const value = rule.match(err);
    if (value !== undefined) return { rule, value };
  }
  return undefined;
}

/**
 * Decodes an error response body by the `ErrorRespond` patterns of `rules` with that status:
 * the one with a format of its own (`withFormats`, `withMediaTypes`) of the response's
 * `Content-Type` reads it in that format; else the first, and a body in one of `formats` that can
 * carry the pattern's codec (json, yaml, toml, cbor, xml) is read in that format, any other in
 * JSON — as the server writes it; `undefined` when no pattern has the status. The pattern's
 * response headers are not read (see {@link decodeErrorRule}).
 * @throws {DecodeError} when the body does not decode through the pattern's codec.
 */
export function decodeErrorWith(rules: readonly ErrorRule[], status: number, body: Uint8Array, contentType: string | undefined, formats: readonly Format<unknown>[]): ErrorPatternResponse | undefined {
  const decoded = decodeErrorRule(rules, status, body, contentType, formats);
  return decoded === undefined ? undefined : new ErrorPatternResponse(status, decoded.value, body);
}

/**
 * As {@link decodeErrorWith}: the pattern that reads the body, and the decoded value.
 * @throws {DecodeError} when the body does not decode through the pattern's codec.
 */
export function decodeErrorRule(rules: readonly ErrorRule[], status: number, body: Uint8Array, contentType: string | undefined, formats: readonly Format<unknown>[]): { readonly rule: ErrorPattern<unknown, unknown>; readonly value: unknown } | undefined {
  const type = contentType === undefined ? 'application/json' : mediaTypeOf(contentType);
  const carrier = type === 'application/json' || type === '' ? undefined : formats.find((f) => f.withCodec !== undefined && mediaTypeOf(f.contentType) === type);
  const patterns = rules.filter((r): r is ErrorPattern<unknown, unknown> => r.optionKind === 'errorPattern' && r.action === 'respond' && r.status === status);
  // Patterns of one status with formats of their own (withFormats, withMediaTypes): the one
  // naming the response's type reads it, in that format; else the first, in the negotiated
  // format or JSON.
  for (const rule of patterns) {
    const own = rule.formats?.find((f) => mediaTypeOf(f.contentType) === type);
    if (own !== undefined) return { rule, value: own.unmarshal(body) };
  }
  const rule = patterns[0];
  if (rule === undefined) return undefined;
  return { rule, value: (carrier?.withCodec?.(rule.body) ?? json(rule.body)).unmarshal(body) };
}

/**
 * True when a request of codec `c` may come without a body (OpenAPI `requestBody.required:
 * false`): its codec decodes no value (`codec.optional(item)`, `codec.defaulted`, `codec.any`, a
 * Standard Schema that admits `undefined`, or such a body under the object form's `body`
 * field). The server then takes a request without content (no `Content-Length` or `0`, no
 * `Transfer-Encoding`, RFC 9112 §6.3), or with an empty one, as no body, and the client sends
 * none for an absent value.
 */
export function admitsNoBody(c: Codec<unknown>): boolean {
  if (c.kind === 'empty') return false;
  try {
    c.decode(undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when a handler may answer `undefined` for a response of codec `c`, its type admitting no
 * value (`codec.optional`, `codec.any`): the server then answers 503 (`PipelineNoResponseError`).
 * For any other codec, no value breaks the route's contract (500).
 */
export function takesNothing(c: Codec<unknown>): boolean {
  if (c.kind === 'empty') return false;
  try {
    if (c.encode(undefined) !== undefined) return false;
    // A Standard Schema encodes by the identity: whether it admits no value, its decoding says.
    c.decode(undefined);
    return true;
  } catch {
    return false;
  }
}
