import { DecodeError, type Codec, type VarField } from '@lib/codec';
import { json, mediaTypeOf, type Format } from '@lib/format';
import type { Context } from './context.js';
import { CookieParamError, HeaderParamError, MissingPathVarError, PathParamError, QueryParamError, type ParamError } from './errors.js';
import { ErrorLog, type ErrorRule } from './error-rules.js';
import { ErrorPatternResponse } from './http-errors.js';
import type { MiddlewareAttachment } from './middleware.js';
import { DEFAULT_MAX_BODY_BYTES, type Observer, type Options } from './options.js';
import type { AnyParam, ParamLocation, RequestMergeParam } from './params.js';
import { fillTemplate } from './path-template.js';
import { spanTags } from './span-tags.js';
import type { Route } from './route.js';
import type { Server } from './server.js';
import type { SuccessResponseSpec } from './success.js';

/** The parameter error class of each request location. */
export const PARAM_ERRORS: Readonly<Record<ParamLocation, new (name: string, value: string | undefined, cause: unknown) => ParamError>> = {
  path: PathParamError,
  query: QueryParamError,
  header: HeaderParamError,
  cookie: CookieParamError,
};

/**
 * True when a query parameter's codec takes every value of its key (OpenAPI `style: form,
 * explode: true`): an array codec, or an optional one. The server decodes the list of values
 * (`?tag=a&tag=b` → `['a', 'b']`); the client sends one key per element.
 */
export function isMultiValue(codec: Codec<unknown> | undefined): boolean {
  let c: Codec<unknown> | undefined = codec;
  while (c !== undefined && (c.kind === 'optional' || c.kind === 'defaulted' || c.kind === 'lazy')) c = c.children()[0];
  return c?.kind === 'array';
}

/** A request parameter as checked by handles, the pipeline and the client: merge or plain. */
export interface RequestParamSpec {
  readonly kind: ParamLocation;
  readonly name: string;
  readonly required: boolean;
  readonly codec: Codec<unknown> | undefined;
  /** The merge field, for merge parameters. */
  readonly merge: RequestMergeParam<unknown, unknown> | undefined;
}

/**
 * Decodes one parameter's raw string (or, for a multi-valued query parameter, the list of its
 * key's values; an empty list counts as absent) through its codec. An absent optional parameter
 * is `undefined`, or its default when its codec is `codec.defaulted(...)`.
 * @throws {ParamError} of the parameter's location: missing when required, or failing its codec.
 * @throws what a constraint of the codec throws (a bug, not a refused value), unchanged.
 */
export function decodeParam(p: RequestParamSpec, raw: string | readonly string[] | undefined): unknown {
  const ErrorClass = PARAM_ERRORS[p.kind];
  if (raw === undefined || (typeof raw !== 'string' && raw.length === 0)) {
    if (p.required) throw new ErrorClass(p.name, undefined, new Error('is required'));
    // An absent parameter with a `codec.defaulted(...)` codec takes its default, as documented.
    return p.codec?.kind === 'defaulted' ? p.codec.decode(undefined) : undefined;
  }
  if (p.codec === undefined) return raw;
  try {
    return p.codec.decode(raw);
  } catch (err) {
    // Only a value the codec refuses is the client's fault; anything else thrown while decoding
    // (a constraint that throws) is a bug of the server's own, and stays what it is.
    if (!(err instanceof DecodeError)) throw err;
    throw new ErrorClass(p.name, typeof raw === 'string' ? raw : raw.join(','), err);
  }
}

/** The string a wire value is sent as: strings as they are, `null`/`undefined` as `''`, objects as JSON. */
function wireString(wire: unknown): string {
  if (typeof wire === 'string') return wire;
  if (wire === undefined || wire === null) return '';
  return typeof wire === 'object' ? JSON.stringify(wire) : String(wire as number | boolean | bigint);
}

