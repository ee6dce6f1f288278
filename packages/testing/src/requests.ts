import type { Codec } from '@lib/codec';
import { mediaTypeOf, type Format } from '@lib/format';
import type { MediaTypeDescriptor, ParameterDescriptor, RouteDescriptor } from '@lib/openapi';
import { describeRoute, isMultiValue, RouteHandle, type Route } from '@lib/rest';
import { fillEncodedTemplate, readsBack, resolveParamStyle, writeStyled, type ResolvedParamStyle } from '@lib/rest/pipeline';
import { stringifyCookie } from 'cookie';
import fc from 'fast-check';
import { arbitrary } from './arbitrary.js';
import { FIELD_VALUE, isJsonMediaType, wellFormed } from './internal/http.js';
import { Memo } from './internal/memo.js';
import { satisfying } from './internal/satisfying.js';
import { fieldNames, fillBody, type StateRecord } from './internal/state.js';
import type { RefusedValue } from './refused-value.js';

/**
 * One HTTP request, as `testing.requests` generates it and `testing.checkServer` sends it: ready
 * for `fetch(baseURL + target, { method, headers, body })`.
 */
export interface TestRequest {
  /** The request method (`GET`, `POST`, …). */
  readonly method: string;
  /**
   * The request target (RFC 9112 §3.2.1, origin form): the route's path template with each
   * variable percent-encoded (`encodeURIComponent`), then the query (`?a=1&tag=x&tag=y`,
   * `application/x-www-form-urlencoded`, one pair per value of a multi-valued parameter). A
   * styled parameter (OpenAPI 3.1 §4.8.12.4: a list, an object, a `label` or `matrix` value) is
   * written as its style writes it (`/items/.3.4.5`, `?ids=3|4|5`, `?color[R]=100`), as the
   * typed client writes it.
   */
  readonly target: string;
  /**
   * Header fields by name: the route's header parameters, `cookie` (RFC 6265 §4.2.1, values
   * percent-encoded as the `cookie` package writes them), `content-type` with a body, and the
   * credentials given.
   */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body, marshalled in one of the route's request formats (a `Blob` for a multipart body,
   * its files unread); absent without one.
   */
  readonly body?: string | Uint8Array | Blob;
  /**
   * For a request the server must refuse (`valid: false`): the one thing it breaks — where
   * (`query limit`, `path id`, `body /address/zip`) and what (the `constraint` the codec names,
   * or `required` for a missing parameter).
   */
  readonly breaks?: { readonly at: string; readonly constraint: string };
}

/**
 * Credentials sent with every request: header fields, query pairs and cookies, as the route's
 * security schemes read them (`{ headers: { authorization: 'Bearer …' } }`,
 * `{ cookies: { session: '…' } }`). Values are sent as given (cookies percent-encoded).
 */
export interface RequestCredentials {
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly cookies?: Readonly<Record<string, string>>;
}

/** Options of {@link requests}. */
export interface RequestsOptions {
  /**
   * `true` (the default): requests the route's declaration accepts — every parameter and the
   * body valid. `false`: requests with exactly one parameter or the body invalid (or one
   * required parameter missing), which the server must refuse with a 4xx.
   */
  readonly valid?: boolean;
  /** Sent with every request. */
  readonly credentials?: RequestCredentials;
  /**
   * Values other routes answered, by field name, tried for parameters of the same name
   * (`id` for `{id}`), each on its own (`records` keeps the values of one exchange together, and
   * fills body fields too). Values the parameter's codec refuses are not used.
   */
  readonly known?: ReadonlyMap<string, readonly string[]>;
  /**
   * Earlier exchanges, each as the values it sent and got back by name (`checkServer` fills it as
   * it goes: a request's parameters, header names in lower case, its body's fields, the answer's
   * fields and the cookies it set). About half the requests take one of them and fill every
   * parameter and body field of the same name from it — all from that one, so that an e-mail and
   * its password, or a todo's id and its tenant, stay together. A value the parameter's or the
   * body's codec refuses is left out. The list is read when the arbitrary is built.
   */
  readonly records?: readonly Readonly<Record<string, string | number | boolean>>[];
}

/**
 * A route (`rest.route(...)`, any request and response types), or a handle of one
 * (`api.handles()`, `route.clientHandle()`).
 */
