import { installJit, type Codec, type Constraint } from '@lib/codec';
import { renderDocument, type Document, type ExternalDocsDescriptor, type InfoDescriptor, type TagDescriptor, type SecurityRequirement, type SecuritySchemeObject, type ServerDescriptor } from '@lib/openapi';
import { describeRoute } from './describe.js';
import { DuplicateRouteError, InvalidPathError } from '../declare/errors.js';
import { checkCoverage } from '../declare/coverage.js';
import { builtinStatus, prepareFallback, prepareRoute } from './pipeline/prepare.js';
import { RouteDeclarationError, templateShape, transparentPath } from '../declare/path-template.js';
import { corsPolicy, type CorsOption, type CorsPolicy } from '../declare/cors.js';
import type { Options } from '../declare/options.js';
import type { ErrorRule } from '../declare/error-rules.js';
import type { AnyErrorRule } from '../declare/route-object.js';
import { PROBLEM_DETAILS_OPTIONS } from '../declare/problem-details.js';
import { frozenRequirements } from '../declare/route-meta.js';
import { bundledAttachment, checkMiddleware, Middleware, type MiddlewareAttachment } from '../declare/middleware.js';
import { schemeFromObject, SecurityScheme } from '../declare/security.js';
import type { RegisteredRouteHandle, Route, RouteHandle, RouteRegistry } from '../declare/route.js';
import { ServerRouteHandle } from './route-handle.js';
import { DEFAULT_SHUTDOWN_TIMEOUT, type ServeOptions, type ServerTransport } from './transport.js';
import type { ServingSettings } from './settings.js';
import type { PathVarValue } from '../declare/styled.js';

/** A builder option that checks paths (`withPathCodec`, `withPathConstraints`). */
export interface PathCheckOption {
  readonly optionKind: 'pathCodec' | 'pathConstraints';
  /** Checks a concrete (or template-transparent) path. @throws on violation. */
  check(path: string): void;
}

/** A builder option giving every registered route default adapter options ({@link withDefaultOptions}). */
export interface DefaultOptionsOption {
  readonly optionKind: 'defaultOptions';
  readonly options: Options;
}

/** A builder option serving every route under a path prefix ({@link withBasePath}). */
export interface BasePathOption {
  readonly optionKind: 'basePath';
  /** The prefix: `/api`, `/api/v1`; `''` for none. */
  readonly basePath: string;
}

/** A builder option adding error rules for every route ({@link withErrors}). */
export interface ErrorRulesOption {
  readonly optionKind: 'errors';
  readonly rules: readonly ErrorRule[];
}

/**
 * A builder option: `withPathCodec`, `withPathConstraints`, `withDefaultOptions`, `withBasePath`,
 * `withErrors`, `withProblemDetails`, `cors`.
 */
export type ServerOption = PathCheckOption | DefaultOptionsOption | BasePathOption | ErrorRulesOption | CorsOption;

/**
 * Error rules for every route of the builder, consulted in order after a route's own rules:
 * the API's one error shape, written once. The pipeline's own refusals are ordinary errors of
 * exported classes that these rules match like any other — every validation failure is a
 * `RequestValidationError` (its `errors` hold each failing parameter and the body), then
 * `UnauthorizedError` (401), `NotAcceptableError` (406), `BodyTooLargeError` (413),
 * `UnsupportedMediaTypeError` (415), and, for requests no route takes, `NoRouteError` (404) and
 * `MethodNotAllowedError` (405) — so that
 *
 * ```ts
 * const api = rest.newServer(info, rest.withErrors(
 *   rest.errorPattern(rest.RequestValidationError, 422, validationBody, (e) => ({ errors: e.errors.map((x) => x.message) })),
 * ));
 * ```
 *
 * answers every validation failure of every route with 422 and that body, and the document
 * lists 422 with it, and no 400, wherever it applies. A typed client reads such a body when it is
 * given the same rules (`rest.newClient({ errors })`). Several `withErrors` add up, in order.
 */
export function withErrors(...rules: AnyErrorRule[]): ErrorRulesOption {
  return { optionKind: 'errors', rules: rules as readonly ErrorRule[] };
}

