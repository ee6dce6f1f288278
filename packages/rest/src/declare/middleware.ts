import type { Codec } from '@lib/codec';
import { contextKey, type Context, type ContextKey } from './context.js';
import { AmbiguousMiddlewareAttachmentError, DuplicateMiddlewareNameError, MiddlewareInputError } from './errors.js';
import { RequestBuildError } from './http-errors.js';
import { isToken } from './http-grammar.js';
import { FORBIDDEN_HEADER_PARAMS, paramKey, RequestMergeParam, ResponseMergeParam, type AnyParam, type ParamKind } from './params.js';
import { RouteDeclarationError } from './path-template.js';
import { requestParamSpec, type RequestParamSpec } from './param-values.js';

/**
 * A middleware declaration: a name and the codecs of what the middleware reads from the request
 * (`In`) and what it produces (`Out`). Shared by server and client; create one with
 * {@link declaration}. Every middleware built from it ({@link newMiddleware} and the `with*`
 * copies) stores its output under the same context key.
 */
export class Declaration<In, Out> {
  /** The middleware's name: in error messages, and unique among the middleware of one route. */
  readonly name: string;
  /** The codec of the input: checked with `inCodec.validate` once the merge fields filled it. */
  readonly inCodec: Codec<In>;
  /** The codec of the output: the function's result must encode through it (structurally). */
  readonly outCodec: Codec<Out>;
  /** Where the server stores the output for the handler: `ctx.get(decl.contextKey)`, or `mw.output(ctx)`. */
  readonly contextKey: ContextKey<Out>;

  /** Use {@link declaration}. */
  constructor(name: string, inCodec: Codec<In>, outCodec: Codec<Out>) {
    this.name = name;
    this.inCodec = inCodec;
    this.outCodec = outCodec;
    this.contextKey = contextKey<Out>(`middleware ${name}`);
  }
}

/**
 * Declares a middleware (Go's `rest.Declaration`): `In` and `Out` are inferred from the codecs.
 * `In` is usually `codec.empty<In>()` or an object codec whose fields the merge fields fill;
 * `Out` is what the handler reads with `mw.output(ctx)`.
 *
 * ```ts
 * const requestIdDecl = rest.declaration('requestId',
 *   codec.object({ requestId: codec.optional(codec.string()) }), codec.object({ requestId: codec.string() }));
 * ```
 * @throws {TypeError} when `name` is empty.
 */
export function declaration<In, Out>(name: string, inCodec: Codec<In>, outCodec: Codec<Out>): Declaration<In, Out> {
  if (typeof name !== 'string' || name === '') throw new TypeError('a middleware declaration needs a non-empty name');
  return new Declaration(name, inCodec, outCodec);
}

/** A route-agnostic server function, bundled with `mw.withReceive`: the decoded input in, the output out. */
export type ReceiveFunc<In, Out> = (ctx: Context, input: In) => Out | Promise<Out>;
/** A route-agnostic client function, bundled with `mw.withSend`: gives the input the client writes into the request. */
export type SendFunc<In> = () => In | Promise<In>;
/** A route-bound server function (`route.handleMW`): also receives the route's decoded, merged request. */
export type BoundReceiveFunc<Req, In, Out> = (ctx: Context, req: Req, input: In) => Out | Promise<Out>;
/** A route-bound client function (`route.clientMW`): computes the input from the call's request value. */
export type BoundSendFunc<Req, In> = (req: Req) => In | Promise<In>;

/** The parts of a {@link Middleware}. */
export interface MiddlewareFields<In, Out> {
  readonly declaration: Declaration<In, Out>;
  readonly requestParams: readonly RequestMergeParam<In, unknown>[];
  readonly responseParams: readonly ResponseMergeParam<Out, unknown>[];
  readonly receive: ReceiveFunc<In, Out> | undefined;
  readonly send: SendFunc<In> | undefined;
}


/** The words a parameter kind is named with in messages. */
const KIND_WORDS: Readonly<Record<ParamKind, string>> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header',
  cookie: 'cookie',
  responseHeader: 'response header',
  responseCookie: 'response cookie',
};

