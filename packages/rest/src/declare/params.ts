import { Codec, DefaultedCodec, OptionalCodec, StandardSchemaCodec, type SchemaLike } from '@lib/codec';
import type { RouteOption } from './route-option.js';
import { Styled, type ParamStyleOptions } from './styled.js';

/** What a Standard Schema's `~standard` holds, as far as {@link asCodec} reads it. */
interface StandardProps {
  readonly vendor: string;
  readonly validate: (value: unknown) => { readonly value?: unknown; readonly issues?: readonly unknown[] } | PromiseLike<unknown>;
  readonly jsonSchema?: { readonly input?: unknown };
}

/**
 * The codec of a codec or a Standard Schema (zod 4, valibot 1, arktype 2, …), made once where a
 * route or an error pattern declares it: every codec a route takes goes through here. A codec
 * (`instanceof Codec`: codecs are Standard Schemas too) is returned as it is. A Standard Schema
 * becomes `codec.fromStandardSchema(value, { parameter })`, and its JSON Schema is taken now, so
 * that a schema the document cannot show is refused when the route is declared.
 *
 * With `parameter` (a path, query, header or cookie value; a response header or cookie) the
 * codec's wire value is text, read by the schema's JSON Schema before it validates
 * (`FromStandardSchemaOptions.parameter`: `"20"` is 20 where the schema wants a number), and a
 * schema that accepts `undefined` may be absent: it becomes `codec.optional(...)` of it, or
 * `codec.defaulted(...)` when it turns `undefined` into a value (`z.number().default(20)`).
 * @param what names the place in messages: `query parameter "limit"`.
 * @throws {TypeError} naming `what`: `value` is neither a codec nor a Standard Schema, the schema
 * has no JSON Schema (`~standard.jsonSchema`), or its library cannot write it as one.
 */
export function asCodec<T>(value: SchemaLike<T>, what: string, parameter = false): Codec<T> {
  if (value instanceof Codec) return value;
  const props = (value as { readonly '~standard'?: StandardProps } | undefined)?.['~standard'];
  if (typeof props?.validate !== 'function') throw new TypeError(`${what}: expected a codec or a Standard Schema`);
  const wrap = 'wrap it as codec.fromStandardSchema(schema, { jsonSchema })';
  if (typeof props.jsonSchema?.input !== 'function') {
    throw new TypeError(`${what}: the ${props.vendor} schema has no JSON Schema (~standard.jsonSchema) for the document: give it one (valibot: toStandardJsonSchema of @valibot/to-json-schema), or ${wrap}`);
  }
  const c = new StandardSchemaCodec(value, { parameter });
  try {
    void c.rawJsonSchema;
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    throw new TypeError(`${what}: the ${props.vendor} schema cannot be written as JSON Schema (${cause instanceof Error ? cause.message : String(cause)}): ${wrap}`, { cause });
  }
  if (!parameter) return c;
  const absent = props.validate(undefined);
  if ('then' in absent || absent.issues !== undefined) return c;
  return (absent.value === undefined ? new OptionalCodec(c) : new DefaultedCodec(c, absent.value as T)) as Codec<T>;
}

/** Where a request parameter is read from (OpenAPI `in`). */
export type ParamLocation = 'path' | 'query' | 'header' | 'cookie';
/** Every parameter kind a route may declare; adapters say which they implement. */
export type ParamKind = ParamLocation | 'responseHeader' | 'responseCookie';

/** Response cookie attributes (RFC 6265 §4.1). */
export interface CookieAttributes {
  /** Lifetime in seconds (`Max-Age`); absent makes a session cookie; 0 or less expires it. */
  readonly maxAge?: number;
  /** `Secure`; default true (see `insecure`). */
  readonly secure?: boolean;
  /** `HttpOnly`; default true. */
  readonly httpOnly?: boolean;
  /** `SameSite`; default `'strict'`. */
  readonly sameSite?: 'strict' | 'lax' | 'none';
  /** `Path`; default `/`. */
  readonly path?: string;
  /** `Domain`; default none (host-only). */
  readonly domain?: string;
  /** Drops `Secure` (for plain-HTTP development). */
  readonly insecure?: boolean;
}

