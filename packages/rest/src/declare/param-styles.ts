/**
 * Parameter styles (OpenAPI 3.1 §4.8.12.4, Style Values): how a path, query, header or cookie
 * parameter carries a list or an object as text, as RFC 6570 URI Template expansions write it
 * (`simple` §3.2.2, `label` §3.2.5, `matrix` §3.2.7, `form` §3.2.8) and by the query conventions
 * `spaceDelimited`, `pipeDelimited` and `deepObject`. One place for both directions: what a
 * declaration resolves ({@link resolveParamStyle}, {@link documentedStyle}); how the server reads
 * a styled value ({@link readStyledText}, {@link readStyledQuery}); how the client, the path
 * builder and `@lib/testing` write it ({@link writeStyled}). Pure functions of text; nothing
 * here knows HTTP messages.
 *
 * A styled value is, on the wire side of its codec, a string (a scalar), a list of strings (an
 * array: the texts of its items) or an object of strings (an object: the texts of its
 * properties), read by the codec as today's parameters are (`codec.array(codec.intString())`,
 * `codec.object({ R: codec.intString() })`).
 */
import { DecodeError, defineEntry, makeIssue, SchemaWriter, type Codec, type JsonSchema } from '@lib/codec';
import { isEmptyWire, PARAM_ERRORS, wireString, type ParamStyleSupport, type RequestParamSpec, type StyledSend } from './param-values.js';
import type { ParamLocation } from './params.js';
import { RouteDeclarationError } from './path-template.js';
import type { ParamStyle, ParamStyleOptions, ResolvedParamStyle, StyledRead, StyledWire } from './styled.js';

export { isEmptyWire };
export type { CookieParamStyle, HeaderParamStyle, ParamStyle, ParamStyleOptions, PathParamStyle, PathVarValue, QueryParamStyle, ResolvedParamStyle, StyledRead, StyledWire } from './styled.js';

/** The default style of each location (OpenAPI 3.1 §4.8.12.2). */
export const DEFAULT_PARAM_STYLES: Readonly<Record<ParamLocation, ParamStyle>> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };

/** The styles each location admits (OpenAPI 3.1 §4.8.12.4). */
const LOCATION_STYLES: Readonly<Record<ParamLocation, readonly ParamStyle[]>> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

/** The default `explode` of a style: true for `form` only (OpenAPI 3.1 §4.8.12.2). */
export function defaultExplode(style: ParamStyle): boolean {
  return style === 'form';
}

/** Kinds of codecs whose wire value is always one text. */
const TEXT_KINDS: ReadonlySet<string> = new Set(['string', 'intString', 'numberString', 'boolString', 'literal', 'time', 'httpDate', 'duration', 'date']);

/** The properties of a JSON Schema that say what shape a value has. */
interface ShapeOf {
  readonly shape: 'scalar' | 'array' | 'object';
  readonly keys: readonly string[];
}

/**
 * The shape of a codec's wire value, read from its JSON Schema in parameter position: `type:
 * array` is a list, `type: object` an object (its `properties` the declared keys; `null` beside
 * either is allowed), anything else a scalar. `multi` marks a codec known to be a list
 * (`isMultiValue`).
 */