/**
 * A codec-backed middleware (Go's `rest.NewMiddleware`): its declaration, the merge fields that
 * fill `In` from the request (headers, cookies, query parameters) and that write `Out` into the
 * response (headers, `Set-Cookie`), and optionally its bundled functions. Immutable: every
 * `with*` method returns a new middleware with the same declaration.
 *
 * Attach it per route with `route.handleMW(mw, fn)` / `route.clientMW(mw, fn)` (functions bound
 * to the route), or bundle the functions with {@link Middleware.withReceive} /
 * {@link Middleware.withSend} and attach with `route.use(mw)` or `api.use(mw)`.
 *
 * On the server it runs after the request's parameters and body are decoded and merged, before
 * the handler: `In` starts as a fresh `{}` that the request merge fields fill, then
 * `inCodec.validate` checks it (failures: `MiddlewareInputError`, 400); the function runs (an
 * error no route rule matches: `MiddlewareError`, 400); its result must encode through `outCodec`
 * and the response merge fields (else `MiddlewareOutputError`, 500), and is then stored in the
 * context for the handler ({@link Middleware.output}).
 */
export class Middleware<In, Out> {
  /** The declaration: name, codecs and context key. */
  readonly declaration: Declaration<In, Out>;
  /** Request merge fields (header, cookie and query), in order: they fill `In` on the server and are written from `In` by the client. */
  readonly requestParams: readonly RequestMergeParam<In, unknown>[];
  /** Response merge fields (header and cookie), in order: encoded from `Out` into every response the middleware took part in. */
  readonly responseParams: readonly ResponseMergeParam<Out, unknown>[];
  /** The bundled server function ({@link Middleware.withReceive}). */
  readonly receive: ReceiveFunc<In, Out> | undefined;
  /** The bundled client function ({@link Middleware.withSend}). */
  readonly send: SendFunc<In> | undefined;

  /** Use {@link newMiddleware}. */
  constructor(fields: MiddlewareFields<In, Out>) {
    this.declaration = fields.declaration;
    this.requestParams = fields.requestParams;
    this.responseParams = fields.responseParams;
    this.receive = fields.receive;
    this.send = fields.send;
  }

  /** The declaration's name. */
  get name(): string {
    return this.declaration.name;
  }

  /** The context key of the output (the declaration's): `ctx.get(mw.contextKey)` equals `mw.output(ctx)`. */
  get contextKey(): ContextKey<Out> {
    return this.declaration.contextKey;
  }

  /**
   * A route's middleware list with this middleware attached: bound to one side's function
   * (`route.handleMW` gives `{ receive }`, `route.clientMW` gives `{ send }`), or, without `side`,
   * used with its bundled functions (`route.use`). Routes call this; it lives here so that a
   * route that uses no middleware carries none of this code.
   * @throws {AmbiguousMiddlewareAttachmentError} @throws {DuplicateMiddlewareNameError}
   * @throws {RouteDeclarationError} as `route.handleMW`, `route.clientMW` and `route.use` document.
   */
  attachTo(routeId: string, routeParams: readonly AnyParam[], list: readonly MiddlewareAttachment[], side?: { readonly receive: MiddlewareAttachment['receive'] } | { readonly send: MiddlewareAttachment['send'] }): MiddlewareAttachment[] {
    const self = this as unknown as Middleware<unknown, unknown>;
    return side === undefined ? useMiddleware(routeId, routeParams, list, self) : bindMiddleware(routeId, routeParams, list, self, side);
  }

  /**
   * One client call's input of this middleware: `send(req)`, checked with `inCodec.validate`,
   * with the request parameters the client writes from it.
   * @throws {RequestBuildError} `send` threw (the `cause`), or its input failed
   * `inCodec.validate` (the `cause` is a `MiddlewareInputError`). Nothing is sent.
   */
  async clientInput(send: (req: unknown) => unknown, req: unknown): Promise<ClientMiddlewareInput> {
    const self = this as unknown as Middleware<unknown, unknown>;
    let input: unknown;
    try {
      input = await send(req);
    } catch (err) {
      throw new RequestBuildError(`middleware ${JSON.stringify(this.name)}`, err);
    }
    try {
      self.declaration.inCodec.validate(input);
    } catch (err) {
      throw new RequestBuildError('the request is invalid', new MiddlewareInputError(this.name, err));
    }
    return { middleware: self, input, params: middlewareParamSpecs(self) };
  }

