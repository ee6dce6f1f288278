import { Codec, EmptyCodec, map, mayBeAbsent, ObjectCodec, OptionalCodec, type FieldShape, type Infer, type InferInput, type ObjectInput, type ObjectOutput, type SchemaLike, type Simplify } from '@lib/codec';
import type { Format } from '@lib/format';
import type { LinkDescriptor, SecurityRequirement } from '@lib/openapi';
import type { Context, SignedInContext } from './context.js';
import { ErrorPattern, type ErrorStatusRule, type Status, type StatusNumber } from './error-rules.js';
import { formats as responseFormats, requestFormats } from './formats.js';
import { asCodec, RequestMergeParam, ResponseMergeParam, type CookieAttributes, type ParamKind, type ParamLocation } from './params.js';
import { PARAM_STYLE_SUPPORT } from './param-styles.js';
import { installParamStyles } from './param-values.js';
import { Styled, type CookieParamStyle, type HeaderParamStyle, type ParamStyle, type ParamStyleOptions, type PathParamStyle, type QueryParamStyle } from './styled.js';
import { RouteDeclarationError } from './path-template.js';
import type { PathVars } from './redirect.js';
import { responseMeta, routeMeta, type ResponseMetaFields, type RouteMetaFields } from './route-meta.js';
import type { RouteOption } from './route-option.js';
import { declareRoute, type DeclaredErrors, type Route } from './route.js';
import { SuccessResponseOption, type DeclaredSuccess } from './success.js';
import type { AnyParam } from './params.js';

/**
 * A parameter whose wire name differs from its field name: `rest.named('X-Tenant-ID', tenant)`
 * reads the `X-Tenant-ID` header into the request field the entry is declared under.
 */
export class Named<C> {
  /** The name on the wire: the header, cookie or query key. */
  readonly wireName: string;
  /** The codec or Standard Schema (or response cookie) of the value. */
  readonly value: C;
  /** The parameter's description in OpenAPI. */
  readonly description: string | undefined;
  constructor(wireName: string, value: C, description?: string) {
    this.wireName = wireName;
    this.value = value;
    this.description = description;
  }
  /** A copy with a parameter description for OpenAPI. */
  withDescription(description: string): Named<C> {
    return new Named(this.wireName, this.value, description);
  }
}

/**
 * Names a parameter on the wire: `headers: { tenantId: rest.named('X-Tenant-ID', codec.string()) }`
 * declares the header `X-Tenant-ID`, read into (and sent from) the field `tenantId`. The value
 * is a codec, a Standard Schema (`rest.named('X-Tenant-ID', z.uuid())`), a styled one
 * (`rest.named('X-Ids', rest.styled(codec.array(codec.intString())))`) or, for a response
 * cookie, `rest.responseCookie(...)`.
 */
export function named<C extends SchemaLike | ResponseCookieField<SchemaLike> | Styled<SchemaLike>>(wireName: string, value: C): Named<C> {
  return new Named(wireName, value);
}