/** One segment of a base path: RFC 3986 `pchar`s (percent-encoded octets included), no template variable. */
const BASE_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;

/**
 * Serves every route of the builder under a path prefix: with `rest.withBasePath('/api')`,
 * `GET /users/{id}` answers at `/api/users/{id}`, and nothing outside the prefix is routed (404).
 * Routes keep their own templates: `route.buildPath(vars)` stays relative to the API's root —
 * what a client appends to its `baseURL` (`http://host/api`) — while `api.buildPath(route, vars)`
 * and the `Location` of a `rest.redirect` include the prefix. The document says it in
 * `servers` (OpenAPI 3.1 §4.8.5: paths are relative to a server URL): each server's URL gets
 * the prefix, or, with none added, `servers: [{ url: '/api' }]`.
 * @throws {TypeError} when `basePath` does not start with `/`, ends with `/` (other than `/`
 * itself, which means no prefix), or holds an empty segment, a dot segment, a `{variable}` or a
 * character a path segment cannot hold (RFC 3986 §3.3).
 */
export function withBasePath(basePath: string): BasePathOption {
  if (basePath === '/' || basePath === '') return { optionKind: 'basePath', basePath: '' };
  const segments = basePath.split('/');
  if (!basePath.startsWith('/') || basePath.endsWith('/') || segments.slice(1).some((seg) => seg === '.' || seg === '..' || !BASE_SEGMENT.test(seg))) {
    throw new TypeError(`withBasePath: ${JSON.stringify(basePath)} is not a base path: give one like "/api" or "/api/v1" (a leading "/", no trailing "/", no {variable}, no dot segment)`);
  }
  return { optionKind: 'basePath', basePath };
}

/**
 * Server-wide adapter options: every route registered with the builder inherits them, and
 * `route.withOptions(...)` overrides them field by field. The adapter's own answers (404, and
 * 405 with `Allow`) use the default `errorHandler` too. Several are merged in order.
 *
 * ```ts
 * const api = rest.newServer({ title: 'Users', version: '1.0.0' },
 *   rest.withDefaultOptions({ errorHandler: problemJSON, errorBody: problemCodec, observer }));
 * ```
 */
export function withDefaultOptions(options: Options): DefaultOptionsOption {
  return { optionKind: 'defaultOptions', options };
}

/**
 * Every error answer of the builder as a problem details object (RFC 9457): `Content-Type:
 * application/problem+json` and `{ type, title, status, detail }`, plus, for a request that
 * failed validation, the extension member `errors` — one `{ detail, in, name }` per failing
 * parameter and one `{ detail, in: 'body', pointer }` per issue of the body. The status is the
 * one the error rules choose; a 5xx's `detail` is its reason phrase, never the server's own
 * message. The document describes it once, as the `ProblemDetails` schema in `components`,
 * under `application/problem+json` on every error response the errorHandler writes (typed
 * `errorPattern` bodies keep their own codec). It sets `errorHandler`, `errorBody` and
 * `errorMediaType` of the default options; a later `withDefaultOptions` may override them.
 */
export function withProblemDetails(): DefaultOptionsOption {
  return { optionKind: 'defaultOptions', options: PROBLEM_DETAILS_OPTIONS };
}

/** Every registered path is validated by `c` at registration and in `buildPath`. */
export function withPathCodec(c: Codec<string>): PathCheckOption {
  return { optionKind: 'pathCodec', check: (path) => void c.decode(path) };
}

/** Every registered path is validated against `constraints` at registration and in `buildPath`. */
export function withPathConstraints(...constraints: Constraint<string>[]): PathCheckOption {
  return {
    optionKind: 'pathConstraints',
    check(path) {
      for (const c of constraints) if (!c.test(path)) throw new Error(`${c.message(path)} (${c.name})`);
    },
  };
}

/**
 * The API builder: collects routes, serves them through an attached
 * transport and describes them as OpenAPI 3.1.
 */