  /** True when a function is bundled ({@link Middleware.withReceive} or {@link Middleware.withSend}). */
  get bundled(): boolean {
    return this.receive !== undefined || this.send !== undefined;
  }

  /** Every parameter the middleware declares, request fields first: for OpenAPI and transport checks. */
  get params(): readonly AnyParam[] {
    return [...this.requestParams, ...this.responseParams] as unknown as readonly AnyParam[];
  }

  /**
   * The output this middleware (any middleware of the same declaration) produced for the current
   * request, typed `Out`: in the handler, in a later middleware, in an `errorHandler`.
   * `undefined` when it has not run for this request (it is not attached to the route, or the
   * request failed before it).
   */
  output(ctx: Context): Out | undefined {
    return ctx.get(this.declaration.contextKey);
  }

  /**
   * A copy that reads a request header into `In` (`rest.newRequiredHeaderParam(name, codec, get,
   * set)` or `newOptionalHeaderParam`; the getter and setter are typed on `In`).
   * @throws {TypeError} when `param` is not a header parameter, its name is not an HTTP token
   * (RFC 9110 §5.6.2), it is `Accept`, `Content-Type` or `Authorization`, or the middleware
   * already declares it.
   */
  withRequestHeader<T>(param: RequestMergeParam<In, T>): Middleware<In, Out> {
    return this.#withRequest('header', param as unknown as RequestMergeParam<In, unknown>);
  }

  /**
   * A copy that reads a request cookie into `In` (`rest.newRequiredCookieParam`, `newOptionalCookieParam`).
   * @throws {TypeError} when `param` is not a cookie parameter, its name is not a token, or it is declared twice.
   */
  withRequestCookie<T>(param: RequestMergeParam<In, T>): Middleware<In, Out> {
    return this.#withRequest('cookie', param as unknown as RequestMergeParam<In, unknown>);
  }

  /**
   * A copy that reads a query parameter into `In` (`rest.newRequiredQueryParam`,
   * `newOptionalQueryParam`; an array codec takes every value of the key).
   * @throws {TypeError} when `param` is not a query parameter or is declared twice.
   */
  withRequestQuery<T>(param: RequestMergeParam<In, T>): Middleware<In, Out> {
    return this.#withRequest('query', param as unknown as RequestMergeParam<In, unknown>);
  }

  /**
   * A copy that writes a field of `Out` as a response header (`rest.newRequiredResponseHeaderParam`,
   * `newOptionalResponseHeaderParam`), checked like a route's: it must pass its codec and be a
   * valid field value (RFC 9110 §5.5); a required one must be present.
   * @throws {TypeError} when `param` is not a response header, its name is not a token, or it is declared twice.
   */
  withResponseHeader<T>(param: ResponseMergeParam<Out, T>): Middleware<In, Out> {
    return this.#withResponse('responseHeader', param as unknown as ResponseMergeParam<Out, unknown>);
  }

  /**
   * A copy that writes a field of `Out` as a response cookie (`rest.newRequiredResponseCookieParam`,
   * `newOptionalResponseCookieParam`, with `.withAttributes(out => attrs)`); the defaults are a
   * route's: `Path=/; Secure; HttpOnly; SameSite=Strict`.
   * @throws {TypeError} when `param` is not a response cookie, its name is not a token, or it is declared twice.
   */
  withResponseCookie<T>(param: ResponseMergeParam<Out, T>): Middleware<In, Out> {
    return this.#withResponse('responseCookie', param as unknown as ResponseMergeParam<Out, unknown>);
  }