/**
 * A path, query, header or cookie parameter in a style of OpenAPI 3.1 §4.8.12.4 (RFC 6570
 * expansions and the query conventions), as an entry of `pathParams`, `query`, `headers` or
 * `cookies` of `rest.route({...})`, inside `rest.named(wireName, rest.styled(...))`, or as the
 * codec of a merge parameter of `rest.newRoute` (`rest.newOptionalQueryParam('ids',
 * rest.styled(ids, { style: 'pipeDelimited' }), get, set)`):
 *
 * ```ts
 * query: { ids: rest.styled(codec.array(codec.intString()), { style: 'pipeDelimited' }) }  // ?ids=3|4|5
 * pathParams: { ids: rest.styled(codec.array(codec.intString()), { style: 'label', explode: true }) }  // /items/.3.4.5
 * query: { color: rest.styled(codec.object({ R: codec.intString(), G: codec.intString() }), { style: 'deepObject' }) }  // ?color[R]=100&color[G]=200
 * headers: { ids: rest.named('X-Ids', rest.styled(codec.array(codec.intString()))) }  // X-Ids: 3,4,5
 * ```
 *
 * `codec` (a codec or a Standard Schema) is the value's: a list of texts (`codec.array(...)` of
 * `intString`, `numberString`, `boolString`, `string`…), an object of texts (`codec.object(...)`
 * of those; `codec.record(...)`), or a single text. A list or an object needs a style anywhere but
 * a list in a query, which is read from repeated keys as always (`?ids=3&ids=4`): without options,
 * the location's default — `simple` in a path or header (`3,4,5`), exploded `form` in a query (an
 * object's properties as keys, `?R=100&G=200`) — and a cookie carries them only with `explode:
 * false` (`ids=3,4,5`). `options.style` is one of the location's styles — path `simple`
 * (default), `label`, `matrix`; query `form` (default), `spaceDelimited`, `pipeDelimited`,
 * `deepObject`; header `simple`; cookie `form` — and `options.explode` defaults to true for
 * `form` and `deepObject`, false otherwise. The server reads the value in its style (a text not
 * of it is a 400 naming the parameter, as a value its codec refuses); the client, `buildPath` and
 * `@lib/testing` write it so, percent-encoding items as RFC 6570 §3.2.1 does; the document writes
 * `style` and `explode` where they differ from their defaults. The functions that read and write
 * styles are loaded with the first `rest.styled`: a browser client whose routes declare none does
 * not carry them.
 *
 * The combination is checked when the route is declared: `rest.route` throws a
 * `RouteDeclarationError` for a list or an object without `rest.styled` (but a list in a query), a
 * style of another location, `spaceDelimited`/`pipeDelimited` of a single text or exploded,
 * `deepObject` of a non-object or not exploded, an exploded `form` object without declared
 * properties (a record) or whose property is another query parameter's name, a list or object in a
 * cookie exploded, and `rest.styled` among response headers or cookies.
 */
export function styled<C extends SchemaLike, const S extends ParamStyle = never>(codec: C, options: ParamStyleOptions<S> = {}): Styled<C, S> {
  // Styles are read and written by functions a route carries only when it declares one: here.
  installParamStyles(PARAM_STYLE_SUPPORT);
  return new Styled(codec, options);
}

/** A response cookie of the object form, with its `Set-Cookie` attributes (RFC 6265 §4.1). */
export class ResponseCookieField<C extends SchemaLike> {
  /** The codec or Standard Schema of the cookie's value. */
  readonly codec: C;
  /** The attributes sent with it; unset ones take the defaults `Path=/; Secure; HttpOnly; SameSite=Strict`. */
  readonly attributes: CookieAttributes;
  constructor(codec: C, attributes: CookieAttributes) {
    this.codec = codec;
    this.attributes = attributes;
  }
}

/**
 * A response cookie with attributes, for `responseCookies`:
 * `{ session: rest.responseCookie(sessionCodec, { maxAge: 3600 }) }` sends
 * `Set-Cookie: session=…; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Strict`. The value's
 * codec may be a Standard Schema (`rest.responseCookie(z.string().min(8))`).
 */
export function responseCookie<C extends SchemaLike>(codec: C, attributes: CookieAttributes = {}): ResponseCookieField<C> {
  return new ResponseCookieField(codec, attributes);
}

/**
 * A success response of `successes` whose headers or cookies differ from the route's, or that
 * has a description of its own; see {@link success}.
 */
export class SuccessField<B extends SchemaLike | null, RH, RC> {
  /** The body codec or Standard Schema; `null` for a response without content. */
  readonly body: B;
  /** The response's description in the document. */
  readonly description: string | undefined;
  /** Its response headers, in place of the route's; `undefined`: the route's. */
  readonly headers: RH | undefined;
  /** Its response cookies, in place of the route's; `undefined`: the route's. */
  readonly cookies: RC | undefined;
  constructor(body: B, options: { readonly description?: string | undefined; readonly headers?: RH | undefined; readonly cookies?: RC | undefined }) {
    this.body = body;
    this.description = options.description;
    this.headers = options.headers;
    this.cookies = options.cookies;
  }
}

/**
 * A success response of `rest.route({ successes })` with its own description, headers or
 * cookies: `successes: { 201: rest.success(todo, { description: 'Created', headers: { location: rest.named('Location', codec.string()) } }) }`.
 * Given, `headers` and `cookies` replace the route's `responseHeaders` and `responseCookies`
 * for this status (its value holds the body's fields and these). `body` is a codec, a Standard
 * Schema, or `null` for a response without content (202, 204).
 */