export class Server implements RouteRegistry {
  /** `info` of the document. */
  readonly info: InfoDescriptor;
  readonly #servers: ServerDescriptor[] = [];
  readonly #checks: readonly PathCheckOption[];
  /** The options every route inherits (`withDefaultOptions`); a route's own `withOptions` win. */
  readonly defaultOptions: Options;
  /** The prefix every route is served under ({@link withBasePath}): `/api`, or `''`. */
  readonly basePath: string;
  /** The error rules every route consults after its own ({@link withErrors}), in order. */
  readonly errorRules: readonly ErrorRule[];
  #cors: CorsPolicy | undefined;

  /** The CORS policy of every route (`rest.cors(...)` as a builder option or through `use`), when any. */
  get cors(): CorsPolicy | undefined {
    return this.#cors;
  }
  readonly #routes = new Map<string, RegisteredRouteHandle<unknown, unknown>>();
  readonly #securitySchemes = new Map<string, SecurityScheme<unknown>>();
  readonly #security: SecurityRequirement[] = [];
  readonly #tags: TagDescriptor[] = [];
  #externalDocs: ExternalDocsDescriptor | undefined;
  readonly #middleware: MiddlewareAttachment[] = [];
  #transport: ServerTransport | undefined;

  /** Use {@link newServer}. */
  constructor(info: InfoDescriptor, options: readonly ServerOption[]) {
    this.info = info;
    this.#checks = options.filter((o): o is PathCheckOption => o.optionKind === 'pathCodec' || o.optionKind === 'pathConstraints');
    const corsOption = options.filter((o): o is CorsOption => o.optionKind === 'cors').at(-1);
    this.#cors = corsOption === undefined ? undefined : corsPolicy(corsOption.options);
    let defaults: Options = {};
    for (const o of options) if (o.optionKind === 'defaultOptions') defaults = { ...defaults, ...o.options };
    this.defaultOptions = defaults;
    this.basePath = options.filter((o): o is BasePathOption => o.optionKind === 'basePath').at(-1)?.basePath ?? '';
    this.errorRules = options.flatMap((o) => (o.optionKind === 'errors' ? o.rules : []));
  }

  /**
   * The path of `route` on this server, with the base path ({@link withBasePath}):
   * `api.buildPath(getUser, { id })` → `/api/users/42` — for links the server writes. Each
   * variable is checked and percent-encoded as `route.buildPath` does.
   * @throws {import('../declare/errors.js').PathParamError} @throws {import('../declare/errors.js').MissingPathVarError}
   * @throws {InvalidPathError} as `route.buildPath`.
   */
  buildPath(route: { buildPath(vars: Readonly<Record<string, PathVarValue>>): string }, vars: Readonly<Record<string, PathVarValue>>): string {
    return this.basePath + route.buildPath(vars);
  }

  /** Adds a named server entry to the document. Returns this builder. */
  addServer(name: string, server: { readonly url: string }): this {
    this.#servers.push({ name, url: server.url });
    return this;
  }

  /**
   * Registers a security scheme under `name`: requirements (`routeMeta({ security: [{ [name]: [] }] })`,
   * `addGlobalSecurity`) name it, the server enforces it, and the document lists it under
   * `components.securitySchemes` (OpenAPI 3.1 §4.8.27). A Security Scheme Object given as data
   * is enforced by where it says the credential is. Returns this builder.
   */
  addSecurityScheme(name: string, scheme: SecurityScheme<unknown> | SecuritySchemeObject): this {
    this.#securitySchemes.set(name, scheme instanceof SecurityScheme ? scheme : schemeFromObject(scheme));
    return this;
  }

  /**
   * Adds global security requirements: every route whose `routeMeta` gives no `security` needs
   * one of them (OpenAPI 3.1 §4.8.30: alternatives; the schemes of one requirement are all
   * needed); `security: []` on a route opts out. Returns this builder.
   */
  addGlobalSecurity(...requirements: SecurityRequirement[]): this {
    // Copied: the caller's objects changing later changes nothing here.
    this.#security.push(...frozenRequirements(requirements));
    return this;
  }

