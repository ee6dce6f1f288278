// The entries of the object form's parameter maps (`pathParams`, `query`, `headers`, `cookies`,
// `responseHeaders`, `responseCookies`, an error pattern's headers): their wrappers
// (`rest.named`, `rest.styled`, `rest.responseCookie`), their types, and the merge parameters
// they become.
import { Codec, mayBeAbsent, OptionalCodec, type FieldShape, type ObjectInput, type ObjectOutput, type SchemaLike } from '@lib/codec';
import { asCodec, RequestMergeParam, ResponseMergeParam, type CookieAttributes, type ParamKind, type ParamLocation } from './params.js';
import { PARAM_STYLE_SUPPORT } from './param-styles.js';
import { installParamStyles } from './param-values.js';
import { RouteDeclarationError } from './path-template.js';
import type { RouteOption } from './route-option.js';
import { Styled, type CookieParamStyle, type HeaderParamStyle, type ParamStyle, type ParamStyleOptions, type PathParamStyle, type QueryParamStyle } from './styled.js';

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
  /** Whether the document marks the parameter deprecated. */
  readonly deprecated: boolean;
  constructor(wireName: string, value: C, description?: string, deprecated = false) {
    this.wireName = wireName;
    this.value = value;
    this.description = description;
    this.deprecated = deprecated;
  }
  /** A copy with a parameter description for OpenAPI. */
  withDescription(description: string): Named<C> {
    return new Named(this.wireName, this.value, description, this.deprecated);
  }
  /**
   * A copy the document marks deprecated (OpenAPI 3.1 §4.8.12.2 `deprecated`; a query, header
   * or cookie parameter): still read and written as before, listed so that callers move off it. `rest.named(key, codec)` with the
   * field's own name deprecates a parameter whose wire name is its field's.
   */
  withDeprecated(deprecated = true): Named<C> {
    return new Named(this.wireName, this.value, this.description, deprecated);
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
/** `T` as a field shape (`never` when it is not one). */
export type AsShape<T> = T extends FieldShape ? T : never;

/** The fields a map of entries gives the request or response value. */
export type EntryFields<M> = [M] extends [undefined] ? {} : ObjectOutput<AsShape<EntryShape<M>>>;
/** The fields a caller gives for a map of entries (optional and defaulted ones may be left out). */
export type EntryInputFields<M> = [M] extends [undefined] ? {} : ObjectInput<AsShape<EntryShape<M>>>;

/** Appends to `opts` the request merge parameter of each entry of a map of parameter entries. */
export function requestParams(opts: RouteOption<never, never, unknown>[], kind: ParamLocation, entries: ParamEntries<AnyRequestEntry>): void {
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const { name, codec, description, deprecated, style } = unpack(kind, key, entries[key] as AnyRequestEntry);
    const required = kind === 'path' || !mayBeAbsent(codec);
    opts.push(new RequestMergeParam<Record<string, unknown>, unknown>({ kind, name, codec: unwrapOptional(codec), required, get: (r) => r[key], set: (r, v) => void (r[key] = v), description, deprecated, style }));
  }
}

/** Any request parameter entry, of any location. */
export type AnyRequestEntry = PathParamEntry | QueryParamEntry | HeaderParamEntry | CookieParamEntry;

/** Appends to `out` the response merge parameter of each entry of a map of response header or cookie entries. */
export function responseParams(out: unknown[], kind: 'responseHeader' | 'responseCookie', entries: ParamEntries<ResponseCookieEntry> | undefined, where: string): void {
  if (entries === undefined) return;
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const entry = (entries as ParamEntries<ResponseCookieEntry>)[key] as ResponseCookieEntry;
    const { name, codec, description, attributes, style } = unpack(kind, key, entry);
    if (style !== undefined) throw new RouteDeclarationError(where, `${kind === 'responseHeader' ? 'response header' : 'response cookie'} ${JSON.stringify(key)}: rest.styled is for path, query, header and cookie parameters`);
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
): { name: string; codec: Codec<unknown>; description: string | undefined; deprecated: boolean; attributes: CookieAttributes | undefined; style: ParamStyleOptions | undefined } {
  let name = key;
  let description: string | undefined;
  let deprecated = false;
  let value: SchemaLike | ResponseCookieField<SchemaLike> | Named<unknown> | Styled<SchemaLike> = entry;
  if (value instanceof Named) {
    name = value.wireName;
    description = value.description;
    deprecated = value.deprecated;
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
  return { name, codec, description, deprecated, attributes, style };
}

export function unwrapOptional(c: Codec<unknown>): Codec<unknown> {
  return c instanceof OptionalCodec ? (c.inner as Codec<unknown>) : c;
}