export function success<B extends SchemaLike | null, const RH extends ParamEntries<ParamEntry> | undefined = undefined, const RC extends ParamEntries<ResponseCookieEntry> | undefined = undefined>(
  body: B,
  options: { readonly description?: string; readonly headers?: RH; readonly cookies?: RC } = {},
): SuccessField<B, RH, RC> {
  return new SuccessField(body, options);
}

/** An entry of `successes`: a body codec or Standard Schema, `null` for a response without content, or {@link success}. */
export type SuccessEntry = SchemaLike | null | SuccessField<SchemaLike | null, ParamEntries<ParamEntry> | undefined, ParamEntries<ResponseCookieEntry> | undefined>;
/** The `successes` of a route: other success responses (RFC 9110 §15.3), by status. */
export type SuccessEntries = { readonly [status: number]: SuccessEntry };

/** A path parameter entry: the codec (or Standard Schema) of the template variable of the same name, or `rest.styled(codec, { style })` of it. */
export type PathParamEntry = SchemaLike | Styled<SchemaLike, PathParamStyle>;
/** A query, header or cookie entry: a codec or Standard Schema, or `rest.named(wireName, codec)`. */
export type ParamEntry = SchemaLike | Named<SchemaLike>;
/** A query entry: a {@link ParamEntry}, or `rest.styled(codec, { style })` (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`), under `rest.named` or not. */
export type QueryParamEntry = ParamEntry | Styled<SchemaLike, QueryParamStyle> | Named<Styled<SchemaLike, QueryParamStyle>>;
/** A request header entry: a {@link ParamEntry}, or `rest.styled(codec, { explode })` (style `simple`), under `rest.named` or not. */
export type HeaderParamEntry = ParamEntry | Styled<SchemaLike, HeaderParamStyle> | Named<Styled<SchemaLike, HeaderParamStyle>>;
/** A request cookie entry: a {@link ParamEntry}, or `rest.styled(codec, { explode: false })` (style `form`), under `rest.named` or not. */
export type CookieParamEntry = ParamEntry | Styled<SchemaLike, CookieParamStyle> | Named<Styled<SchemaLike, CookieParamStyle>>;
/** A response cookie entry: a codec or Standard Schema, `rest.responseCookie(codec, attributes)`, or either under `rest.named`. */
export type ResponseCookieEntry = SchemaLike | ResponseCookieField<SchemaLike> | Named<SchemaLike | ResponseCookieField<SchemaLike>>;
/** A map of field names to parameter entries. */
export type ParamEntries<E> = { readonly [key: string]: E };

/** The codec (or Standard Schema) of a parameter entry. */
export type EntryCodec<E> = E extends Named<infer X> ? EntryCodec<X> : E extends Styled<infer C, ParamStyle> ? C : E extends ResponseCookieField<infer C> ? C : E extends SchemaLike ? E : never;
type EntryShape<M> = { readonly [K in keyof M]: EntryCodec<M[K]> };
type AsShape<T> = T extends FieldShape ? T : never;

/** The fields a map of entries gives the request or response value. */
export type EntryFields<M> = [M] extends [undefined] ? {} : ObjectOutput<AsShape<EntryShape<M>>>;
/** The fields a caller gives for a map of entries (optional and defaulted ones may be left out). */
export type EntryInputFields<M> = [M] extends [undefined] ? {} : ObjectInput<AsShape<EntryShape<M>>>;

type NoKeys<M> = [keyof M] extends [never] ? true : [M] extends [undefined] ? true : false;

/** The request fields of a body codec: an object's fields at the top level, any other value under `body`. */
export type BodyFields<B> = [B] extends [undefined] ? {} : B extends ObjectCodec<infer S> ? ObjectOutput<S> : ObjectOutput<AsShape<{ readonly body: B }>>;
/** What a caller gives for a body codec. */
export type BodyInputFields<B> = [B] extends [undefined] ? {} : B extends ObjectCodec<infer S> ? ObjectInput<S> : ObjectInput<AsShape<{ readonly body: B }>>;

/** The request value of the object form: the body's fields and every parameter's field. */
export type RouteRequest<B, PP, Q, H, C> = Simplify<BodyFields<B> & EntryFields<PP> & EntryFields<Q> & EntryFields<H> & EntryFields<C>>;
/** What a caller sends for the object form: like {@link RouteRequest}, defaulted fields optional. */
export type RouteRequestInput<B, PP, Q, H, C> = Simplify<BodyInputFields<B> & EntryInputFields<PP> & EntryInputFields<Q> & EntryInputFields<H> & EntryInputFields<C>>;