/**
 * Refuses empty wire values a client must not send: an empty path segment always, and for a
 * required query, header or cookie parameter an empty string or no value at all.
 * @throws {ParamError} of the parameter's location, message `must not be empty`.
 */
function refuseEmpty(p: RequestParamSpec, values: readonly string[]): void {
  const empty = p.kind === 'path' || p.required ? values.length === 0 || values.includes('') : false;
  if (empty) throw new PARAM_ERRORS[p.kind](p.name, values.length === 0 ? undefined : values.join(','), new Error('must not be empty'));
}

/**
 * Checks wire strings a client is about to send for one declared parameter, given as they are
 * (explicit per-call entries): none may be empty where {@link encodeParam} refuses it, and they
 * must decode through the codec as the server will decode them — the whole list for a
 * multi-valued query parameter ({@link isMultiValue}), each string otherwise. An empty list of
 * an optional parameter sends nothing. Returns the strings to send, one `key=value` pair each.
 * @throws {ParamError} of the parameter's location when a value is empty or fails the codec.
 */
export function checkParamValues(p: RequestParamSpec, values: readonly string[]): string[] {
  refuseEmpty(p, values);
  const codec = p.codec;
  if (codec !== undefined) {
    const multi = p.kind === 'query' && isMultiValue(codec);
    try {
      if (multi) {
        if (values.length > 0) codec.decode(values);
      } else for (const v of values) codec.decode(v);
    } catch (err) {
      throw new PARAM_ERRORS[p.kind](p.name, values.join(','), err);
    }
  }
  return [...values];
}

/**
 * Encodes a request parameter's value to the wire strings a client sends, checking it first
 * (client pre-flight): the value must encode through the codec, a path value must not be
 * empty, a required query, header or cookie value must not be empty (RFC 9110 §5.5 allows an
 * empty field value, but a required parameter sent empty is a value the caller did not mean).
 * A multi-valued query parameter ({@link isMultiValue}) gives one string per element of its
 * encoded array (`codec.array(codec.intString())` of `[1, 2]` → `['1', '2']`, sent as
 * `?n=1&n=2`; an empty array gives none, refused when the parameter is required), and the list
 * must decode through the codec as the server decodes it. Any other parameter gives exactly one
 * string, whose encoding must decode again.
 * @throws {ParamError} of the parameter's location when the value fails the codec, or is empty
 * where it must not be (message `must not be empty`).
 */
export function encodeParam(p: RequestParamSpec, value: unknown): string[] {
  const ErrorClass = PARAM_ERRORS[p.kind];
  if (p.kind === 'query' && isMultiValue(p.codec)) {
    let wire: unknown;
    try {
      wire = (p.codec as Codec<unknown>).encode(value);
    } catch (err) {
      throw new ErrorClass(p.name, undefined, err);
    }
    const values = Array.isArray(wire) ? wire.map(wireString) : wire === undefined || wire === null ? [] : [wireString(wire)];
    return checkParamValues(p, values);
  }
  let wire: unknown;
  try {
    wire = p.codec === undefined ? value : p.codec.encode(value);
  } catch (err) {
    throw new ErrorClass(p.name, undefined, err);
  }
  const s = wireString(wire);
  refuseEmpty(p, [s]);
  try {
    p.codec?.decode(wire);
  } catch (err) {
    throw new ErrorClass(p.name, s, err);
  }
  return [s];
}

/**
 * A route bound to a builder, or to no builder for client use.
 * Resolves the route's defaults (formats), exposes its merge fields and error rules, and
 * checks parameters. Formats may still change after registration.
 */
export class RouteHandle<Req, Resp> {
  /** The declared route. */
  readonly route: Route<Req, Resp, string, never, never>;
  /** The builder, for server handles and client handles of registered routes. */
  readonly server: Server | undefined;
  #requestFormats: readonly Format<Req>[] | undefined;
  #responseFormats: readonly Format<Resp>[] | undefined;
  #defaultResponseFormats: readonly Format<Resp>[] | undefined;
  /** The formats of each other success response, built once ({@link RouteHandle.successFormats}). */
  readonly #successFormats = new Map<SuccessResponseSpec, readonly Format<unknown>[]>();
  /** Request parameters (merge and plain), in declaration order. */
  readonly requestParams: readonly RequestParamSpec[];

