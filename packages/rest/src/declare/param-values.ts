import { DecodeError, type Codec, type StandardSchemaCodec } from '@lib/codec';
import { CookieParamError, HeaderParamError, PathParamError, QueryParamError, type ParamError } from './errors.js';
import type { ParamLocation, RequestMergeParam } from './params.js';

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