/**
 * The response value of the object form: the response object's fields with the response
 * headers and cookies beside them; a non-object response stands alone, or sits under `body`
 * when headers or cookies travel with it; `void` for a route without response body or fields.
 */
export type RouteResponse<R, RH, RC> =
  [R] extends [undefined] ? (NoKeys<RH> extends true ? (NoKeys<RC> extends true ? void : Simplify<EntryFields<RH> & EntryFields<RC>>) : Simplify<EntryFields<RH> & EntryFields<RC>>)
  : R extends ObjectCodec<infer S> ? Simplify<ObjectOutput<S> & EntryFields<RH> & EntryFields<RC>>
  : NoKeys<RH> extends true ? (NoKeys<RC> extends true ? Infer<R> : Simplify<{ body: Infer<R> } & EntryFields<RH> & EntryFields<RC>>)
  : Simplify<{ body: Infer<R> } & EntryFields<RH> & EntryFields<RC>>;

/** The value of one entry of `successes`, with the route's response headers `RH` and cookies `RC` unless the entry has its own. */
export type SuccessEntryValue<E, RH, RC> =
  E extends SuccessField<infer B, infer H, infer C>
    ? RouteResponse<B extends SchemaLike ? B : undefined, [H] extends [undefined] ? RH : H, [H] extends [undefined] ? ([C] extends [undefined] ? RC : C) : [C] extends [undefined] ? {} : C>
    : E extends SchemaLike
      ? RouteResponse<E, RH, RC>
      : RouteResponse<undefined, RH, RC>;

/** The success responses of `successes`, one {@link DeclaredSuccess} per status. */
export type DeclaredSuccesses<SU, RH, RC> = { [K in keyof SU]: DeclaredSuccess<K & number, SuccessEntryValue<SU[K], RH, RC>> }[keyof SU];

/** The main success status of a route: `meta.respStatus`, else 201 for POST and 200 otherwise. */
export type MainStatus<M extends string, MT> = MT extends { readonly respStatus: infer S } ? StatusNumber<S> : Uppercase<M> extends 'POST' ? 201 : 200;


/**
 * The context a route's handler receives, by its security requirements: a `SignedInContext`
 * when every alternative names a scheme (credentials required), else the plain `Context`.
 */
export type HandlerContext<SEC extends readonly SecurityRequirement[]> = SEC extends readonly []
  ? Context
  : {} extends SEC[number]
    ? Context
    : SignedInContext;


/** Any error rule of a route: `rest.errorPattern(...)` or `rest.errorStatus(...)`. */
export type AnyErrorRule = ErrorPattern<any, any, Status> | ErrorStatusRule<any>;