  constructor(route: Route<Req, Resp, string, never, never>, server: Server | undefined) {
    this.route = route;
    this.server = server;
    this.requestParams = route.params
      .filter((p: AnyParam): p is Exclude<AnyParam, { kind: 'responseHeader' | 'responseCookie' }> => p.kind !== 'responseHeader' && p.kind !== 'responseCookie')
      .map((p) => ({
        kind: p.kind as ParamLocation,
        name: p.name,
        required: p.required,
        codec: p.codec,
        merge: p.merge ? (p as RequestMergeParam<unknown, unknown>) : undefined,
      }));
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
    const known = this.#successFormats.get(spec);
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
    this.#successFormats.set(spec, formats);
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

  /** All request merge fields, flat, for `codec.decodeVars`. */
  mergeFields(): VarField<Req>[] {
    return this.#fields();
  }
  /** Path merge fields. */
  pathMergeFields(): VarField<Req>[] {
    return this.#fields('path');
  }
  /** Query merge fields. */
  queryMergeFields(): VarField<Req>[] {
    return this.#fields('query');
  }
  /** Header merge fields. */
  headerMergeFields(): VarField<Req>[] {
    return this.#fields('header');
  }
  /** Cookie merge fields. */
  cookieMergeFields(): VarField<Req>[] {
    return this.#fields('cookie');
  }

  #fields(kind?: ParamLocation): VarField<Req>[] {
    const out: VarField<Req>[] = [];
    for (const p of this.requestParams) {
      if (p.merge === undefined || (kind !== undefined && p.kind !== kind)) continue;
      const m = p.merge;
      out.push({ name: m.name, codec: m.codec, set: (req: Req, v: unknown) => m.set(req, v) });
    }
    return out;
  }

  /** The first error rule matching `err`, with its match. */
  matchRule(err: unknown): { readonly rule: ErrorRule; readonly value: unknown } | undefined {
    for (const rule of this.route.errorRules) {
      const value = rule.match(err);
      if (value !== undefined) return { rule, value };
    }
    return undefined;
  }

  /** The status of the first error rule matching `err`. */
  errorStatusFor(err: unknown): number | undefined {
    return this.matchRule(err)?.rule.status;
  }

  /**
   * The typed response of the first matching rule when it is an `ErrorRespond` pattern
   *; `undefined` when no rule matches or the rule writes
   * no typed body.
   * @throws when the pattern's `mapFn` throws or its body cannot be encoded.
   */
  errorResponseFor(err: unknown): ErrorPatternResponse | undefined {
    const m = this.matchRule(err);
    if (m === undefined || m.rule.optionKind !== 'errorPattern' || m.rule.action !== 'respond') return undefined;
    const body = json(m.rule.body).marshal(m.value);
    return new ErrorPatternResponse(m.rule.status, m.value, body, { cause: err });
  }

  /**
   * As {@link RouteHandle.errorResponseFor}, and reports to `observer`: the match or miss
   * (`onErrorPattern`), an `ErrorLog` match (`onErrorLog`), and the span attributes
   * `http.route`, `http.response.status_code`, `error.type` and `error.pattern` (`onSpanTags`).
   * An observer that throws is ignored.
   */
  observeErrorResponseFor(_ctx: Context, observer: Observer | undefined, err: unknown): ErrorPatternResponse | undefined {
    const m = this.matchRule(err);
    const status = m?.rule.status ?? 500;
    const route = this.route.id;
    const safely = (fn: () => void): void => {
      try {
        fn();
      } catch {
        // Observers never break a request.
      }
    };
    if (observer !== undefined) {
      safely(() => observer.onErrorPattern?.({ route, matched: m !== undefined, status, error: err }));
      if (m !== undefined && m.rule.optionKind === 'errorPattern' && m.rule.action === ErrorLog) safely(() => observer.onErrorLog?.({ route, status, error: err, value: m.value }));
      safely(() => observer.onSpanTags?.({ route, tags: spanTags(this.route.path, status, err, m?.rule) }));
    }
    return this.errorResponseFor(err);
  }