export type AnyRoute = RouteHandle<unknown, unknown> | Pick<Route<unknown, unknown>, 'id' | 'clientHandle'>;

/** The handle of a route or handle: a registered handle keeps its builder's formats and security. */
export function handleOf(route: AnyRoute): RouteHandle<unknown, unknown> {
  return route instanceof RouteHandle ? route : route.clientHandle();
}

/** What a request is built from: each parameter's wire value (absent: not sent), and the body. */
interface Parts {
  readonly params: readonly (unknown | undefined)[];
  readonly body: { readonly media: MediaTypeDescriptor; readonly wire: unknown } | undefined;
  readonly breaks?: { readonly at: string; readonly constraint: string };
  /** The place an invalid request breaks (a parameter's index, or the body): no record fills it. */
  readonly broken?: number | 'body';
}

/**
 * A fast-check `Arbitrary` of whole requests to `route`, generated from its declaration: the path
 * with its variables, the query (repeated keys for a multi-valued parameter), header fields,
 * cookies, and a body in each of the route's request formats. With `valid: false`, each request
 * breaks exactly one thing (see {@link TestRequest.breaks}); for a route with nothing to break (no
 * parameter or body that can be invalid) it throws: check {@link canRefuse} first.
 *
 * Values are those of `testing.arbitrary` for each parameter's and the body's codec, kept where
 * HTTP can carry them: header values are visible ASCII (RFC 9110 §5.5), cookie values are
 * percent-encoded, path values are never empty, `.` or `..` (RFC 3986 §5.2.4 would remove them),
 * and text is well-formed Unicode. A body is JSON for JSON media types (the wire value as it is,
 * so an invalid body reaches the server); in any other format only valid bodies are generated,
 * marshalled by the route's own format.
 * @throws {TypeError} (from `testing.arbitrary`) for a codec that cannot be generated; with
 * `valid: false`, for a route with nothing to break.
 */
export function requests(route: AnyRoute, options: RequestsOptions = {}): fc.Arbitrary<TestRequest> {
  const handle = handleOf(route);
  const d = describeRoute(handle);
  const both = routeRequests(handle, d, options);
  if (options.valid ?? true) return both.valid();
  const invalid = both.invalid();
  // An arbitrary of nothing would make fast-check draw forever: say so now instead.
  if (invalid === undefined) throw new TypeError(`${d.method} ${d.path}: a request has nothing to break (no parameter or body that can be invalid); check canRefuse(route) first`);
  return invalid;
}

/**
 * The valid requests to a described route, and its invalid ones (`undefined` when it has nothing
 * to break), each built when asked, so that it offers the `known` values learned until then
 * (`checkServer` asks for the invalid ones after the valid run). Internal.
 */
export function routeRequests(
  handle: RouteHandle<unknown, unknown>,
  d: RouteDescriptor,
  options: Omit<RequestsOptions, 'valid'>,
): { valid(): fc.Arbitrary<TestRequest>; invalid(): fc.Arbitrary<TestRequest> | undefined } {
  const toRequest = (p: Parts): TestRequest => build(handle, d, p, options.credentials);
  return {
    valid: () => withRecords(d, validParts(d, options.known), options.records).map(toRequest),
    invalid: () => {
      const places = breaks(d);
      return places.length === 0 ? undefined : withRecords(d, invalidParts(d, options.known, places), options.records).map(toRequest);
    },
  };
}

/**
 * The wire values a request to `d` was built from, by name as {@link RequestsOptions.records}
 * has them: each parameter sent (its first value; header names in lower case). Internal.
 */
export function requestValues(d: RouteDescriptor, req: TestRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const parts = (req as { [PARTS]?: Parts })[PARTS];
  if (parts === undefined) return out;
  d.parameters.forEach((p, i) => {
    const w = parts.params[i];
    const v = Array.isArray(w) ? w[0] : w;
    if (typeof v === 'string') out[paramKey(p)] = v;
  });
  return out;
}

/** The body wire value a request was built from (before it was marshalled); `undefined` without one. Internal. */
export function requestBodyWire(req: TestRequest): unknown {
  return (req as { [PARTS]?: Parts })[PARTS]?.body?.wire;
}