  /**
   * Documents a tag (OpenAPI 3.1 §4.8.22): its description and external documentation. Tags are
   * listed in the order they are added; tags that routes use (`routeMeta({ tags })`) without
   * being added follow, by name. Adding a name twice replaces it. Returns this builder.
   */
  addTag(name: string, doc: { readonly description?: string; readonly externalDocs?: ExternalDocsDescriptor } = {}): this {
    const tag: TagDescriptor = { name, ...doc };
    const i = this.#tags.findIndex((t) => t.name === name);
    if (i === -1) this.#tags.push(tag);
    else this.#tags[i] = tag;
    return this;
  }

  /** Points the document to the API's documentation elsewhere (OpenAPI 3.1 §4.8.11). Returns this builder. */
  setExternalDocs(docs: ExternalDocsDescriptor): this {
    this.#externalDocs = docs;
    return this;
  }

  /** The registered security schemes, by name. */
  securitySchemes(): ReadonlyMap<string, SecurityScheme<unknown>> {
    return this.#securitySchemes;
  }

  /** The status the pipeline answers for an error no rule maps: its own refusals' (a 415 is a 415), else 500. */
  errorStatus(err: unknown): number {
    return builtinStatus(err);
  }

  /** The global security requirements. */
  globalSecurity(): readonly SecurityRequirement[] {
    return this.#security;
  }