export function wireShape(codec: Codec<unknown> | undefined, multi = false): ShapeOf {
  if (codec === undefined) return { shape: 'scalar', keys: [] };
  if (multi) return { shape: 'array', keys: [] };
  // The text codecs parameters mostly are: no schema to write to know it.
  if (TEXT_KINDS.has(codec.kind)) return { shape: 'scalar', keys: [] };
  const writer = new SchemaWriter();
  let schema: JsonSchema | undefined;
  try {
    schema = writer.parameterSchema(codec);
  } catch {
    return { shape: 'scalar', keys: [] };
  }
  for (let i = 0; i < 8 && schema !== undefined && typeof schema.$ref === 'string'; i++) {
    const ref: string = schema.$ref;
    schema = ref.startsWith(writer.refPrefix) ? writer.definitions[decodeURIComponent(ref.slice(writer.refPrefix.length))] : undefined;
  }
  const types = schema?.type === undefined ? [] : (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null');
  if (types.length !== 1) return { shape: 'scalar', keys: [] };
  if (types[0] === 'array') return { shape: 'array', keys: [] };
  if (types[0] === 'object') return { shape: 'object', keys: Object.keys(schema?.properties ?? {}) };
  return { shape: 'scalar', keys: [] };
}

/**
 * The style a parameter is read and written in, or `undefined` for one read as plain text as
 * parameters always were: a scalar in its location's default style, and a list in the default
 * query style (`form`, exploded: `?id=3&id=4`, `multi` true). Anything else — a list or an
 * object in any location, a scalar in `label` or `matrix` style — is resolved here and goes
 * through the functions of this module. The combinations are those OpenAPI 3.1 §4.8.12.4
 * defines:
 *
 * - path: `simple`, `label`, `matrix`, for scalars, lists and objects, exploded or not;
 * - query: `form` (scalars, lists, objects; an exploded object's declared properties are its
 *   keys), `spaceDelimited` and `pipeDelimited` (lists and objects, not exploded), `deepObject`
 *   (objects, exploded);
 * - header: `simple`, for scalars, lists and objects;
 * - cookie: `form`, a list or an object not exploded (`ids=3,4,5`: a cookie cannot repeat its name).
 * @param multi the codec is a list by its kind (`isMultiValue`).
 * @throws {TypeError} a combination OpenAPI does not define, or this library cannot read: the
 * message says which and what to declare instead (the route declaration wraps it in a
 * `RouteDeclarationError`).
 */
export function resolveParamStyle(location: ParamLocation, name: string, codec: Codec<unknown> | undefined, options: ParamStyleOptions | undefined, multi = false): ResolvedParamStyle | undefined {
  const allowed = LOCATION_STYLES[location];
  const declared = options?.style;
  if (declared !== undefined && !allowed.includes(declared)) {
    throw new TypeError(`style ${JSON.stringify(declared)} is not a style of ${location} parameters (OpenAPI 3.1 §4.8.12.4: ${allowed.join(', ')})`);
  }
  if (options?.explode !== undefined && typeof options.explode !== 'boolean') throw new TypeError(`explode must be true or false, not ${JSON.stringify(options.explode)}`);
  const style = declared ?? DEFAULT_PARAM_STYLES[location];
  const { shape, keys } = wireShape(codec, multi);
  let explode = options?.explode ?? defaultExplode(style);
  if (style === 'spaceDelimited' || style === 'pipeDelimited') {
    if (shape === 'scalar') throw new TypeError(`style ${style} carries an array or an object (OpenAPI 3.1 §4.8.12.4); this codec's value is a single text: use style "form"`);
    if (explode) throw new TypeError(`style ${style} is not exploded; an exploded list is style "form" (repeated keys)`);
  }
  if (style === 'deepObject') {
    if (shape !== 'object') throw new TypeError('style deepObject carries an object (OpenAPI 3.1 §4.8.12.4: color[R]=100); this codec\'s value is not an object');
    if (options?.explode === false) throw new TypeError('style deepObject is only defined exploded: leave explode out, or set it true');
    explode = true;
  }
  if (location === 'cookie' && shape !== 'scalar' && explode) {
    throw new TypeError(`a cookie carries an ${shape} with explode: false (form style, ids=3,4,5: a cookie cannot repeat its name): declare rest.styled(codec, { explode: false })`);
  }
  if (location === 'query' && style === 'form' && explode && shape === 'object' && keys.length === 0) {
    throw new TypeError('an exploded form object is read by its declared properties (each its own query key), and this codec declares none (a record): use style "deepObject", or explode: false');
  }
  if (shape === 'scalar' && style === DEFAULT_PARAM_STYLES[location]) return undefined;
  if (location === 'query' && style === 'form' && explode && shape === 'array' && multi) return undefined;
  return { location, name, style, explode, shape, keys };
}

/**
 * The `style` and `explode` the OpenAPI document writes for a parameter: each only when it
 * differs from its default (the location's style; `explode` true for `form`, false for the
 * others — so `deepObject` writes `explode: true`).
 */
export function documentedStyle(s: ResolvedParamStyle | undefined): { style?: ParamStyle; explode?: boolean } {
  if (s === undefined) return {};
  return {
    ...(s.style !== DEFAULT_PARAM_STYLES[s.location] && { style: s.style }),
    ...(s.explode !== defaultExplode(s.style) && { explode: s.explode }),
  };
}

// ---------------------------------------------------------------------------------------------
// Percent-encoding

const HEX = '0123456789ABCDEF';

/**
 * `text` percent-encoded as RFC 6570 §3.2.1 encodes a value: every character but the
 * unreserved ones (`A–Z a–z 0–9 - . _ ~`, RFC 3986 §2.3) as the `%XX` of its UTF-8 bytes. With
 * `dot`, `.` too (a `label` item: `.` is its separator).
 * @throws {TypeError} the text is not well-formed Unicode (a lone surrogate).
 */
export function percentEncode(text: string, dot = false): string {
  let out: string;
  try {
    out = encodeURIComponent(text);
  } catch {
    throw new TypeError(`${JSON.stringify(text)} is not well-formed Unicode text (a lone surrogate)`);
  }
  out = out.replace(/[!'()*]/g, (c) => `%${HEX[c.charCodeAt(0) >> 4]}${HEX[c.charCodeAt(0) & 15]}`);
  return dot ? out.replaceAll('.', '%2E') : out;
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * `text` percent-decoded as a URL parser does (WHATWG URL, `application/x-www-form-urlencoded`
 * with `plus`: `+` is a space): each `%XX` is a byte, the bytes read as UTF-8 (a bad sequence as
 * U+FFFD); a `%` not followed by two hex digits stays as it is. Never throws.
 */
export function percentDecode(text: string, plus = false): string {
  const t = plus && text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!t.includes('%')) return t;
  try {
    return decodeURIComponent(t);
  } catch {
    // A malformed escape or a bad UTF-8 sequence: byte by byte, as URLSearchParams does.
  }
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < t.length; ) {
    if (t.charCodeAt(i) === 37 && i + 2 < t.length && isHex(t.charCodeAt(i + 1)) && isHex(t.charCodeAt(i + 2))) {
      bytes.push(parseInt(t.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = t.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      for (const b of utf8.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}


// ---------------------------------------------------------------------------------------------
// Reading

/** A refused styled text, as the codec's own refusals are: a `DecodeError` (constraint `style`) the parameter error carries. */
function malformed(s: ResolvedParamStyle, text: string, expected: string): DecodeError {
  return new DecodeError([makeIssue([], `malformed ${s.style}${s.explode ? ' exploded' : ''} value: expected ${expected}`, 'style', text)]);
}

/** What a list of texts reads as for a shape: the list, the object of its pairs (`R,100,G,200`), or the object of its `k=v` items. */
function fromItems(s: ResolvedParamStyle, text: string, items: readonly string[], decode: (t: string) => string, pairsExploded: boolean): StyledWire | undefined {
  if (s.shape === 'array') return items.length === 0 ? undefined : items.map(decode);
  const out: Record<string, string> = {};
  if (pairsExploded) {
    for (const item of items) {
      const eq = item.indexOf('=');
      if (eq === -1) throw malformed(s, text, 'name=value items');
      const key = decode(item.slice(0, eq));
      if (!Object.hasOwn(out, key)) defineEntry(out, key, decode(item.slice(eq + 1)));
    }
  } else {
    if (items.length % 2 !== 0) throw malformed(s, text, 'name,value pairs');
    for (let i = 0; i < items.length; i += 2) {
      const key = decode(items[i] as string);
      if (!Object.hasOwn(out, key)) defineEntry(out, key, decode(items[i + 1] as string));
    }
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `text` split at `sep`; none for the empty text. */
function split(text: string, sep: string): string[] {
  return text === '' ? [] : text.split(sep);
}

/**
 * Reads the value of a path, header or cookie parameter from its text: a path segment as it
 * arrived (percent-encoded), a header field value, a cookie value as sent (`ids=3,4,5`: `3,4,5`).
 * `simple` (and a cookie's `form`) is `3,4,5` / object `R,100,G,200`, exploded `R=100,G=200`;
 * `label` `.3,4,5`, exploded `.3.4.5` / `.R=100.G=200`; `matrix` `;id=3,4,5`, exploded
 * `;id=3;id=4;id=5` / `;R=100;G=200`. Each item is percent-decoded after the text is split, so an
 * escaped delimiter (`%2C`) belongs to its item. A header's items lose the spaces around them
 * (RFC 9110 §5.6.1 lists). `undefined` when the value is absent: an empty list or object.
 * Object keys are own properties (`__proto__` included), the first of a repeated key wins.
 * @param decode how an item's text is decoded: {@link percentDecode}, or the identity for text
 * an adapter already decoded.
 * @throws {DecodeError} (constraint `style`) the text is not of the style: `label` without its
 * `.`, `matrix` without `;name`, an odd number of object items, an exploded item without `=`.
 */
export function readStyledText(s: ResolvedParamStyle, text: string, decode: (t: string) => string = (t) => percentDecode(t)): StyledRead | undefined {
  let body = text;
  let sep = ',';
  if (s.style === 'label') {
    if (!text.startsWith('.')) throw malformed(s, text, `a text starting with "."`);
    body = text.slice(1);
    if (s.explode) sep = '.';
  } else if (s.style === 'matrix') {
    if (!text.startsWith(';')) throw malformed(s, text, `a text starting with ";"`);
    if (s.explode && s.shape !== 'scalar') {
      const parts = text.slice(1).split(';');
      if (s.shape === 'object') {
        const wire = fromItems(s, text, parts, decode, true);
        return wire === undefined ? undefined : { wire, text };
      }
      const items = parts.map((part) => {
        const eq = part.indexOf('=');
        if ((eq === -1 ? part : part.slice(0, eq)) !== s.name) throw malformed(s, text, `;${s.name}=value items`);
        return eq === -1 ? '' : part.slice(eq + 1);
      });
      const wire = fromItems(s, text, items, decode, false);
      return wire === undefined ? undefined : { wire, text };
    }
    const head = `;${s.name}`;
    if (!text.startsWith(head) || (text.length > head.length && text[head.length] !== '=')) throw malformed(s, text, `${head}=value`);
    body = text.slice(head.length + 1);
  }
  if (s.shape === 'scalar') return { wire: decode(body), text };
  let items = split(body, sep);
  if (s.location === 'header') items = items.map(trimOWS);
  const wire = fromItems(s, text, items, decode, s.explode);
  return wire === undefined ? undefined : { wire, text };
}

/** `text` without the spaces and tabs around it (RFC 9110 §5.6.3 OWS). */
function trimOWS(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && (text[a] === ' ' || text[a] === '\t')) a++;
  while (b > a && (text[b - 1] === ' ' || text[b - 1] === '\t')) b--;
  return text.slice(a, b);
}

/** The delimiter of a non-exploded query style. */
function queryDelimiter(style: ParamStyle): RegExp | string {
  return style === 'spaceDelimited' ? /%20|\+| / : style === 'pipeDelimited' ? '|' : ',';
}

/**
 * Reads a query parameter from the pairs of the query string, each its key (decoded) and its
 * value as it arrived (percent-encoded, `+` a space): `form` `ids=3,4,5` / object
 * `color=R,100,G,200`, exploded `ids=3&ids=4` / object `R=100&G=200` (its declared properties);
 * `spaceDelimited` `ids=3%204%205`; `pipeDelimited` `ids=3|4|5`; `deepObject`
 * `color[R]=100&color[G]=200`. The first pair of a key counts (the first of repeated
 * properties); items are decoded after the value is split. `undefined` when absent: no pair, or
 * an empty list or object.
 * @throws {DecodeError} (constraint `style`) a malformed value: an odd number of object items, a
 * `deepObject` key that is not `name[property]` (`color[`, `color[a][b]`).
 */
export function readStyledQuery(s: ResolvedParamStyle, pairs: readonly (readonly [key: string, rawValue: string])[]): StyledRead | undefined {
  const decode = (t: string): string => percentDecode(t, true);
  if (s.style === 'deepObject') {
    const out: Record<string, string> = {};
    const open = `${s.name}[`;
    const texts: string[] = [];
    for (const [key, raw] of pairs) {
      if (!key.startsWith(open)) continue;
      texts.push(`${key}=${raw}`);
      const inner = key.slice(open.length, -1);
      if (!key.endsWith(']') || key.length === open.length || inner.includes('[') || inner.includes(']')) throw malformed(s, texts.join('&'), `${s.name}[property]=value pairs`);
      if (!Object.hasOwn(out, inner)) defineEntry(out, inner, decode(raw));
    }
    return Object.keys(out).length === 0 ? undefined : { wire: out, text: texts.join('&') };
  }
  if (s.style === 'form' && s.explode) {
    if (s.shape === 'array') {
      const values = pairs.filter(([k]) => k === s.name).map(([, v]) => v);
      return values.length === 0 ? undefined : { wire: values.map(decode), text: values.join(',') };
    }
    const out: Record<string, string> = {};
    const texts: string[] = [];
    for (const key of s.keys) {
      const pair = pairs.find(([k]) => k === key);
      if (pair === undefined) continue;
      defineEntry(out, key, decode(pair[1]));
      texts.push(`${key}=${pair[1]}`);
    }
    return texts.length === 0 ? undefined : { wire: out, text: texts.join('&') };
  }
  const pair = pairs.find(([k]) => k === s.name);
  if (pair === undefined) return undefined;
  const text = pair[1];
  if (s.shape === 'scalar') return { wire: decode(text), text };
  const wire = fromItems(s, text, text === '' ? [] : text.split(queryDelimiter(s.style)), decode, false);
  return wire === undefined ? undefined : { wire, text };
}

/**
 * The pairs of a query string (without `?`): each key decoded (`+` a space), each value as it
 * arrived. Empty pieces (`a=1&&b=2`) are skipped, as URLSearchParams skips them.
 */
export function rawQueryPairs(rawQuery: string): [key: string, rawValue: string][] {
  const out: [string, string][] = [];
  if (rawQuery === '') return out;
  for (const piece of rawQuery.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    out.push(eq === -1 ? [percentDecode(piece, true), ''] : [percentDecode(piece.slice(0, eq), true), piece.slice(eq + 1)]);
  }
  return out;
}

/**
 * The segment a path template's variable `name` fills in `rawPath` (the request path as it
 * arrived, percent-encoded, maybe under a base path): segments are counted from the end, as
 * each variable fills one whole segment. `undefined` when the path has fewer segments.
 */
export function rawPathSegment(template: string, rawPath: string, name: string): string | undefined {
  const t = template.split('/');
  const at = t.indexOf(`{${name}}`);
  if (at === -1) return undefined;
  const p = rawPath.split('/');
  const i = p.length - (t.length - at);
  return i < 0 ? undefined : p[i];
}


/** True when two wire values are the same: equal texts, lists of equal items, objects of the same keys and texts. */
export function sameWire(a: StyledWire | undefined, b: StyledWire | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return (a as readonly string[]).every((x, i) => x === (b as readonly string[])[i]);
  }
  const ka = Object.keys(a);
  const rb = b as Readonly<Record<string, string>>;
  return ka.length === Object.keys(rb).length && ka.every((k) => Object.hasOwn(rb, k) && rb[k] === (a as Readonly<Record<string, string>>)[k]);
}

/**
 * True when `wire`, written in its style ({@link writeStyled}), reads back as itself: what a
 * generator of requests checks before it sends a value (an empty list or object reads as absent).
 */
export function readsBack(s: ResolvedParamStyle, wire: StyledWire): boolean {
  try {
    const out = writeStyled(s, wire);
    const back = 'pairs' in out ? readStyledQuery(s, rawQueryPairs(out.pairs.join('&'))) : readStyledText(s, out.text);
    return sameWire(back?.wire, isEmptyWire(wire) ? undefined : wire);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The items of a list, or the flattened pairs of an object (`[k, v, k, v]`), or the `k=v` items of an exploded object. */
function itemsOf(wire: StyledWire, enc: (t: string) => string, exploded: boolean): string[] {
  if (typeof wire === 'string') return [enc(wire)];
  if (Array.isArray(wire)) return (wire as readonly string[]).map(enc);
  const obj = wire as Readonly<Record<string, string>>;
  const out: string[] = [];
  for (const key of Object.keys(obj)) {
    if (exploded) out.push(`${enc(key)}=${enc(obj[key] as string)}`);
    else out.push(enc(key), enc(obj[key] as string));
  }
  return out;
}

/** Refuses a wire value of the wrong shape: a scalar is a string, a list an array of strings, an object a plain object of strings. */
function checkShape(s: ResolvedParamStyle, wire: unknown): asserts wire is StyledWire {
  const ok =
    s.shape === 'scalar' ? typeof wire === 'string'
    : s.shape === 'array' ? Array.isArray(wire) && wire.every((x) => typeof x === 'string')
    : typeof wire === 'object' && wire !== null && !Array.isArray(wire) && Object.values(wire).every((x) => typeof x === 'string');
  if (!ok) throw new TypeError(`expected ${s.shape === 'scalar' ? 'a text' : s.shape === 'array' ? 'a list of texts' : 'an object of texts'} for style ${s.style}`);
}

/**
 * Writes the value of a path, header or cookie parameter as text, the inverse of
 * {@link readStyledText}: items and keys percent-encoded as RFC 6570 §3.2.1 does (a `label`
 * item's `.` too), delimiters as they are. A path segment, a header field value, or a cookie
 * value (`3,4,5`; the cookie's name and `=` are the caller's).
 * @throws {TypeError} `wire` is not of the parameter's shape (a string, a list of strings, an
 * object of strings), holds text that is not well-formed Unicode, or is a list of one empty item
 * (it would read as an empty list; `matrix` exploded, `;id`, tells them apart).
 */
export function writeStyledText(s: ResolvedParamStyle, wire: StyledWire): string {
  checkShape(s, wire);
  // `.`, `;id`, an empty segment or field: what an empty list is written as too.
  if (Array.isArray(wire) && wire.length === 1 && wire[0] === '' && !(s.style === 'matrix' && s.explode)) throw new TypeError(`a list of one empty item reads as an empty list in style ${s.style}`);
  if (s.style === 'label') {
    const enc = (t: string): string => percentEncode(t, true);
    return `.${itemsOf(wire, enc, s.explode).join(s.explode ? '.' : ',')}`;
  }
  const enc = (t: string): string => percentEncode(t);
  if (s.style === 'matrix') {
    if (s.explode && s.shape === 'array') return (wire as readonly string[]).map((v) => (v === '' ? `;${s.name}` : `;${s.name}=${enc(v)}`)).join('');
    if (s.explode && s.shape === 'object') return itemsOf(wire, enc, true).map((i) => `;${i}`).join('');
    const value = itemsOf(wire, enc, false).join(',');
    return value === '' ? `;${s.name}` : `;${s.name}=${value}`;
  }
  return itemsOf(wire, enc, s.explode).join(',');
}

/**
 * Writes a query parameter as the pairs of a query string (`key=value`, encoded, to be joined
 * with `&`), the inverse of {@link readStyledQuery}: `form` `ids=3,4,5` / exploded `ids=3&ids=4`
 * / exploded object `R=100&G=200`; `spaceDelimited` `ids=3%204%205`; `pipeDelimited` `ids=3|4|5`;
 * `deepObject` `color[R]=100` (the brackets as they are, as OpenAPI's examples show them). Items
 * are percent-encoded as RFC 6570 §3.2.1 does (a space as `%20`).
 * @throws {TypeError} `wire` is not of the parameter's shape, holds text that is not well-formed
 * Unicode, a `spaceDelimited` item holds a space, a `deepObject` property name a bracket, an
 * exploded `form` object a property it does not declare, or it is a list of one empty item
 * written in one pair (it would read as an empty list).
 */
export function writeStyledQuery(s: ResolvedParamStyle, wire: StyledWire): string[] {
  checkShape(s, wire);
  const enc = (t: string): string => percentEncode(t);
  const key = enc(s.name);
  const exploded = s.style === 'form' && s.explode;
  // `ids=`: what an empty list is written as too.
  if (!exploded && Array.isArray(wire) && wire.length === 1 && wire[0] === '') throw new TypeError(`a list of one empty item reads as an empty list in style ${s.style}`);
  if (exploded && s.shape === 'object') {
    const other = Object.keys(wire).find((k) => !s.keys.includes(k));
    if (other !== undefined) throw new TypeError(`${JSON.stringify(other)} is not a declared property: an exploded form object's properties are query keys of their own, read by name`);
  }
  if (s.style === 'deepObject') {
    const obj = wire as Readonly<Record<string, string>>;
    return Object.keys(obj).map((k) => {
      if (k.includes('[') || k.includes(']')) throw new TypeError(`the deepObject property name ${JSON.stringify(k)} holds a bracket`);
      return `${key}[${enc(k)}]=${enc(obj[k] as string)}`;
    });
  }
  if (exploded) {
    if (s.shape === 'array') return (wire as readonly string[]).map((v) => `${key}=${enc(v)}`);
    if (s.shape === 'object') return itemsOf(wire, enc, true);
  }
  if (s.style === 'spaceDelimited') {
    const texts = typeof wire === 'string' ? [wire] : Array.isArray(wire) ? (wire as readonly string[]) : Object.entries(wire).flat();
    const spaced = texts.find((t) => t.includes(' '));
    if (spaced !== undefined) throw new TypeError(`the spaceDelimited item ${JSON.stringify(spaced)} holds its delimiter, a space`);
  }
  const sep = s.style === 'spaceDelimited' ? '%20' : s.style === 'pipeDelimited' ? '|' : ',';
  return [`${key}=${itemsOf(wire, enc, false).join(sep)}`];
}




/**
 * Writes a styled value as a client sends it: the text of a path segment, a header or a cookie
 * ({@link writeStyledText}), or the pairs of the query ({@link writeStyledQuery}). What it writes
 * reads back as `wire` ({@link readsBack}); a value no text of the style can carry is refused.
 * @throws {TypeError} as {@link writeStyledText} and {@link writeStyledQuery}.
 */
export function writeStyled(s: ResolvedParamStyle, wire: StyledWire): { readonly text: string } | { readonly pairs: readonly string[] } {
  return s.location === 'query' ? { pairs: writeStyledQuery(s, wire) } : { text: writeStyledText(s, wire) };
}

// ---------------------------------------------------------------------------------------------
// A client's parameters

/** The wire value of a styled parameter as texts: a codec's list or object with each item written as text (`3` → `'3'`), `null` and `undefined` as absent. */
function styledTexts(s: ResolvedParamStyle, wire: unknown): StyledWire | undefined {
  if (wire === undefined || wire === null) return undefined;
  if (s.shape === 'scalar') return wireString(wire);
  if (s.shape === 'array') {
    if (!Array.isArray(wire)) throw new TypeError(`expected a list for style ${s.style}, got ${typeof wire}`);
    return wire.map(wireString);
  }
  if (typeof wire !== 'object' || Array.isArray(wire)) throw new TypeError(`expected an object for style ${s.style}, got ${Array.isArray(wire) ? 'a list' : typeof wire}`);
  const out: Record<string, string> = {};
  for (const key of Object.keys(wire)) {
    const v = (wire as Record<string, unknown>)[key];
    if (v !== undefined) defineEntry(out, key, wireString(v));
  }
  return out;
}

/**
 * Checks a styled wire value a client is about to send: present when required, decoding through
 * the codec as the server will decode it. `undefined` for an absent optional value.
 * @throws {ParamError} of the parameter's location: empty where it must not be, or failing the codec.
 */
export function checkStyledWire(p: RequestParamSpec, wire: StyledWire | undefined): StyledWire | undefined {
  const ErrorClass = PARAM_ERRORS[p.kind];
  if (wire === undefined || isEmptyWire(wire)) {
    if (p.kind === 'path' || p.required) throw new ErrorClass(p.name, undefined, new Error('must not be empty'));
    return undefined;
  }
  try {
    p.codec?.decode(wire);
  } catch (err) {
    throw new ErrorClass(p.name, JSON.stringify(wire), err);
  }
  return wire;
}

/**
 * The wire value a client sends for a styled parameter (`RequestParamSpec.style`), from its
 * value: encoded by the codec, each item or property written as text, and checked — it must
 * decode through the codec as the server decodes it, and be present when the parameter is
 * required (an empty list or object is absent). `undefined` for an absent optional value: nothing
 * is sent. Written with `writeStyled` (or, for a path, `buildPath`).
 * @throws {ParamError} of the parameter's location: the value fails the codec, is not of the
 * style's shape, or is empty where it must not be (`must not be empty`).
 */
export function styledWireOf(p: RequestParamSpec, s: ResolvedParamStyle, value: unknown): StyledWire | undefined {
  const ErrorClass = PARAM_ERRORS[p.kind];
  let wire: StyledWire | undefined;
  try {
    wire = styledTexts(s, p.codec === undefined ? value : p.codec.encode(value));
  } catch (err) {
    throw new ErrorClass(p.name, undefined, err);
  }
  return checkStyledWire(p, wire);
}

/**
 * The wire value of a styled parameter from explicit texts (`queryParams`, `headerParams`,
 * `cookieParams`, `callEach` vars): each the parameter's text in its style — a path segment
 * (`.3.4.5` for `label`), a header or cookie value (`3,4,5`), or the value of a query pair
 * (`3|4|5`; for an exploded `form` list, one text per item) — read as the server reads it and
 * checked as a value is (it must decode through the codec, and be present when required). An
 * exploded `form` object and a `deepObject` are sent under their own keys, which explicit entries
 * name instead (`R`, `color[R]`). `undefined`: nothing is sent.
 * @throws {ParamError} of the parameter's location: the text is not of the style, its value fails
 * the codec or is empty where it must not be, or the entry names a parameter sent under other keys.
 */
export function styledWireFromTexts(p: RequestParamSpec, s: ResolvedParamStyle, texts: readonly string[]): StyledWire | undefined {
  let read: { readonly wire: StyledWire } | undefined;
  try {
    if (s.location === 'query') {
      if (s.style === 'deepObject' || (s.style === 'form' && s.explode && s.shape === 'object')) {
        throw new Error(`its value is sent under its own keys (${s.style === 'deepObject' ? `${s.name}[property]` : 'one per property'}): give those, or the value in the request`);
      }
      read = readStyledQuery(s, texts.map((t) => [s.name, t] as const));
    } else if (texts.length > 1) {
      throw new Error(`expected one text, got ${texts.length}`);
    } else read = texts.length === 0 ? undefined : readStyledText(s, texts[0] as string);
  } catch (err) {
    throw new PARAM_ERRORS[p.kind](p.name, texts.join(','), err);
  }
  return checkStyledWire(p, read?.wire);
}

/**
 * What a client sends for a styled parameter's wire value: the text of a header or cookie (or
 * path segment), or the pairs of the query, as `writeStyled` writes them.
 * @throws {ParamError} of the parameter's location: the value cannot be written in the style (the
 * message says why).
 */
export function writeStyledParam(p: RequestParamSpec, s: ResolvedParamStyle, wire: StyledWire): { readonly text: string } | { readonly pairs: readonly string[] } {
  try {
    return writeStyled(s, wire);
  } catch (err) {
    throw new PARAM_ERRORS[p.kind](p.name, JSON.stringify(wire), err);
  }
}

/**
 * What a client sends for a styled parameter of a call: from the explicit text `given` (a
 * per-call entry or a `callEach` variable, read by {@link styledWireFromTexts}), else from the
 * merge field's value ({@link styledWireOf}) — a path variable's wire value, which `buildPath`
 * writes, or the text of a header or cookie, or the query's pairs ({@link writeStyledParam}).
 * `undefined`: nothing is sent.
 * @throws {ParamError} of the parameter's location: missing when required, or as those functions.
 */
export function sendStyledParam(p: RequestParamSpec, s: ResolvedParamStyle, req: unknown, given: string | readonly string[] | undefined): StyledSend | undefined {
  let wire: StyledWire | undefined;
  if (given !== undefined) wire = styledWireFromTexts(p, s, typeof given === 'string' ? [given] : given);
  else {
    const v = p.merge?.get(req);
    if (v === undefined && p.required) throw new PARAM_ERRORS[p.kind](p.name, undefined, new Error('is required'));
    wire = v === undefined ? undefined : styledWireOf(p, s, v);
  }
  if (wire === undefined) return undefined;
  return p.kind === 'path' ? { path: wire } : writeStyledParam(p, s, wire);
}

/**
 * Refuses query keys two parameters would read: an exploded `form` object reads each of its
 * declared properties as a query key of its own (OpenAPI 3.1 §4.8.12.4: `R=100&G=200`), which no
 * other query parameter of the route may be named.
 * @throws {RouteDeclarationError} naming both.
 */
export function checkQueryKeys(route: string, query: readonly RequestParamSpec[]): void {
  for (const p of query) {
    const s = p.style;
    if (s === undefined || s.style !== 'form' || !s.explode || s.shape !== 'object') continue;
    const other = query.find((o) => o !== p && s.keys.includes(o.name));
    if (other !== undefined) throw new RouteDeclarationError(route, `query parameter ${JSON.stringify(p.name)} is an exploded form object whose property ${JSON.stringify(other.name)} is read as a query key, and query parameter ${JSON.stringify(other.name)} is declared too`);
  }
}

/** The functions a route with a styled parameter needs on every side, as `rest.styled` installs them. */
export const PARAM_STYLE_SUPPORT: ParamStyleSupport = { resolve: resolveParamStyle, send: sendStyledParam, write: writeStyledParam, checkQueryKeys };