/** Where a request keeps the parts it was built from, out of sight of `JSON.stringify` and reports. */
const PARTS: unique symbol = Symbol('parts');

/** The styles of described parameters, resolved once each. */
const STYLES = new WeakMap<ParameterDescriptor, ResolvedParamStyle | null>();

/**
 * The style a described parameter is read and written in (the document's `style` and `explode`
 * over its location's defaults), as the server resolves it; `undefined` for a parameter read as
 * plain text.
 */
function styleOf(p: ParameterDescriptor): ResolvedParamStyle | undefined {
  let s = STYLES.get(p);
  if (s === undefined) {
    const options = { ...(p.style !== undefined && { style: p.style }), ...(p.explode !== undefined && { explode: p.explode }) };
    s = resolveParamStyle(p.in, p.name, p.codec as Codec<unknown> | undefined, options, isMultiValue(p.codec)) ?? null;
    STYLES.set(p, s);
  }
  return s ?? undefined;
}

/**
 * What a styled parameter's wire value is sent as: its text (path segment, header or cookie
 * value) or its query pairs; `undefined` when its style cannot carry it so that it reads back as
 * itself.
 */
function styledOutput(s: ResolvedParamStyle, wire: unknown): { readonly text: string } | { readonly pairs: readonly string[] } | undefined {
  const w = wire as Parameters<typeof writeStyled>[1];
  return readsBack(s, w) ? writeStyled(s, w) : undefined;
}

/** A path segment that URL parsing removes or climbs from (RFC 3986 §5.2.4; WHATWG URL reads `%2e` as `.`). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The name a parameter is filled by: header names in lower case (RFC 9110 §5.1), others as declared. */
function paramKey(p: ParameterDescriptor): string {
  return p.in === 'header' ? p.name.toLowerCase() : p.name;
}

/**
 * `parts`, about half of them filled from one of `records` that names one of their parameters or
 * body fields (see {@link RequestsOptions.records}); the choice shrinks to "no record".
 */
function withRecords(d: RouteDescriptor, parts: fc.Arbitrary<Parts>, records: RequestsOptions['records']): fc.Arbitrary<Parts> {
  if (records === undefined || records.length === 0) return parts;
  const list = [...records];
  return fc.tuple(parts, fc.option(fc.nat(), { freq: 2, nil: undefined })).map(([p, pick]) => {
    if (pick === undefined) return p;
    const names = new Set(d.parameters.map(paramKey));
    if (p.body !== undefined && p.broken !== 'body') fieldNames(p.body.wire, names);
    const candidates = list.filter((r) => Object.keys(r).some((k) => names.has(k)));
    if (candidates.length === 0) return p;
    return fillParts(d, p, candidates[pick % candidates.length] as StateRecord);
  });
}

/** `parts` with every parameter and body field that `record` names taken from it, where the codecs accept the value. */
function fillParts(d: RouteDescriptor, parts: Parts, record: StateRecord): Parts {
  const params = parts.params.map((w, i) => {
    const p = d.parameters[i] as ParameterDescriptor;
    const v = record[paramKey(p)];
    // A styled parameter's value is a list or an object: a recorded text does not fill it.
    if (i === parts.broken || v === undefined || styleOf(p) !== undefined) return w;
    const candidate = p.in === 'query' && isMultiValue(p.codec) ? [String(v)] : String(v);
    return decodes(p.codec, candidate) && sendable(p, candidate) ? candidate : w;
  });
  let body = parts.body;
  if (body !== undefined && parts.broken !== 'body') {
    const { media } = body;
    const wire = fillBody(body.wire, record, (x) => decodes(media.codec as Codec<unknown>, x));
    if (wire !== body.wire) body = { media, wire };
  }
  return { ...parts, params, body };
}

/** True when `route` has a parameter or body that a request can break (so `requests(route, { valid: false })` generates). */
export function canRefuse(route: AnyRoute): boolean {
  return breaks(describeRoute(handleOf(route))).length > 0;
}

// ---------------------------------------------------------------------------------------------

/**
 * True when `wire` can be sent as parameter `p`: a string, or for a multi-valued query parameter
 * (`rest.isMultiValue`) an array of strings, sent as one pair each (an empty array sends nothing,
 * so it is sendable only as a valid value: `refused` says which).
 */