/** The object form of a route declaration; see {@link route}. */
export interface RouteDefinition<M extends string, P extends string, PP, Q, H, C, B, R, RH, RC, E, SU = {}, MT extends RouteMetaFields = RouteMetaFields, SEC extends readonly SecurityRequirement[] = readonly SecurityRequirement[]> {
  /** The HTTP method (RFC 9110 §9), any case: `'GET'`, `'post'`. */
  readonly method: CheckedMethod<M, B>;
  /** The path template, variables as `{name}` filling a whole segment: `/todos/{id}`. */
  readonly path: CheckedPath<P, PP>;
  /** One codec per template variable, under the variable's name (checked against the template at compile time). */
  readonly pathParams?: PP;
  /** Query parameters: field → codec, or `rest.named(key, codec)`; `codec.optional`/`codec.defaulted` ones may be absent. */
  readonly query?: Q;
  /** Request headers: field → codec, or `rest.named('X-Header', codec)` (a field name is used as the header name as it is). */
  readonly headers?: H;
  /** Request cookies (RFC 6265 §5.4): field → codec, or `rest.named(cookieName, codec)`. */
  readonly cookies?: C;
  /**
   * The request body codec (POST, PUT and PATCH only). An object codec's fields sit at the top
   * level of the request value, beside the parameters; any other codec's value is its `body` field.
   * A codec that admits no value (`codec.optional(item)`) makes the body optional (OpenAPI
   * `requestBody.required: false`): `body` may be absent, and then no body is sent.
   */
  readonly body?: B;
  /** The response body codec; omitted for a response without body (204 by default for DELETE… see `meta.respStatus`). */
  readonly response?: R;
  /** Response headers (RFC 9110 §6.3): field of the response value → codec, or `rest.named('ETag', codec)`. */
  readonly responseHeaders?: RH;
  /** Response cookies (`Set-Cookie`, RFC 6265 §4.1): field → codec, `rest.responseCookie(codec, attributes)`, or `rest.named(...)`. */
  readonly responseCookies?: RC;
  /** Error rules, in matching order: `rest.errorPattern(...)` (typed bodies, read by `client.safeCall`) and `rest.errorStatus(...)`. */
  readonly errors?: E;
  /**
   * Other success responses (RFC 9110 §15.3), by status: a body codec, `null` for no content,
   * or `rest.success(body, { description, headers, cookies })`. A handler answers one with the
   * `respond` function it receives (`respond(201, created)`); the client decodes it by status.
   */
  readonly successes?: SU;
  /** Operation metadata: `operationId`, `summary`, `description`, `tags`, `deprecated`, `respStatus`… */
  readonly meta?: MT;
  /** Extra documented responses (OpenAPI 3.1 Responses Object). */
  readonly responses?: readonly ResponseMetaFields[];
  /**
   * The operations a client may call next with values of the success response (OpenAPI 3.1
   * §4.8.20), by link name: `{ getUser: { operationId: 'getUser', parameters: { id:
   * '$response.body#/id' } } }`. Documented on the main success response; `@lib/testing`
   * follows them.
   */
  readonly links?: Readonly<Record<string, LinkDescriptor>>;
  /**
   * Security requirements of the operation (OpenAPI 3.1 Security Requirement Object): the list
   * holds alternatives, the schemes of one object are all needed, `{}` among them makes sign-in
   * optional, `[]` makes the route public. When every alternative names a scheme, the handler's
   * context is a `SignedInContext`: a `rest.principalKey` reads without `| undefined`.
   */
  readonly security?: SEC;
  /** Request body formats, in preference order (default: JSON of `body`). */
  readonly requestFormats?: readonly Format<[B] extends [undefined] ? never : Infer<B>>[];
  /** Response body formats, negotiated by `Accept` (default: JSON of `response`). */
  readonly formats?: readonly Format<[R] extends [undefined] ? never : Infer<R>>[];
}

/**
 * The type `path` must have: `P` itself when the template and `pathParams` agree, else a sentence
 * saying what is wrong. A mistake's compile error then opens with that sentence (`Type
 * '"/todos/{id}"' is not assignable to type '"path variable {id} has no path parameter: …"'`),
 * not with the definition's type.
 */
export type CheckedPath<P extends string, PP> = string extends P
  ? P
  : P extends `${string}/:${string}`
    ? 'path variables are written {name}, not :name'
    : [Exclude<PathVars<P>, keyof PP>] extends [never]
      ? [Exclude<keyof PP, PathVars<P>>] extends [never]
        ? P
        : `pathParams.${Exclude<keyof PP, PathVars<P>> & string} is not a variable of the path template ${P}`
      : `path variable {${Exclude<PathVars<P>, keyof PP> & string}} has no path parameter: add it to pathParams`;

/**
 * The type `method` must have: `M` itself, or a sentence when a method without a request body
 * (anything but POST, PUT and PATCH) is given a `body`.
 */
export type CheckedMethod<M extends string, B> = [B] extends [undefined]
  ? M
  : string extends M
    ? M
    : Uppercase<M> extends 'POST' | 'PUT' | 'PATCH'
      ? M
      : `${Uppercase<M>} requests carry no body: declare its fields as parameters, or use POST, PUT or PATCH`;