  /** True when the first matching rule is an `ErrorLog` pattern. */
  isLogged(err: unknown): boolean {
    const m = this.matchRule(err);
    return m !== undefined && m.rule.optionKind === 'errorPattern' && m.rule.action === ErrorLog;
  }

  /**
   * Decodes a non-2xx response body by the `ErrorRespond` pattern of that status. `undefined` when no pattern has the status.
   * `contentType` is the response's `Content-Type`: a body in one of `formats` (default: the
   * route's response formats) that can carry the pattern's codec is read in that format, any
   * other in JSON.
   * @throws {DecodeError} when the body does not decode through the pattern's codec.
   */
  decodeErrorFor(status: number, body: Uint8Array, contentType?: string, formats: readonly Format<unknown>[] = this.responseFormats as readonly Format<unknown>[]): ErrorPatternResponse | undefined {
    // The server writes a typed error body in the negotiated format when it can carry the
    // pattern's codec (json, yaml, toml, cbor), in JSON otherwise.
    const type = contentType === undefined ? 'application/json' : mediaTypeOf(contentType);
    const carrier = type === 'application/json' || type === '' ? undefined : formats.find((f) => f.withCodec !== undefined && mediaTypeOf(f.contentType) === type);
    for (const rule of this.route.errorRules) {
      if (rule.optionKind === 'errorPattern' && rule.action === 'respond' && rule.status === status) {
        const value = (carrier?.withCodec?.(rule.body) ?? json(rule.body)).unmarshal(body);
        return new ErrorPatternResponse(status, value, body);
      }
    }
    return undefined;
  }

  #validate(kind: ParamLocation, lookup: (name: string) => string | undefined): void {
    for (const p of this.requestParams) if (p.kind === kind) decodeParam(p, lookup(p.name));
  }

  /** Checks the declared query parameters; an array-valued one gets every value of its key. @throws {QueryParamError} */
  validateQuery(query: URLSearchParams): void {
    for (const p of this.requestParams) if (p.kind === 'query') decodeParam(p, isMultiValue(p.codec) ? query.getAll(p.name) : (query.get(p.name) ?? undefined));
  }

  /** Checks the declared cookies. @throws {CookieParamError} */
  validateCookies(cookies: Readonly<Record<string, string>>): void {
    this.#validate('cookie', (n) => (Object.prototype.hasOwnProperty.call(cookies, n) ? cookies[n] : undefined));
  }

  /** Checks the declared request headers. @throws {HeaderParamError} */
  validateHeaders(headers: Headers): void {
    this.#validate('header', (n) => headers.get(n) ?? undefined);
  }

  /**
   * The concrete path for `vars`: each value is checked by its path parameter's codec,
   * percent-encoded, and the result checked by the builder's path checks.
   * @throws {MissingPathVarError} @throws {PathParamError} @throws {InvalidPathError}
   */
  buildPath(vars: Readonly<Record<string, string>>): string {
    for (const name of this.route.pathVars) {
      if (!Object.prototype.hasOwnProperty.call(vars, name)) throw new MissingPathVarError(name);
      const value = vars[name] as string;
      if (value === '') throw new PathParamError(name, value, new Error('must not be empty'));
      for (const p of this.requestParams) if (p.kind === 'path' && p.name === name) decodeParam(p, value);
    }
    const path = fillTemplate(this.route.path, vars);
    this.server?.checkPath(path);
    return path;
  }
}

