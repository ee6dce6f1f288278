import { DecodeError, type Codec, type StandardSchemaCodec } from '@lib/codec';
import { CookieParamError, HeaderParamError, PathParamError, QueryParamError, type ParamError } from './errors.js';
import type { ParamLocation, PlainParam, RequestMergeParam } from './params.js';
import type { ParamStyleOptions, ResolvedParamStyle, StyledWire } from './styled.js';

/** The parameter error class of each request location. */
export const PARAM_ERRORS: Readonly<Record<ParamLocation, new (name: string, value: string | undefined, cause: unknown) => ParamError>> = {
  path: PathParamError,
  query: QueryParamError,
  header: HeaderParamError,
  cookie: CookieParamError,
};

/**
 * True when a query parameter's codec takes every value of its key (OpenAPI `style: form,
 * explode: true`): a codec whose wire value is a list — an array codec, or a Standard Schema of
 * an array declared as a parameter (`z.array(z.number())`: its `list`) — or an optional or
 * defaulted one. The server decodes the list of values (`?tag=a&tag=b` → `['a', 'b']`); the
 * client sends one key per element.
 */
export function isMultiValue(codec: Codec<unknown> | undefined): boolean {
  let c: Codec<unknown> | undefined = codec;
  while (c !== undefined && (c.kind === 'optional' || c.kind === 'defaulted' || c.kind === 'lazy')) c = c.children()[0];
  // By kind, not instanceof, as above: the list test of a Standard Schema's codec is its own.
  return c?.kind === 'array' || (c?.kind === 'standardSchema' && (c as StandardSchemaCodec<unknown>).list);
}

/** A request parameter as checked by handles, the pipeline and the client: merge or plain. */
export interface RequestParamSpec {
  readonly kind: ParamLocation;
  readonly name: string;
  readonly required: boolean;
  readonly codec: Codec<unknown> | undefined;
  /** The merge field, for merge parameters. */
  readonly merge: RequestMergeParam<unknown, unknown> | undefined;
  /**
   * How the value is carried when it is not plain text (OpenAPI 3.1 §4.8.12.4: a list or an
   * object, or a `label` or `matrix` path value), read and written by `param-styles.ts`;
   * `undefined` for a value read as text as parameters always were.
   */
  readonly style?: ResolvedParamStyle | undefined;
}

/**
 * The functions of parameter styles a route with a styled parameter needs on every side
 * (`param-styles.ts`): installed by `rest.styled`, the only way a parameter gets a style, so that
 * a client whose routes declare none does not carry them.
 */
export interface ParamStyleSupport {
  /** `resolveParamStyle`: the style of a parameter, checked against its location and codec. */
  readonly resolve: (location: ParamLocation, name: string, codec: Codec<unknown> | undefined, options: ParamStyleOptions | undefined, multi: boolean) => ResolvedParamStyle | undefined;
  /** What a client sends for a styled parameter (`sendStyledParam`): a path's wire value, a text, query pairs, or nothing. */
  readonly send: (p: RequestParamSpec, s: ResolvedParamStyle, req: unknown, given: string | readonly string[] | undefined) => StyledSend | undefined;
  /** What a client sends for a wire value: a text, or query pairs (`writeStyledParam`). */
  readonly write: (p: RequestParamSpec, s: ResolvedParamStyle, wire: StyledWire) => { readonly text: string } | { readonly pairs: readonly string[] };
  /** Refuses two query parameters reading one key (`checkQueryKeys`). */
  readonly checkQueryKeys: (route: string, query: readonly RequestParamSpec[]) => void;
}

/** What a client sends for a styled parameter: a path variable's wire value (`buildPath` writes it), the text of a header or cookie, or the pairs of the query, written. */
export type StyledSend = { readonly path: StyledWire } | { readonly text: string } | { readonly pairs: readonly string[] };

let support: ParamStyleSupport | undefined;

/** Installs the functions of parameter styles (`rest.styled` does, and the server's pipeline). */
export function installParamStyles(s: ParamStyleSupport): void {
  support = s;
}

/**
 * The functions of parameter styles, installed by `rest.styled`.
 * @throws {Error} none is installed: a parameter has a style that `rest.styled` did not give it.
 */
export function paramStyles(): ParamStyleSupport {
  if (support === undefined) throw new Error('parameter styles are declared with rest.styled(codec, options)');
  return support;
}

/**
 * What a codec's wire value is, as far as declaring it needs: a list (an array codec, a Standard
 * Schema of an array), an object (an object or record codec, a Standard Schema of an object), or
 * a single text; through `optional`, `defaulted`, `nullable`, `lazy` and `map`.
 */