/**
 * Declares a route from one object, inferring the request and response types: the same
 * `Route` value as `rest.newRoute`, shared by server, client and OpenAPI.
 *
 * ```ts
 * const getTodo = rest.route({
 *   method: 'GET',
 *   path: '/todos/{id}',
 *   pathParams: { id: codec.string() },
 *   headers: { tenantId: rest.named('X-Tenant-ID', codec.string()) },
 *   response: todo,
 *   responseHeaders: { etag: rest.named('ETag', codec.string()) },
 *   errors: [rest.errorPattern(TodoNotFound, 404, notFound)],
 *   meta: { operationId: 'getTodo' },
 * });
 * // Route<{ id: string; tenantId: string }, Todo & { etag: string }>
 * ```
 *
 * The request value holds every parameter under its field name, and the body: an object
 * body's fields at the top level, any other body (bytes, an array, a stream) under `body`. The
 * response value holds the response object's fields and the response headers and cookies; a
 * non-object response is the value itself, or sits under `body` when headers or cookies go with
 * it. A parameter is optional when its codec is `codec.optional(...)` or `codec.defaulted(...)`
 * (then absent values take the default); a caller may leave both out (`codec.InferInput`).
 *
 * Wherever a codec goes, a Standard Schema v1 (zod 4, valibot 1, arktype 2) may go instead, as it
 * is: it is made a codec once, here (`codec.fromStandardSchema`). Its output type is the value's,
 * its input type what a caller sends; a parameter's text is read by its JSON Schema (a number, a
 * boolean, a list of them) before it validates, and a parameter schema that takes `undefined` is
 * optional (with its default, if it gives one). A Standard Schema body is the request's `body`
 * field, and a Standard Schema response stands alone or under `body`, as other non-object codecs.
 * @throws {RouteDeclarationError} as `rest.newRoute`: a bad method or template (`:name`
 * segments included), a parameter declared twice or forbidden (`Accept`, `Content-Type`,
 * `Authorization`), a body on a method without one, a bad `respStatus`.
 * @throws {DuplicateErrorStatusError} when two error patterns share a status.
 * @throws {TypeError} naming the place of a Standard Schema that has no JSON Schema
 * (`~standard.jsonSchema`) or whose library cannot write it as one.
 */
export function route<
  const M extends string,
  const P extends string,
  const PP extends ParamEntries<PathParamEntry> = {},
  const Q extends ParamEntries<QueryParamEntry> = {},
  const H extends ParamEntries<HeaderParamEntry> = {},
  const C extends ParamEntries<CookieParamEntry> = {},
  B extends SchemaLike | undefined = undefined,
  R extends SchemaLike | undefined = undefined,
  const RH extends ParamEntries<ParamEntry> = {},
  const RC extends ParamEntries<ResponseCookieEntry> = {},
  const E extends readonly AnyErrorRule[] = [],
  const SU extends SuccessEntries = {},
  const MT extends RouteMetaFields = {},
  const SEC extends readonly SecurityRequirement[] = [],
>(
  definition: RouteDefinition<M, P, PP, Q, H, C, B, R, RH, RC, E, SU, MT, SEC>,
): Route<
  RouteRequest<B, PP, Q, H, C>,
  RouteResponse<R, RH, RC>,
  P,
  RouteRequestInput<B, PP, Q, H, C>,
  DeclaredErrors<E>,
  DeclaredSuccess<MainStatus<M, MT>, RouteResponse<R, RH, RC>> | DeclaredSuccesses<SU, RH, RC>,
  HandlerContext<SEC>