/** The fields of a plain parameter literal. */
export interface ParamFields {
  readonly name: string;
  readonly description?: string;
  /** Documented as deprecated (OpenAPI 3.1 §4.8.12.2): still read, to be left out of new calls. Default false. */
  readonly deprecated?: boolean;
  /** Default false (path parameters are always required). */
  readonly required?: boolean;
}

/**
 * A validate-only parameter: documented in
 * OpenAPI and validated, not merged into the request value.
 */
export class PlainParam<K extends ParamKind> implements RouteOption<unknown, unknown> {
  readonly optionKind = 'param';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  /** Always false: plain parameters are not merged. */
  readonly merge = false;
  readonly kind: K;
  readonly name: string;
  readonly description: string | undefined;
  /** Documented as deprecated (OpenAPI 3.1 §4.8.12.2). */
  readonly deprecated: boolean;
  readonly required: boolean;
  /** The string codec validating the value; `undefined` accepts any string. */
  readonly codec: Codec<unknown> | undefined;
  constructor(kind: K, fields: ParamFields, codec?: Codec<unknown>) {
    this.kind = kind;
    this.name = fields.name;
    this.description = fields.description;
    this.deprecated = fields.deprecated ?? false;
    this.required = kind === 'path' ? true : (fields.required ?? false);
    this.codec = codec;
  }
  /** A copy validated by `codec` (a codec of a string wire value). */
  withCodec(codec: Codec<unknown>): PlainParam<K> {
    return new PlainParam(this.kind, { name: this.name, ...(this.description !== undefined && { description: this.description }), deprecated: this.deprecated, required: this.required }, codec);
  }
}

/** The signature of a plain-parameter constructor: `rest.queryParam({ name, description?, required? })`. */
export type PlainParamConstructor<K extends ParamKind> = (fields: ParamFields) => PlainParam<K>;

function plainParam<K extends ParamKind>(kind: K): PlainParamConstructor<K> {
  return (fields) => new PlainParam(kind, fields);
}

/** A plain path parameter `{name}` (always required). */
export const pathParam: PlainParamConstructor<'path'> = /* @__PURE__ */ plainParam('path');
/** A plain query-string parameter. */
export const queryParam: PlainParamConstructor<'query'> = /* @__PURE__ */ plainParam('query');
/** A plain request cookie, from the `Cookie:` header. */
export const cookieParam: PlainParamConstructor<'cookie'> = /* @__PURE__ */ plainParam('cookie');
/** A plain request header. `Accept`, `Content-Type` and `Authorization` may not be declared. */
export const headerParam: PlainParamConstructor<'header'> = /* @__PURE__ */ plainParam('header');
/** A documented response header, checked after the handler returns. */
export const responseHeaderParam: PlainParamConstructor<'responseHeader'> = /* @__PURE__ */ plainParam('responseHeader');
/** A documented response cookie, `Set-Cookie`. */
export const responseCookieParam: PlainParamConstructor<'responseCookie'> = /* @__PURE__ */ plainParam('responseCookie');

/** The parts of a merge parameter. */
export interface MergeParamFields<K extends ParamKind, R, T> {
  readonly kind: K;
  readonly name: string;
  /**
   * The value's codec, or a Standard Schema (made a parameter's codec by {@link asCodec}); for a
   * request parameter, either under `rest.styled(codec, options)` (its style, OpenAPI 3.1 §4.8.12.4).
   */
  readonly codec: SchemaLike<T> | Styled<SchemaLike<T>>;
  readonly required: boolean;
  /** Reads the field (client side for requests, server side for responses). */
  readonly get: (target: R) => T | undefined;
  /** Writes a decoded value into the field. */
  readonly set: (target: R, value: T) => void;
  readonly description?: string | undefined;
  /** Documented as deprecated (OpenAPI 3.1 §4.8.12.2); default false. */
  readonly deprecated?: boolean | undefined;
  /** The style of a request parameter (OpenAPI 3.1 §4.8.12.4), as `rest.styled` gives it; absent: not styled. */
  readonly style?: ParamStyleOptions | undefined;
}