  /**
   * A copy with a bundled server function: `route.use(mw)` and `api.use(mw)` run it. It receives
   * the decoded input and returns the output (or a promise of it); what it throws is handled as
   * for `route.handleMW`.
   */
  withReceive(fn: ReceiveFunc<In, Out>): Middleware<In, Out> {
    return new Middleware({ ...this.#fields(), receive: fn });
  }

  /**
   * A copy with a bundled client function: calls of a route with `route.use(mw)` run it and
   * write the input's merge fields into the request. A throw aborts the call with
   * `RequestBuildError`; nothing is sent.
   */
  withSend(fn: SendFunc<In>): Middleware<In, Out> {
    return new Middleware({ ...this.#fields(), send: fn });
  }

  #fields(): MiddlewareFields<In, Out> {
    return { declaration: this.declaration, requestParams: this.requestParams, responseParams: this.responseParams, receive: this.receive, send: this.send };
  }

  #check(kind: ParamKind, param: { readonly kind: string; readonly name: string }, method: string): void {
    const what = `middleware ${JSON.stringify(this.name)}`;
    if (param.kind !== kind) throw new TypeError(`${what}: ${method} takes a ${KIND_WORDS[kind]} parameter, got a ${KIND_WORDS[param.kind as ParamKind] ?? param.kind} parameter`);
    if (kind !== 'query' && !isToken(param.name)) throw new TypeError(`${what}: ${KIND_WORDS[kind]} name ${JSON.stringify(param.name)} is not an HTTP token (RFC 9110 §5.6.2)`);
    if (kind === 'header' && FORBIDDEN_HEADER_PARAMS.has(param.name.toLowerCase())) {
      throw new TypeError(`${what}: ${param.name} may not be declared as a header parameter; request formats and security schemes describe it`);
    }
    const key = paramKey(param);
    if (this.params.some((p) => paramKey(p) === key)) throw new TypeError(`${what}: ${KIND_WORDS[kind]} ${JSON.stringify(param.name)} is declared twice`);
  }

  #withRequest(kind: 'header' | 'cookie' | 'query', param: RequestMergeParam<In, unknown>): Middleware<In, Out> {
    this.#check(kind, param, `withRequest${kind === 'header' ? 'Header' : kind === 'cookie' ? 'Cookie' : 'Query'}`);
    try {
      requestParamSpec(param as RequestMergeParam<unknown, unknown>);
    } catch (err) {
      throw new TypeError(`middleware ${JSON.stringify(this.name)}: ${KIND_WORDS[kind]} ${JSON.stringify(param.name)}: ${(err as Error).message}`);
    }
    return new Middleware({ ...this.#fields(), requestParams: [...this.requestParams, param] });
  }

  #withResponse(kind: 'responseHeader' | 'responseCookie', param: ResponseMergeParam<Out, unknown>): Middleware<In, Out> {
    this.#check(kind, param, kind === 'responseHeader' ? 'withResponseHeader' : 'withResponseCookie');
    return new Middleware({ ...this.#fields(), responseParams: [...this.responseParams, param] });
  }
}

/**
 * A middleware for a declaration (Go's `rest.NewMiddleware`), without merge fields or
 * functions yet: add them with the `with*` methods.
 */
export function newMiddleware<In, Out>(decl: Declaration<In, Out>): Middleware<In, Out> {
  return new Middleware({ declaration: decl, requestParams: [], responseParams: [], receive: undefined, send: undefined });
}

/**
 * A middleware as attached to a route or a builder, with the functions that run on each side.
 * Bound attachments come from `route.handleMW` / `route.clientMW` (one attachment holds both
 * when the same middleware value is given to both); the others from `route.use` / `api.use`,
 * whose functions are the middleware's bundled ones.
 */
export interface MiddlewareAttachment {
  /** The middleware, with its declaration and merge fields. */
  readonly middleware: Middleware<unknown, unknown>;
  /** The server function: `(ctx, req, input) => out`. */
  readonly receive: ((ctx: Context, req: unknown, input: unknown) => unknown) | undefined;
  /** The client function: `(req) => input`. */
  readonly send: ((req: unknown) => unknown) | undefined;
  /** True for `handleMW` / `clientMW`, false for `use`. */
  readonly bound: boolean;
}

/** The attachment `route.use` / `api.use` make of a middleware with bundled functions. */
export function bundledAttachment(mw: Middleware<unknown, unknown>): MiddlewareAttachment {
  const { receive, send } = mw;
  return {
    middleware: mw,
    receive: receive === undefined ? undefined : (ctx, _req, input) => receive(ctx, input),
    send: send === undefined ? undefined : () => send(),
    bound: false,
  };
}

/**
 * Checks the middleware that will run on one route, in order (the builder's, then the route's):
 * names unique, no declaration both bundled and bound, and no parameter declared by two of them
 * or by one of them and the route.
 * @throws {AmbiguousMiddlewareAttachmentError} @throws {DuplicateMiddlewareNameError}
 * @throws {RouteDeclarationError} a parameter declared twice.
 */
export function checkMiddleware(routeId: string, routeParams: readonly AnyParam[], list: readonly MiddlewareAttachment[]): void {
  if (list.length === 0) return;
  for (let i = 0; i < list.length; i++) {
    const a = list[i] as MiddlewareAttachment;
    for (let j = i + 1; j < list.length; j++) {
      const b = list[j] as MiddlewareAttachment;
      if (a.middleware.name !== b.middleware.name) continue;
      if (a.middleware.declaration === b.middleware.declaration && a.bound !== b.bound) throw new AmbiguousMiddlewareAttachmentError(a.middleware.name);
      throw new DuplicateMiddlewareNameError(routeId, a.middleware.name);
    }
  }
  const owners = new Map<string, string>();
  for (const p of routeParams) owners.set(paramKey(p), 'the route');
  for (const a of list) {
    for (const p of a.middleware.params) {
      const key = paramKey(p);
      const owner = owners.get(key);
      if (owner !== undefined) {
        throw new RouteDeclarationError(routeId, `${KIND_WORDS[p.kind]} ${JSON.stringify(p.name)} is declared by ${owner} and by middleware ${JSON.stringify(a.middleware.name)}`);
      }
      owners.set(key, `middleware ${JSON.stringify(a.middleware.name)}`);
    }
  }
}

/**
 * The route's middleware list with `mw` bound on one side (`route.handleMW`, `route.clientMW`).
 * The same middleware value bound on the other side before is completed, not duplicated.
 * @throws {AmbiguousMiddlewareAttachmentError} `mw` has bundled functions, or the route uses a bundled middleware of its declaration.
 * @throws {DuplicateMiddlewareNameError} @throws {RouteDeclarationError} as {@link checkMiddleware}.
 */
export function bindMiddleware(
  routeId: string,
  routeParams: readonly AnyParam[],
  list: readonly MiddlewareAttachment[],
  mw: Middleware<unknown, unknown>,
  side: { readonly receive: MiddlewareAttachment['receive'] } | { readonly send: MiddlewareAttachment['send'] },
): MiddlewareAttachment[] {
  if (mw.bundled) throw new AmbiguousMiddlewareAttachmentError(mw.name);
  const i = list.findIndex((a) => a.bound && a.middleware === mw && ('receive' in side ? a.receive === undefined : a.send === undefined));
  if (i >= 0) {
    const out = [...list];
    out[i] = { ...(list[i] as MiddlewareAttachment), ...side };
    return out;
  }
  const attachment: MiddlewareAttachment = { middleware: mw, receive: undefined, send: undefined, bound: true, ...side };
  const out = [...list, attachment];
  checkMiddleware(routeId, routeParams, out);
  return out;
}

/**
 * The route's middleware list with `mw` used (`route.use`): `mw` must have a bundled function.
 * @throws {RouteDeclarationError} `mw` has neither `withReceive` nor `withSend`.
 * @throws {AmbiguousMiddlewareAttachmentError} the route binds the same declaration with `handleMW`/`clientMW`.
 * @throws {DuplicateMiddlewareNameError} @throws {RouteDeclarationError} as {@link checkMiddleware}.
 */
export function useMiddleware(routeId: string, routeParams: readonly AnyParam[], list: readonly MiddlewareAttachment[], mw: Middleware<unknown, unknown>): MiddlewareAttachment[] {
  if (!mw.bundled) {
    throw new RouteDeclarationError(routeId, `middleware ${JSON.stringify(mw.name)} has no function to run: bundle one with mw.withReceive / mw.withSend, or bind one with route.handleMW / route.clientMW`);
  }
  const out = [...list, bundledAttachment(mw)];
  checkMiddleware(routeId, routeParams, out);
  return out;
}

/** The request parameters of a middleware, as the pipeline and the client check them. */
export function middlewareParamSpecs(mw: Middleware<unknown, unknown>): RequestParamSpec[] {
  return mw.requestParams.map((p) => requestParamSpec(p as RequestMergeParam<unknown, unknown>));
}

/** A client function's result: the middleware's input and its request parameters. */
export interface ClientMiddlewareInput {
  readonly middleware: Middleware<unknown, unknown>;
  readonly input: unknown;
  readonly params: readonly RequestParamSpec[];
}