> {
  const d = definition as unknown as RouteDefinition<string, string, ParamEntries<ParamEntry> | undefined, ParamEntries<ParamEntry> | undefined, ParamEntries<ParamEntry> | undefined, ParamEntries<ParamEntry> | undefined, Codec<unknown> | undefined, Codec<unknown> | undefined, ParamEntries<ParamEntry> | undefined, ParamEntries<ResponseCookieEntry> | undefined, readonly AnyErrorRule[] | undefined, SuccessEntries | undefined>;
  const opts: RouteOption<never, never, unknown>[] = [];
  if (d.meta !== undefined || d.security !== undefined || d.links !== undefined) {
    opts.push(routeMeta({ ...d.meta, ...(d.security !== undefined && { security: d.security }), ...(d.links !== undefined && { links: d.links }) }));
  }
  for (const r of d.responses ?? []) opts.push(responseMeta(r));
  if (d.pathParams !== undefined) requestParams(opts, 'path', d.pathParams);
  if (d.query !== undefined) requestParams(opts, 'query', d.query);
  if (d.headers !== undefined) requestParams(opts, 'header', d.headers);
  if (d.cookies !== undefined) requestParams(opts, 'cookie', d.cookies);
  const optsBefore = opts.length;
  if (d.responseHeaders !== undefined) responseParams(opts, 'responseHeader', d.responseHeaders, d);
  if (d.responseCookies !== undefined) responseParams(opts, 'responseCookie', d.responseCookies, d);
  const hasRouteFields = opts.length > optsBefore;
  if (d.errors !== undefined) for (let i = 0; i < d.errors.length; i++) opts.push(d.errors[i] as AnyErrorRule);
  // Other success responses: each status's body codec, lifted as the main one is, and its own headers and cookies where given.
  if (d.successes !== undefined) for (const key of Object.keys(d.successes)) {
    const entry = (d.successes as Record<string, SuccessEntry>)[key] as SuccessEntry;
    const field = entry instanceof SuccessField ? entry : undefined;
    const declared = field !== undefined ? field.body : (entry as SchemaLike | null);
    const body = declared === null ? null : asCodec(declared, `successes[${key}]`);
    const own = field !== undefined && (field.headers !== undefined || field.cookies !== undefined);
    let params: AnyParam[] | undefined;
    if (own) {
      params = [];
      responseParams(params, 'responseHeader', field.headers, d);
      responseParams(params, 'responseCookie', field.cookies, d);
    }
    const withFields = own ? (params?.length ?? 0) > 0 : hasRouteFields;
    const codec = body === null ? new EmptyCodec() : !(body instanceof ObjectCodec) && withFields ? bodyField(body) : body;
    opts.push(new SuccessResponseOption({ status: Number(key), description: field?.description, codec, params: params as readonly AnyParam[] | undefined }));
  }

  // An object body merges with the parameters; any other body (a Standard Schema's too) is the request's `body` field.
  const body = d.body === undefined ? undefined : asCodec(d.body, 'body');
  let reqCodec: Codec<unknown> = body ?? new EmptyCodec();
  let reqFormats = d.requestFormats as readonly Format<unknown>[] | undefined;
  if (body !== undefined && !(body instanceof ObjectCodec)) {
    reqCodec = bodyField(body);
    reqFormats = reqFormats?.map((f) => bodyFieldFormat(f, reqCodec));
  }
  const response = d.response === undefined ? undefined : asCodec(d.response, 'response');
  let respCodec: Codec<unknown> = response ?? new EmptyCodec();
  let respFormats = d.formats as readonly Format<unknown>[] | undefined;
  if (response !== undefined && !(response instanceof ObjectCodec) && hasRouteFields) {
    respCodec = bodyField(response);
    respFormats = respFormats?.map((f) => bodyFieldFormat(f, respCodec));
  }
  if (reqFormats !== undefined) opts.push(requestFormats(...reqFormats));
  if (respFormats !== undefined) opts.push(responseFormats(...respFormats));
  return declareRoute(d.method, d.path, reqCodec, respCodec, opts) as never;
}

/** Appends to `opts` the request merge parameter of each entry of a map of parameter entries. */
function requestParams(opts: RouteOption<never, never, unknown>[], kind: ParamLocation, entries: ParamEntries<AnyRequestEntry>): void {
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const { name, codec, description, style } = unpack(kind, key, entries[key] as AnyRequestEntry);
    const required = kind === 'path' || !mayBeAbsent(codec);
    opts.push(new RequestMergeParam<Record<string, unknown>, unknown>({ kind, name, codec: unwrapOptional(codec), required, get: (r) => r[key], set: (r, v) => void (r[key] = v), description, style }));
  }
}

/** Any request parameter entry, of any location. */
type AnyRequestEntry = PathParamEntry | QueryParamEntry | HeaderParamEntry | CookieParamEntry;

/** Appends to `out` the response merge parameter of each entry of a map of response header or cookie entries. */
function responseParams(out: unknown[], kind: 'responseHeader' | 'responseCookie', entries: ParamEntries<ResponseCookieEntry> | undefined, route: { readonly method: string; readonly path: string }): void {
  if (entries === undefined) return;
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const entry = (entries as ParamEntries<ResponseCookieEntry>)[key] as ResponseCookieEntry;
    const { name, codec, description, attributes, style } = unpack(kind, key, entry);
    if (style !== undefined) throw new RouteDeclarationError(`${route.method.toUpperCase()} ${route.path}`, `${kind === 'responseHeader' ? 'response header' : 'response cookie'} ${JSON.stringify(key)}: rest.styled is for path, query, header and cookie parameters`);
    const p = new ResponseMergeParam<Record<string, unknown>, unknown>({ kind, name, codec: unwrapOptional(codec), required: !mayBeAbsent(codec), get: (r) => r[key], set: (r, v) => void (r[key] = v), description });
    out.push(attributes === undefined ? p : p.withAttributes(() => attributes));
  }
}