function sendable(p: ParameterDescriptor, wire: unknown, refused = false): boolean {
  const style = styleOf(p);
  if (style !== undefined) return sendableStyled(p, style, wire, refused);
  const multiValued = p.in === 'query' && isMultiValue(p.codec);
  // A multi-valued parameter is read as a list whatever is sent: a refused value must be a
  // non-empty list (a lone string would arrive as a list of one, and no pair as an empty one).
  if (multiValued && refused && (!Array.isArray(wire) || wire.length === 0)) return false;
  const multi = multiValued && Array.isArray(wire);
  const values = multi ? wire : [wire];
  return values.every((v) => {
    if (typeof v !== 'string' || !wellFormed(v)) return false;
    if (p.in === 'path') return v !== '' && v !== '.' && v !== '..';
    if (p.in === 'header') return FIELD_VALUE.test(v);
    return true;
  });
}

/**
 * True when `wire` can be sent as styled parameter `p`: a text, list or object of well-formed
 * texts (as its style's shape) that its style writes and reads back as itself — a path segment
 * neither empty nor a dot segment, a header value of visible ASCII. An empty list or object sends
 * nothing: sendable only as a valid value of an optional parameter.
 */
function sendableStyled(p: ParameterDescriptor, s: ResolvedParamStyle, wire: unknown, refused: boolean): boolean {
  const texts = typeof wire === 'string' ? [wire] : Array.isArray(wire) ? wire : typeof wire === 'object' && wire !== null ? Object.entries(wire).flat() : undefined;
  if (texts === undefined || !texts.every((t) => typeof t === 'string' && wellFormed(t))) return false;
  if (typeof wire !== 'string' && texts.length === 0) return !refused && !p.required && p.in !== 'path';
  const out = styledOutput(s, wire);
  if (out === undefined) return false;
  if ('pairs' in out) return true;
  if (p.in === 'path') return out.text !== '' && !DOT_SEGMENT.test(out.text);
  if (p.in === 'header') return FIELD_VALUE.test(out.text);
  return true;
}

/** The wire values of one parameter: the codec's (its string form, `{ type: 'string' }` without one), and known ones that decode. */
function paramValues(p: ParameterDescriptor, known: ReadonlyMap<string, readonly string[]> | undefined): fc.Arbitrary<unknown> {
  const make = () => satisfying(p.codec === undefined ? fc.string() : arbitrary(p.codec as Codec<unknown>), (w) => sendable(p, w), `sendable value of ${p.in} parameter ${JSON.stringify(p.name)}`);
  // What is sendable depends on the codec and on where the parameter travels (and, in a header, not its name).
  const generated = p.codec === undefined ? make() : SENDABLE.get(p.codec as Codec<unknown>, variantOf(p), make);
  if (generated === undefined) throw new TypeError(`${p.in} parameter ${JSON.stringify(p.name)}: its codec's values cannot be sent in a ${p.in === 'header' ? 'header field (visible ASCII)' : p.in}`);
  const seen = (known?.get(p.name) ?? []).filter((v) => decodes(p.codec, v) && sendable(p, v));
  return seen.length === 0 ? generated : fc.oneof(fc.constantFrom(...seen), generated);
}

/** The sendable values and refusals of a parameter's codec, by where it travels (see {@link variantOf}). */
const SENDABLE = new Memo<Codec<unknown>, fc.Arbitrary<unknown> | undefined>();
const REFUSABLE = new Memo<Codec<unknown>, fc.Arbitrary<RefusedValue> | undefined>();

/** What {@link sendable} reads of a parameter besides its value: where it travels, and whether it is multi-valued. */
function variantOf(p: ParameterDescriptor): string {
  const s = styleOf(p);
  return `${p.in}:${p.in === 'query' && isMultiValue(p.codec)}:${JSON.stringify(p.name)}:${p.required}:${s === undefined ? '' : `${s.style}:${s.explode}`}`;
}

function decodes(codec: Codec<unknown> | undefined, wire: unknown): boolean {
  if (codec === undefined) return typeof wire === 'string';
  try {
    codec.decode(wire);
    return true;
  } catch {
    return false;
  }
}