/**
 * What request and response merge parameters share: the OpenAPI
 * parameter and a typed field reached through a getter and a setter. Immutable: `with*`
 * methods return copies.
 */
export abstract class MergeParam<K extends ParamKind, R, T> {
  readonly optionKind = 'param';
  /** Always true: the value is merged into the request or read from the response. */
  readonly merge = true;
  readonly kind: K;
  readonly name: string;
  readonly codec: Codec<T>;
  /** For response parameters, governs client-side decoding only: the server always calls the getter. */
  readonly required: boolean;
  /** Parameter-level description (distinct from the codec's schema description). */
  readonly description: string | undefined;
  /** Documented as deprecated (OpenAPI 3.1 §4.8.12.2): still read and written, to be left out of new calls. */
  readonly deprecated: boolean;
  readonly get: (target: R) => T | undefined;
  readonly set: (target: R, value: T) => void;
  /**
   * The style a request parameter's value is read and written in (OpenAPI 3.1 §4.8.12.4), as
   * `rest.styled(codec, options)` declared it; `undefined`: not styled (a single text, or a list
   * of repeated query keys).
   */
  readonly style: ParamStyleOptions | undefined;

  constructor(fields: MergeParamFields<K, R, T>) {
    this.kind = fields.kind;
    this.name = fields.name;
    let c = fields.codec;
    let style = fields.style;
    if (c instanceof Styled) {
      if (fields.kind === 'responseHeader' || fields.kind === 'responseCookie') throw new TypeError(`${fields.kind} parameter ${JSON.stringify(fields.name)}: rest.styled is for path, query, header and cookie parameters`);
      style = c.options;
      c = c.codec as SchemaLike<T>;
    }
    this.style = style;
    // A codec as it is, without building the message a Standard Schema's failure would need.
    this.codec = c instanceof Codec ? c : asCodec(c, `${fields.kind} parameter ${JSON.stringify(fields.name)}`, true);
    this.required = fields.required;
    this.get = fields.get;
    this.set = fields.set;
    this.description = fields.description;
    this.deprecated = fields.deprecated ?? false;
  }

  /** A copy with a parameter-level description. */
  withDescription(description: string): this {
    return this.with({ description });
  }

  /** A copy documented as deprecated (OpenAPI 3.1 §4.8.12.2 `deprecated`), or not. */
  withDeprecated(deprecated = true): this {
    return this.with({ deprecated });
  }

  /** A shallow copy with `patch` applied. */
  protected with(patch: Record<string, unknown>): this {
    return Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this, patch);
  }
}

/**
 * A merge parameter on the request: declares the OpenAPI parameter and a field of `Req` that
 * the server fills and the client reads.
 */
export class RequestMergeParam<R, T> extends MergeParam<ParamLocation, R, T> implements RouteOption<R, unknown> {
  declare readonly '~route'?: (req: R, resp: unknown) => void;
}

/**
 * A merge parameter on the response: a field of `Resp` the server encodes into a response
 * header or `Set-Cookie`, and the client decodes back.
 */
export class ResponseMergeParam<R, T> extends MergeParam<'responseHeader' | 'responseCookie', R, T> implements RouteOption<unknown, R> {
  declare readonly '~route'?: (req: unknown, resp: R) => void;
  /** Cookie attributes from the response (response cookies only). */
  readonly attributes: ((resp: R) => CookieAttributes) | undefined;

  /** A copy whose cookie attributes come from the response. */
  withAttributes(attributes: (resp: R) => CookieAttributes): this {
    return this.with({ attributes });
  }
}

/** Any parameter declaration. */
export type AnyParam = PlainParam<ParamKind> | RequestMergeParam<never, unknown> | ResponseMergeParam<never, unknown>;