/**
 * The wire name, codec, description and cookie attributes of a parameter entry. Its codec or
 * Standard Schema becomes a parameter's codec (text on the wire; optional when the schema takes
 * `undefined`) through `asCodec`, as every codec of a route does.
 */
function unpack(
  kind: ParamKind,
  key: string,
  entry: ResponseCookieEntry | AnyRequestEntry,
): { name: string; codec: Codec<unknown>; description: string | undefined; attributes: CookieAttributes | undefined; style: ParamStyleOptions | undefined } {
  let name = key;
  let description: string | undefined;
  let value: SchemaLike | ResponseCookieField<SchemaLike> | Named<unknown> | Styled<SchemaLike> = entry;
  if (value instanceof Named) {
    name = value.wireName;
    description = value.description;
    value = value.value as SchemaLike | ResponseCookieField<SchemaLike> | Styled<SchemaLike>;
  }
  let style: ParamStyleOptions | undefined;
  if (value instanceof Styled) {
    style = value.options;
    value = value.codec;
  }
  const attributes = value instanceof ResponseCookieField ? value.attributes : undefined;
  const schema = value instanceof ResponseCookieField ? value.codec : (value as SchemaLike);
  // A codec as it is, without building the message a Standard Schema's failure would need.
  const codec = schema instanceof Codec ? schema : asCodec(schema, `${kind} parameter ${JSON.stringify(key)}`, true);
  return { name, codec, description, attributes, style };
}

function unwrapOptional(c: Codec<unknown>): Codec<unknown> {
  return c instanceof OptionalCodec ? (c.inner as Codec<unknown>) : c;
}

/** The codec of `{ body }`: the body codec's wire value and schema, its value under `body`. */
function bodyField(inner: Codec<unknown>): Codec<unknown> {
  return map(inner, (body) => ({ body }), (r: { body: unknown }) => r.body);
}

/** A format of the body codec, lifted to the `{ body }` request or response value. */
function bodyFieldFormat(f: Format<unknown>, codec: Codec<unknown>): Format<unknown> {
  type Field = { body: unknown };
  const lifted: { -readonly [K in keyof Format<unknown>]: Format<unknown>[K] } = {
    contentType: f.contentType,
    codec,
    marshal: (v) => f.marshal((v as Field).body),
    unmarshal: (bytes) => ({ body: f.unmarshal(bytes) }),
  };
  if (f.bodySchema !== undefined) lifted.bodySchema = f.bodySchema;
  if (f.responseOnly !== undefined) lifted.responseOnly = f.responseOnly;
  if (f.encoding !== undefined) lifted.encoding = f.encoding;
  if (f.responseHeaders !== undefined) lifted.responseHeaders = f.responseHeaders;
  if (f.itemCodec !== undefined) lifted.itemCodec = f.itemCodec;
  if (f.maxBodyBytes !== undefined) lifted.maxBodyBytes = f.maxBodyBytes;
  if (f.maxBodyBytesFrom !== undefined) lifted.maxBodyBytesFrom = f.maxBodyBytesFrom;
  const { marshalText, marshalStream, unmarshalStream, marshalMessage, marshalMessageAsync, withCodec } = f;
  if (marshalText !== undefined) lifted.marshalText = (v) => marshalText.call(f, (v as Field).body);
  if (marshalStream !== undefined) lifted.marshalStream = (v, signal) => marshalStream.call(f, (v as Field).body, signal);
  if (unmarshalStream !== undefined) lifted.unmarshalStream = async (b, info) => ({ body: await unmarshalStream.call(f, b, info) });
  if (marshalMessage !== undefined) lifted.marshalMessage = (v) => marshalMessage.call(f, (v as Field).body);
  if (marshalMessageAsync !== undefined) lifted.marshalMessageAsync = (v) => marshalMessageAsync.call(f, (v as Field).body);
  if (withCodec !== undefined) lifted.withCodec = <U>(c: Codec<U>): Format<U> => withCodec.call(f, c) as Format<U>;
  return lifted as Format<unknown>;
}