/** A valid body wire value for one of the route's request media types. */
function validBody(d: RouteDescriptor): fc.Arbitrary<Parts['body']> {
  const content = d.requestBody?.content ?? [];
  if (content.length === 0) return fc.constant(undefined);
  const each = content.map((media) => arbitrary(media.codec as Codec<unknown>).map((wire) => ({ media, wire })));
  const body = fc.oneof(...each);
  return d.requestBody?.required === false ? fc.option(body, { nil: undefined }) : body;
}

/** Each parameter's valid wire values; `undefined` (not sent) among them when it is optional. */
function validParams(d: RouteDescriptor, known: ReadonlyMap<string, readonly string[]> | undefined): fc.Arbitrary<unknown>[] {
  return d.parameters.map((p) => (p.required ? paramValues(p, known) : fc.option(paramValues(p, known), { nil: undefined })));
}

function validParts(d: RouteDescriptor, known: ReadonlyMap<string, readonly string[]> | undefined): fc.Arbitrary<Parts> {
  return fc.record({ params: fc.tuple(...validParams(d, known)), body: validBody(d) });
}

/**
 * One place a request can break: parameter `param` left out (`refused` absent: a required
 * query, header or cookie parameter; a path variable cannot be, the route would not match) or
 * given a refused value, or the JSON body `media` given a refused value.
 */
type Break = { readonly param: number; readonly refused?: fc.Arbitrary<RefusedValue> } | { readonly media: MediaTypeDescriptor; readonly refused: fc.Arbitrary<RefusedValue> };

/** Every place one request to `d` can break. */
function breaks(d: RouteDescriptor): Break[] {
  const out: Break[] = [];
  d.parameters.forEach((p, i) => {
    if (p.required && p.in !== 'path') out.push({ param: i });
    // A codec that refuses no text (a plain string) has nothing to break here: parameters are text.
    const refused = p.codec === undefined ? undefined : REFUSABLE.get(p.codec as Codec<unknown>, variantOf(p), () => refusable(p.codec as Codec<unknown>, (r) => sendable(p, r.value, true), `sendable refused value of ${p.in} parameter ${JSON.stringify(p.name)}`));
    if (refused !== undefined) out.push({ param: i, refused });
  });
  for (const media of d.requestBody?.content ?? []) {
    if (!isJsonMediaType(media.mediaType)) continue;
    // JSON carries every refused value but a Blob (and `undefined`, which is no body at all).
    const refused = REFUSABLE.get(media.codec as Codec<unknown>, `body:${media.mediaType}`, () => refusable(media.codec as Codec<unknown>, (r) => r.value !== undefined && !(r.value instanceof Blob), `refused JSON body of ${media.mediaType}`));
    if (refused !== undefined) out.push({ media, refused });
  }
  return out;
}

/** The refused values of `codec` that `keep` accepts; `undefined` when it refuses nothing, or nothing `keep` accepts. */
function refusable(codec: Codec<unknown>, keep: (r: RefusedValue) => boolean, what: string): fc.Arbitrary<RefusedValue> | undefined {
  let all: fc.Arbitrary<RefusedValue>;
  try {
    all = arbitrary(codec, { valid: false }) as fc.Arbitrary<RefusedValue>;
  } catch {
    // A codec that refuses nothing (`any`, `empty`).
    return undefined;
  }
  return satisfying(all, keep, what);
}

/** Requests that break exactly one place: the other parameters and the body valid. */
function invalidParts(d: RouteDescriptor, known: ReadonlyMap<string, readonly string[]> | undefined, places: readonly Break[]): fc.Arbitrary<Parts> {
  const params = fc.tuple(...validParams(d, known));
  const body = validBody(d);
  return fc.oneof(
    ...places.map((b): fc.Arbitrary<Parts> => {
      if ('media' in b) return fc.tuple(params, b.refused).map(([ps, r]) => ({ params: ps, body: { media: b.media, wire: r.value }, breaks: { at: `body ${r.pointer || '/'}`, constraint: r.constraint }, broken: 'body' as const }));
      const p = d.parameters[b.param] as ParameterDescriptor;
      const at = `${p.in} ${p.name}`;
      const put = (ps: unknown[], v: unknown): unknown[] => ps.map((x, j) => (j === b.param ? v : x));
      if (b.refused === undefined) return fc.tuple(params, body).map(([ps, bd]) => ({ params: put(ps, undefined), body: bd, breaks: { at, constraint: 'required' }, broken: b.param }));
      return fc.tuple(params, body, b.refused).map(([ps, bd, r]) => ({ params: put(ps, r.value), body: bd, breaks: { at: r.pointer === '' ? at : `${at} ${r.pointer}`, constraint: r.constraint }, broken: b.param }));
    }),
  );
}