  /**
   * What this builder says of how every route is served — its base path, CORS policy, global
   * security requirements and security schemes — for `prepareRoute` and `describeRoute`.
   */
  servingSettings(): ServingSettings {
    return { basePath: this.basePath, cors: this.#cors, globalSecurity: this.#security, securitySchemes: this.#securitySchemes };
  }

  /**
   * Checks a concrete path against the builder's path codec and constraints.
   * @throws {InvalidPathError}
   */
  checkPath(path: string): void {
    for (const c of this.#checks) {
      try {
        c.check(path);
      } catch (err) {
        throw new InvalidPathError(path, err);
      }
    }
  }

  /** The server-side handle of `route` for this builder; called by `route.registerHandle`, which then adds it. */
  newHandle<Req, Resp>(route: Route<Req, Resp>): RegisteredRouteHandle<Req, Resp> {
    return new ServerRouteHandle<Req, Resp>(route, this);
  }

  /**
   * Adds a handle; called by `route.register`. The template is checked with every `{var}`
   * replaced by `x` (template-transparent validation).
   * @throws {InvalidPathError} @throws {DuplicateRouteError}
   * @throws {UnsupportedParamKindError} @throws {CapabilityCoverageError} when a transport is attached and lacks what the route needs.
   * @throws {DuplicateMiddlewareNameError} @throws {AmbiguousMiddlewareAttachmentError} @throws {RouteDeclarationError}
   * when the route's middleware clash with the builder's (`use`).
   */
  add(handle: RouteHandle<unknown, unknown>): void {
    if (!(handle instanceof ServerRouteHandle)) throw new TypeError(`api.add: ${handle.route.id}: register routes with route.register(api) (a client-side handle cannot be served)`);
    const route = handle.route;
    this.checkPath(transparentPath(route.path));
    const key = `${route.method} ${templateShape(route.path)}`;
    if (this.#routes.has(key)) throw new DuplicateRouteError(route.id);
    if (this.#transport !== undefined) checkCoverage(route, this.#transport, this.#schemesOf(route));
    checkMiddleware(route.id, route.params, [...this.#middleware, ...route.middleware]);
    this.#routes.set(key, handle);
  }

  /**
   * Runs `mw`'s bundled server function (`mw.withReceive`) for every route of this builder,
   * registered before or after this call, ahead of the route's own middleware; several `use`
   * calls run in call order. Call it before `serve`: routes already served keep their pipeline.
   * The client never runs builder middleware (attach it to the route with `route.use` for that).
   * Returns this builder.
   * @throws {TypeError} `mw` has no bundled server function.
   * @throws {DuplicateMiddlewareNameError} a middleware of that name already runs for the builder
   * (`route` is `*`) or for a registered route.
   * @throws {AmbiguousMiddlewareAttachmentError} a registered route binds the same declaration with `handleMW`/`clientMW`.
   * @throws {RouteDeclarationError} a parameter of `mw` is already declared by a route or another middleware.
   */
  use<In, Out>(mw: Middleware<In, Out>): this;
  /** Enables CORS for every route, as the builder option `rest.newServer(info, rest.cors(...))` does (the last one given wins). */
  use(cors: CorsOption): this;
  use(mw: Middleware<unknown, unknown> | CorsOption): this {
    if (!(mw instanceof Middleware)) {
      this.#cors = corsPolicy(mw.options);
      return this;
    }
    const m = mw;
    if (m.receive === undefined) throw new TypeError(`api.use: middleware ${JSON.stringify(m.name)} has no server function; bundle one with mw.withReceive(fn)`);
    const attachment = bundledAttachment(m);
    const shared = [...this.#middleware, attachment];
    checkMiddleware('*', [], shared);
    for (const h of this.#routes.values()) checkMiddleware(h.route.id, h.route.params, [...shared, ...h.route.middleware]);
    this.#middleware.push(attachment);
    return this;
  }

  /** The middleware every route of this builder runs first (`use`), in order. */
  middleware(): readonly MiddlewareAttachment[] {
    return this.#middleware;
  }

  /** The registered handles, in registration order. */
  handles(): readonly RegisteredRouteHandle<unknown, unknown>[] {
    return [...this.#routes.values()];
  }

  /**
   * Attaches the server transport.
   * @throws {UnsupportedParamKindError} when a registered route declares a parameter kind the transport lacks.
   * @throws {CapabilityCoverageError} when a route's `requireQoS`/`requireHWM` is not covered.
   * @throws {Error} when a transport is already attached.
   */
  attach(transport: ServerTransport): void {
    if (this.#transport !== undefined) throw new Error('a server transport is already attached');
    for (const h of this.#routes.values()) checkCoverage(h.route, transport, this.#schemesOf(h.route));
    this.#transport = transport;
  }

  /** The security schemes a route's requirements name (its own, else the builder's global ones). */
  #schemesOf(route: Route<unknown, unknown>): SecurityScheme<unknown>[] {
    const out: SecurityScheme<unknown>[] = [];
    for (const requirement of route.meta.security ?? this.#security) {
      for (const name of Object.keys(requirement)) {
        const s = this.#securitySchemes.get(name);
        if (s !== undefined && !out.includes(s)) out.push(s);
      }
    }
    return out;
  }

  /**
   * Wires every registered route into the transport, then serves. Every registered route must
   * have a handler: the document lists it, so serving it without one would answer 404 where the
   * document promises an operation. With the transport's `addr` it listens until `signal` aborts, then shuts
   * down gracefully: no new connections, idle keep-alive connections closed, in-flight requests
   * answered (with `Connection: close`); it resolves once they are, or after `shutdownTimeout`
   * milliseconds (default 10 000), when every connection left is destroyed — in both cases only
   * after the temporary files of every request (`codec.blob()` uploads) are deleted, so a process
   * may exit as soon as it resolves. It always resolves after an abort. Without an `addr` it
   * resolves once the routes are wired.
   * @throws {Error} when no transport is attached; rejects with the transport's errors (a port in use).
   * @throws {RouteDeclarationError} when a registered route has no handler (naming every such route).
   * @throws {RangeError} for a `shutdownTimeout` that is not a non-negative finite number.
   */
  async serve(options?: ServeOptions): Promise<void> {
    const shutdownTimeout = options?.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT;
    if (typeof shutdownTimeout !== 'number' || !Number.isFinite(shutdownTimeout) || shutdownTimeout < 0) {
      throw new RangeError(`shutdownTimeout must be a non-negative number of milliseconds, got ${String(shutdownTimeout)}`);
    }
    const transport = this.#transport;
    if (transport === undefined) throw new Error('no server transport attached: call api.attach(transport) first');
    // A registered route is documented: serving it without a handler would answer 404 where the document promises it.
    const unserved = this.handles().filter((h) => h.route.handler === undefined);
    if (unserved.length > 0) {
      const ids = unserved.map((h) => h.route.id).join(', ');
      throw new RouteDeclarationError(unserved[0]?.route.id ?? '', `registered without a handler (${ids}): give each one with route.withHandler(fn) before register; a builder that only documents routes is not served`);
    }
    installJit(); // Codecs decode requests through compiled code, in a bundle too (@lib/codec is "sideEffects": false).
    const settings = this.servingSettings();
    const prepared = this.handles().map((h) => {
      checkCoverage(h.route, transport, this.#schemesOf(h.route));
      // The adapter routes the prefixed template; the pipeline and the handler see the route's own.
      return prepareRoute(h, settings);
    });
    transport.mount(prepared, prepareFallback(this.defaultOptions, this.#cors, this.errorRules));
    await transport.serve({ signal: options?.signal, shutdownTimeout });
  }

  /** The document's servers: each URL with the base path, or the base path alone when none was added. */
  #documentedServers(): ServerDescriptor[] {
    const base = this.basePath;
    if (base === '') return this.#servers;
    if (this.#servers.length === 0) return [{ name: '', url: base }];
    return this.#servers.map((s) => ({ ...s, url: (s.url.endsWith('/') ? s.url.slice(0, -1) : s.url) + base }));
  }

  /**
   * The OpenAPI 3.1 document of every registered route, except those declared `hidden`.
   * @throws {import('@lib/codec').SchemaNameConflictError} when two different schemas share a name.
   * @throws {RouteDeclarationError} when a link names an operation the document does not have, or a parameter value starting with `$` is not a runtime expression.
   */
  openAPISpec(): Document {
    const documented = this.handles().filter((h) => h.route.meta.hidden !== true);
    const settings = this.servingSettings();
    // OpenAPI 3.1 §4.8.20: a link's operationId names an operation of the document.
    const operations = new Set(documented.map((h) => h.route.meta.operationId));
    for (const h of documented) {
      for (const [name, link] of Object.entries(h.route.meta.links ?? {})) {
        if (!operations.has(link.operationId)) throw new RouteDeclarationError(h.route.id, `link ${JSON.stringify(name)} names operation ${JSON.stringify(link.operationId)}, which no documented route has`);
        for (const [param, value] of [...Object.entries(link.parameters ?? {}), ...(link.requestBody === undefined ? [] : [['requestBody', link.requestBody] as const])]) {
          if (value.startsWith('$') && !RUNTIME_EXPRESSION.test(value)) {
            throw new RouteDeclarationError(h.route.id, `link ${JSON.stringify(name)}: ${param}: ${JSON.stringify(value)} is not a runtime expression ($response.body#/id, $request.path.id, $response.header.Location, …)`);
          }
        }
      }
    }
    return renderDocument({
      info: this.info,
      servers: this.#documentedServers(),
      routes: documented.map((h) => describeRoute(h, settings)),
      ...(this.#securitySchemes.size > 0 && { securitySchemes: Object.fromEntries([...this.#securitySchemes].map(([name, s]) => [name, s.object])) }),
      ...(this.#security.length > 0 && { security: this.#security }),
      ...(this.#tags.length > 0 && { tags: this.#tags }),
      ...(this.#externalDocs !== undefined && { externalDocs: this.#externalDocs }),
    });
  }
}

/** A runtime expression (OpenAPI 3.1 §4.8.20.4), whole: `$url`, `$method`, `$statusCode`, or a header, query, path or body of the request or response. */
const RUNTIME_EXPRESSION = /^\$(?:url|method|statusCode|(?:request|response)\.(?:header\.[!#$%&'*+.^_`|~0-9A-Za-z-]+|query\.\S+|path\.\S+|body(?:#(?:\/(?:[^~/]|~[01])*)*)?))$/;

/** Creates a builder: `rest.newServer({ title: 'Users', version: '1.0.0' }, rest.withPathConstraints(validate.httpPath))`. */
export function newServer(info: InfoDescriptor, ...options: ServerOption[]): Server {
  return new Server(info, options);
}