function structure(codec: Codec<unknown> | undefined): 'list' | 'object' | undefined {
  let c = codec;
  for (let i = 0; i < 8 && c !== undefined && STRUCTURE_WRAPPERS.has(c.kind); i++) c = c.children()[0];
  if (c === undefined) return undefined;
  if (isMultiValue(c)) return 'list';
  if (OBJECT_KINDS.has(c.kind)) return 'object';
  if (c.kind !== 'standardSchema') return undefined;
  const type = (c as StandardSchemaCodec<unknown>).rawJsonSchema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) ? 'object' : undefined;
}
const STRUCTURE_WRAPPERS: ReadonlySet<string> = new Set(['optional', 'defaulted', 'nullable', 'lazy', 'map', 'mapValidated']);
const OBJECT_KINDS: ReadonlySet<string> = new Set(['object', 'record', 'additionalProperties']);

/**
 * The request parameter spec of a declared request parameter (a route's or a middleware's, merge
 * or plain), its style resolved against its location and codec when `rest.styled` gave it one.
 * @throws {TypeError} a style the location does not admit for the codec, or a list or an object
 * without a style where one is needed — anywhere but a list in a query (repeated keys): OpenAPI
 * 3.1 §4.8.12.4 reads them in a style, declared with `rest.styled` (declarations check it first).
 */
export function requestParamSpec(p: RequestMergeParam<unknown, unknown> | PlainParam<ParamLocation>): RequestParamSpec {
  const known = SPECS.get(p);
  if (known !== undefined) return known;
  const merge = p.merge ? (p as RequestMergeParam<unknown, unknown>) : undefined;
  let style: ResolvedParamStyle | undefined;
  if (merge?.style !== undefined) style = paramStyles().resolve(p.kind, p.name, p.codec, merge.style, isMultiValue(p.codec));
  else {
    const shape = structure(p.codec);
    if (shape === 'object' || (shape === 'list' && p.kind !== 'query')) {
      throw new TypeError(`${shape === 'list' ? 'a list' : 'an object'} is read in a style (OpenAPI 3.1 §4.8.12.4): declare it rest.styled(codec), in the ${p.kind}'s default style, or rest.styled(codec, { style, explode })`);
    }
  }
  const spec: RequestParamSpec = { kind: p.kind, name: p.name, required: p.required, codec: p.codec, merge, ...(style !== undefined && { style }) };
  SPECS.set(p, spec);
  return spec;
}

/** The spec of each declared parameter (parameters are immutable: their `with*` methods make copies). */
const SPECS = new WeakMap<object, RequestParamSpec>();

/** True for a wire value that is absent on the wire: an empty list or an object without keys. */
export function isEmptyWire(wire: StyledWire): boolean {
  return typeof wire === 'string' ? false : Array.isArray(wire) ? wire.length === 0 : Object.keys(wire).length === 0;
}

/**
 * Decodes one parameter's raw string (or, for a multi-valued query parameter, the list of its
 * key's values; an empty list counts as absent; for a styled parameter, the list or object of
 * texts its style read) through its codec. An absent optional parameter is `undefined`, or its
 * default when its codec is `codec.defaulted(...)`.
 * @param text the text the value came from, for the error (default: the raw value, a list joined with `,`).
 * @throws {ParamError} of the parameter's location: missing when required, or failing its codec.
 * @throws what a constraint of the codec throws (a bug, not a refused value), unchanged.
 */
export function decodeParam(p: RequestParamSpec, raw: StyledWire | undefined, text?: string): unknown {
  const ErrorClass = PARAM_ERRORS[p.kind];
  if (raw === undefined || (typeof raw !== 'string' && isEmptyWire(raw))) {
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
    throw new ErrorClass(p.name, text ?? (typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : JSON.stringify(raw)), err);
  }
}

/**
 * Reads a styled parameter with `read` (a function of `param-styles.ts` over the request's text)
 * and decodes it as {@link decodeParam} does.
 * @throws {ParamError} of the parameter's location: the text is not of the style (the
 * `DecodeError` of constraint `style` as its cause), or as {@link decodeParam}.
 */
export function decodeStyled(p: RequestParamSpec, read: () => { readonly wire: StyledWire; readonly text: string } | undefined): unknown {
  let r: { readonly wire: StyledWire; readonly text: string } | undefined;
  try {
    r = read();
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err;
    throw new PARAM_ERRORS[p.kind](p.name, String(err.issues[0]?.value ?? ''), err);
  }
  return decodeParam(p, r?.wire, r?.text);
}

/** The string a wire value is sent as: strings as they are, `null`/`undefined` as `''`, objects as JSON. */
export function wireString(wire: unknown): string {
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
 * string, whose encoding must decode again — except that an optional query, header or cookie
 * parameter whose value encodes to the empty string (`''`, or `null` of a nullable codec) gives
 * none: it is left out of the request, and the server reads it as absent.
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
  // An optional query, header or cookie value that is empty is left out: the server reads an
  // empty `?q=` as present-and-empty, which is not what an empty optional value means.
  if (s === '' && !p.required && p.kind !== 'path') return [];
  refuseEmpty(p, [s]);
  try {
    p.codec?.decode(wire);
  } catch (err) {
    throw new ErrorClass(p.name, s, err);
  }
  return [s];
}