/** The request of `parts`: target, header fields, cookies and body. */
function build(handle: RouteHandle<unknown, unknown>, d: RouteDescriptor, parts: Parts, credentials: RequestCredentials | undefined): TestRequest {
  const segments: Record<string, string> = {};
  const query = new URLSearchParams();
  // The query pairs and cookies of styled parameters, as their style writes them.
  const styledPairs: string[] = [];
  const styledCookies: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  d.parameters.forEach((p, i) => {
    const wire = parts.params[i];
    if (wire === undefined) return;
    const style = styleOf(p);
    if (style !== undefined) {
      const out = styledOutput(style, wire);
      if (out === undefined) return;
      if ('pairs' in out) styledPairs.push(...out.pairs);
      else if (p.in === 'path') segments[p.name] = out.text;
      else if (p.in === 'header') headers[p.name.toLowerCase()] = out.text;
      else styledCookies.push(`${p.name}=${out.text}`);
      return;
    }
    const values = Array.isArray(wire) ? (wire as string[]) : [wire as string];
    if (p.in === 'path') segments[p.name] = encodeURIComponent(values[0] as string);
    else if (p.in === 'query') for (const v of values) query.append(p.name, v);
    else if (p.in === 'header') headers[p.name.toLowerCase()] = values.join(', ');
    else cookies[p.name] = values[0] as string;
  });
  for (const [k, v] of Object.entries(credentials?.query ?? {})) if (!query.has(k)) query.set(k, v);
  for (const [k, v] of Object.entries(credentials?.headers ?? {})) headers[k.toLowerCase()] ??= v;
  for (const [k, v] of Object.entries(credentials?.cookies ?? {})) cookies[k] ??= v;
  const cookieLines = [...(Object.keys(cookies).length > 0 ? [stringifyCookie(cookies)] : []), ...styledCookies];
  if (cookieLines.length > 0) headers['cookie'] = cookieLines.join('; ');
  const path = fillEncodedTemplate(d.path, segments);
  const search = [query.toString(), ...styledPairs].filter((x) => x !== '').join('&');
  let body: string | Uint8Array | Blob | undefined;
  if (parts.body !== undefined) {
    const { media, wire } = parts.body;
    if (isJsonMediaType(media.mediaType)) {
      body = JSON.stringify(wire);
      headers['content-type'] = media.mediaType;
    } else {
      const message = marshal(handle, media, wire);
      body = message.body;
      headers['content-type'] = message.contentType;
    }
  }
  const req: TestRequest = { method: d.method, target: search === '' ? path : `${path}?${search}`, headers, ...(body !== undefined && { body }), ...(parts.breaks !== undefined && { breaks: parts.breaks }) };
  // checkServer learns from the parts of a request that succeeded; hidden from reports and equality.
  Object.defineProperty(req, PARTS, { value: parts, enumerable: false });
  return req;
}

/** A format that can also write its body as a `Blob` (`format.multipart`). */
interface BlobWriter {
  marshalBlob?(value: unknown): { readonly contentType: string; readonly body: Blob };
}

/** A valid body in a format other than JSON: the wire value decoded, then marshalled by the route's own format. */
function marshal(handle: RouteHandle<unknown, unknown>, media: MediaTypeDescriptor, wire: unknown): { contentType: string; body: Uint8Array | Blob } {
  const f = handle.requestFormats.find((x) => mediaTypeOf(x.contentType) === mediaTypeOf(media.mediaType)) as (Format<unknown> & BlobWriter) | undefined;
  if (f === undefined) throw new TypeError(`${handle.route.id}: no request format for ${media.mediaType}`);
  const value = f.codec.decode(wire);
  if (f.marshalBlob !== undefined) return f.marshalBlob(value);
  if (f.marshalMessage !== undefined) return f.marshalMessage(value);
  return { contentType: f.contentType, body: f.marshal(value) };
}