/** The signature of a required request merge-parameter constructor (`codec`: a codec or a Standard Schema, or either under `rest.styled`). */
export type RequiredRequestParam = <T, R>(name: string, codec: SchemaLike<T> | Styled<SchemaLike<T>>, get: (req: R) => T, set: (req: R, value: T) => void) => RequestMergeParam<R, T>;
/** The signature of an optional request merge-parameter constructor (the getter may give `undefined`; the setter runs only for present values). */
export type OptionalRequestParam = <T, R>(name: string, codec: SchemaLike<T> | Styled<SchemaLike<T>>, get: (req: R) => T | undefined, set: (req: R, value: T) => void) => RequestMergeParam<R, T>;
/** The signature of a required response merge-parameter constructor. */
export type RequiredResponseParam = <T, R>(name: string, codec: SchemaLike<T>, get: (resp: R) => T, set: (resp: R, value: T) => void) => ResponseMergeParam<R, T>;
/** The signature of an optional response merge-parameter constructor. */
export type OptionalResponseParam = <T, R>(name: string, codec: SchemaLike<T>, get: (resp: R) => T | undefined, set: (resp: R, value: T) => void) => ResponseMergeParam<R, T>;

function requestParam(kind: ParamLocation, required: boolean): OptionalRequestParam {
  return (name, codec, get, set) => new RequestMergeParam({ kind, name, codec, required, get, set });
}
function responseParam(kind: 'responseHeader' | 'responseCookie', required: boolean): OptionalResponseParam {
  return (name, codec, get, set) => new ResponseMergeParam({ kind, name, codec, required, get, set });
}

/**
 * A path variable merged into `Req`:
 * `rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => { r.id = v })`.
 */
export const newPathParam: RequiredRequestParam = /* @__PURE__ */ requestParam('path', true);
/** A required query parameter merged into `Req`. */
export const newRequiredQueryParam: RequiredRequestParam = /* @__PURE__ */ requestParam('query', true);
/** An optional query parameter merged into `Req`. */
export const newOptionalQueryParam: OptionalRequestParam = /* @__PURE__ */ requestParam('query', false);
/** A required request header merged into `Req`. */
export const newRequiredHeaderParam: RequiredRequestParam = /* @__PURE__ */ requestParam('header', true);
/** An optional request header merged into `Req`. */
export const newOptionalHeaderParam: OptionalRequestParam = /* @__PURE__ */ requestParam('header', false);
/** A required request cookie merged into `Req`. */
export const newRequiredCookieParam: RequiredRequestParam = /* @__PURE__ */ requestParam('cookie', true);
/** An optional request cookie merged into `Req`. */
export const newOptionalCookieParam: OptionalRequestParam = /* @__PURE__ */ requestParam('cookie', false);
/** A response header encoded from `Resp`; required when the client decodes. */
export const newRequiredResponseHeaderParam: RequiredResponseParam = /* @__PURE__ */ responseParam('responseHeader', true);
/** A response header encoded from `Resp` when the getter gives a value. */
export const newOptionalResponseHeaderParam: OptionalResponseParam = /* @__PURE__ */ responseParam('responseHeader', false);
/** A response cookie encoded from `Resp`; required when the client decodes. */
export const newRequiredResponseCookieParam: RequiredResponseParam = /* @__PURE__ */ responseParam('responseCookie', true);
/** A response cookie encoded from `Resp` when the getter gives a value. */
export const newOptionalResponseCookieParam: OptionalResponseParam = /* @__PURE__ */ responseParam('responseCookie', false);

/**
 * Request headers a route or middleware may not declare as parameters: request formats and
 * security schemes describe `Accept`, `Content-Type` and `Authorization` (OpenAPI 3.1 §4.8.12.1).
 */
export const FORBIDDEN_HEADER_PARAMS: ReadonlySet<string> = new Set(['accept', 'content-type', 'authorization']);

/** The key under which a parameter may be declared only once (header names are case-insensitive, RFC 9110 §5.1). */
export function paramKey(p: { readonly kind: string; readonly name: string }): string {
  return `${p.kind}:${p.kind === 'header' || p.kind === 'responseHeader' ? p.name.toLowerCase() : p.name}`;
}
