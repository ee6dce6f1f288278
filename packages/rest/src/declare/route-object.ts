import { Codec, EmptyCodec, map, ObjectCodec, type Infer, type InferInput, type ObjectInput, type ObjectOutput, type SchemaLike, type Simplify } from '@lib/codec';
import type { Format } from '@lib/format';
import type { LinkDescriptor, SecurityRequirement } from '@lib/openapi';
import type { Context, SignedInContext } from './context.js';
import { ErrorPattern, type ErrorStatusRule, type Status, type StatusNumber } from './error-rules.js';
import { formats as responseFormats, requestFormats } from './formats.js';
import { requestParams, responseParams, type AsShape, type CookieParamEntry, type EntryFields, type EntryInputFields, type HeaderParamEntry, type ParamEntries, type ParamEntry, type PathParamEntry, type QueryParamEntry, type ResponseCookieEntry } from './param-entries.js';
import { asCodec } from './params.js';
import { RouteDeclarationError } from './path-template.js';
import type { PathVars } from './redirect.js';
import { responseMeta, routeMeta, type ResponseMetaFields, type RouteMetaFields } from './route-meta.js';
import type { RouteOption } from './route-option.js';
import { declareRoute, type DeclaredErrors, type Route } from './route.js';
import { SuccessResponseOption, type DeclaredSuccess } from './success.js';
import type { AnyParam } from './params.js';




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
  const where = `${d.method.toUpperCase()} ${d.path}`;
  if (d.meta !== undefined || d.security !== undefined || d.links !== undefined) {
    opts.push(routeMeta({ ...d.meta, ...(d.security !== undefined && { security: d.security }), ...(d.links !== undefined && { links: d.links }) }));
  }
  for (const r of d.responses ?? []) opts.push(responseMeta(r));
  if (d.pathParams !== undefined) requestParams(opts, 'path', d.pathParams);
  if (d.query !== undefined) requestParams(opts, 'query', d.query);
  if (d.headers !== undefined) requestParams(opts, 'header', d.headers);
  if (d.cookies !== undefined) requestParams(opts, 'cookie', d.cookies);
  const optsBefore = opts.length;
  if (d.responseHeaders !== undefined) responseParams(opts, 'responseHeader', d.responseHeaders, where);
  if (d.responseCookies !== undefined) responseParams(opts, 'responseCookie', d.responseCookies, where);
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
      responseParams(params, 'responseHeader', field.headers, where);
      responseParams(params, 'responseCookie', field.cookies, where);
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
  const { marshalText, marshalStream, unmarshalStream, marshalMessage, marshalMessageAsync, withCodec, bodySchemaWith } = f;
  if (bodySchemaWith !== undefined) lifted.bodySchemaWith = (gen) => bodySchemaWith.call(f, gen);
  if (marshalText !== undefined) lifted.marshalText = (v) => marshalText.call(f, (v as Field).body);
  if (marshalStream !== undefined) lifted.marshalStream = (v, signal) => marshalStream.call(f, (v as Field).body, signal);
  if (unmarshalStream !== undefined) lifted.unmarshalStream = async (b, info) => ({ body: await unmarshalStream.call(f, b, info) });
  if (marshalMessage !== undefined) lifted.marshalMessage = (v) => marshalMessage.call(f, (v as Field).body);
  if (marshalMessageAsync !== undefined) lifted.marshalMessageAsync = (v) => marshalMessageAsync.call(f, (v as Field).body);
  if (withCodec !== undefined) lifted.withCodec = <U>(c: Codec<U>): Format<U> => withCodec.call(f, c) as Format<U>;
  return lifted as Format<unknown>;
}
