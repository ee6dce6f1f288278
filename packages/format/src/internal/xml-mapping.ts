// The mapping between XML trees and a codec's wire value, after the OpenAPI 3.1 XML Object
// (§4.8.26), read from the codec's JSON Schema. Parsing and writing the syntax is xml.ts's (the
// only module that imports fast-xml-parser); this module sees plain trees.
import { defineEntry, formatPath, isPlainObject, SchemaGenerator, type Codec, type JsonSchema, type PathSegment } from '@lib/codec';

/**
 * The OpenAPI 3.1 XML Object (§4.8.26): how a schema's value is named and placed in XML. Set it
 * on a codec's schema as the `xml` keyword (see `format.xml`).
 */
export interface XmlObject {
  /**
   * The element (or attribute) name: of a property instead of its key; of the items of an
   * array when set on `items`; of the wrapping element of a wrapped array; of the root element.
   */
  readonly name?: string;
  /** The namespace URI of the element or attribute (an absolute URI). */
  readonly namespace?: string;
  /** The prefix the namespace is written with (`p:pet`); without it an element's namespace is the default one (`xmlns="…"`). */
  readonly prefix?: string;
  /** True for a property written as an attribute of its object's element rather than a child element. */
  readonly attribute?: boolean;
  /** True for an array written inside a wrapping element (`<tags><tag/><tag/></tags>`) rather than as repeated elements. */
  readonly wrapped?: boolean;
}

/** The XML Schema instance namespace, whose `nil` attribute marks a `null` value. */
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
/** The namespace bound to the `xml` prefix (Namespaces in XML 1.0 §3). */
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
/** The root element's name when neither the schema (`xml.name`) nor the codec (`withName`) names it. */
export const DEFAULT_ROOT = 'root';
/** The items' name in an array at the root when neither `items.xml.name` nor the item codec names them. */
export const DEFAULT_ITEM = 'item';
/** How deep elements may nest, the root being level 1 (libxml2's default limit). */
export const MAX_DEPTH = 256;

/**
 * Why a body is not XML this format reads: its message is the reason given to the client (`body
 * is not valid XML: <reason>`), naming the problem and its place, never an excerpt.
 */
export class XmlSyntaxError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'XmlSyntaxError';
  }
}

// ---- characters and names (XML 1.0 fifth edition §2.2, §2.3; Namespaces in XML 1.0 §3) ----

/** A character XML 1.0 does not allow (§2.2 Char): C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NAME_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
/** A name without a colon (Namespaces in XML 1.0 NCName): what element and attribute local names and prefixes must be. */
const NCNAME = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u');

/** True for a code point XML 1.0 allows in a document. */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** ` at line L, column C` of `index` in `text` (both from 1; columns in UTF-16 code units). */
export function placeOf(text: string, index: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return ` at line ${line}, column ${index - start + 1}`;
}

/**
 * Checks what the parser lets through and XML 1.0 does not, or this format refuses, before it
 * runs: characters XML does not allow; a document type declaration, or any other markup
 * declaration (no DTD is read: no entity of its own, no external entity, no expansion); an
 * XML declaration naming an encoding other than UTF-8 (the body is read as UTF-8).
 * @throws {XmlSyntaxError} naming the problem and its line and column.
 */
export function checkDocument(text: string): void {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad !== null) {
    const cp = bad[0].codePointAt(0) ?? 0;
    throw new XmlSyntaxError(`it holds a character XML 1.0 does not allow (U+${cp.toString(16).toUpperCase().padStart(4, '0')})${placeOf(text, bad.index)}`);
  }
  if (/^<\?xml[\s?]/.test(text)) {
    const end = text.indexOf('?>');
    const encoding = /\sencoding\s*=\s*(["'])([^"']*)\1/.exec(end === -1 ? text : text.slice(0, end));
    if (encoding !== null && !/^(?:utf-?8|us-ascii)$/i.test(encoding[2] ?? '')) {
      throw new XmlSyntaxError(`the XML declaration names an encoding other than UTF-8${placeOf(text, encoding.index + 1)}`);
    }
  }
  // `<!` starts a comment, a CDATA section or a markup declaration; the first two are skipped
  // whole (their text may hold anything), the rest refused. Unterminated ones are the validator's.
  for (let i = text.indexOf('<!'); i !== -1; ) {
    const [open, close] = text.startsWith('<!--', i) ? ['<!--', '-->'] : text.startsWith('<![CDATA[', i) ? ['<![CDATA[', ']]>'] : ['', ''];
    if (open === '') {
      const what = text.startsWith('<!DOCTYPE', i) ? 'a document type declaration (DOCTYPE)' : 'a markup declaration';
      throw new XmlSyntaxError(`${what} is not accepted${placeOf(text, i)}`);
    }
    const end = text.indexOf(close, i + open.length);
    if (end === -1) return;
    i = text.indexOf('<!', end + close.length);
  }
}

/**
 * `text` with its character and entity references replaced (§4.1, §4.6): the five predefined
 * entities and `&#…;`/`&#x…;` references to characters XML allows.
 * @throws {XmlSyntaxError} for another entity (none is declared: there is no DTD), a reference
 * to a character XML does not allow, or an `&` that starts no reference.
 */
export function decodeReferences(text: string): string {
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  let out = '';
  let from = 0;
  while (amp !== -1) {
    const semi = text.indexOf(';', amp + 1);
    if (semi === -1) throw new XmlSyntaxError('an "&" starts no character or entity reference');
    out += text.slice(from, amp) + referenced(text.slice(amp + 1, semi));
    from = semi + 1;
    amp = text.indexOf('&', from);
  }
  return out + text.slice(from);
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

function referenced(ref: string): string {
  if (Object.hasOwn(PREDEFINED, ref)) return PREDEFINED[ref] as string;
  const m = /^#(?:x([0-9A-Fa-f]{1,8})|([0-9]{1,10}))$/.exec(ref);
  if (m === null) {
    throw new XmlSyntaxError(NCNAME.test(ref) ? 'a reference names an entity that is not declared (only lt, gt, amp, apos and quot are)' : 'an "&" starts no character or entity reference');
  }
  const cp = m[1] !== undefined ? Number.parseInt(m[1], 16) : Number.parseInt(m[2] ?? '', 10);
  if (!isXmlChar(cp)) throw new XmlSyntaxError('a character reference names a character XML 1.0 does not allow');
  return String.fromCodePoint(cp);
}

/** `text` escaped for element content: `&`, `<`, `>` (so `]]>` never appears), and CR (kept from end-of-line handling). */
function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** `text` escaped for a double-quoted attribute value: also `"`, and tab, LF and CR (kept from attribute-value normalization). */
function escapeAttribute(text: string): string {
  return text.replace(/[&<>"\t\n\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : `&#${c.charCodeAt(0)};`));
}

// ---- the tree that was read ----

/** An element as read: its expanded name, attributes, child elements and text. */
export interface XmlElement {
  /** The local name (without prefix). */
  readonly local: string;
  /** The namespace URI (`''`: none). */
  readonly ns: string;
  /** The attributes, namespace declarations excluded. */
  readonly attributes: readonly XmlAttribute[];
  /** The child elements, in order. */
  readonly children: readonly XmlElement[];
  /** The character data (text and CDATA sections), concatenated. */
  readonly text: string;
  /** True when `xsi:nil="true"`: the value is `null`. */
  readonly nil: boolean;
}

/** An attribute as read, its value normalized (§3.3.3) and its references replaced. */
export interface XmlAttribute {
  readonly local: string;
  readonly ns: string;
  readonly value: string;
}

/** The namespaces in scope: the default one and the prefixes. */
interface Scope {
  readonly default: string;
  readonly prefixes: ReadonlyMap<string, string>;
}
const NO_NAMESPACES: Scope = { default: '', prefixes: new Map([['xml', XML_NAMESPACE]]) };

/**
 * A node of the parser's ordered tree (fast-xml-parser, `preserveOrder`): an element is
 * `{ [ELEMENT_MARK + name]: children, ':@'?: { [ATTRIBUTE_MARK + name]: value } }`, text is
 * `{ '#text': text }`, a CDATA section `{ '#cdata': [{ '#text': text }] }`.
 */
export type ParsedNode = Readonly<Record<string, unknown>>;
/** What the parser is told to put before every element name, so that no name is special to it (`__proto__`, `#text`). */
export const ELEMENT_MARK = '>';
/** What the parser puts before every attribute name. */
export const ATTRIBUTE_MARK = '@_';

/**
 * The one root element of a parsed document, its names resolved against the namespaces
 * declared, its text and attribute values with references replaced.
 * @throws {XmlSyntaxError} for no or several root elements, text outside the root, a name
 * that is not namespace-well-formed or whose prefix is not declared, or a reference error.
 */
export function rootElement(nodes: readonly ParsedNode[]): XmlElement {
  let root: XmlElement | undefined;
  for (const node of nodes) {
    const key = keyOf(node);
    if (key === '#text') {
      if (String(node[key]).trim() !== '') throw new XmlSyntaxError('there is text outside the root element');
    } else if (key.startsWith(ELEMENT_MARK)) {
      if (root !== undefined) throw new XmlSyntaxError('there is more than one root element');
      root = elementOf(key, node[key], node[':@'], NO_NAMESPACES);
    }
  }
  if (root === undefined) throw new XmlSyntaxError('there is no root element');
  return root;
}

/** What an element without attributes or children holds: one shared, empty array (a body of many small elements allocates less). */
const NONE: readonly never[] = Object.freeze([]);

function elementOf(key: string, content: unknown, attrs: unknown, outer: Scope): XmlElement {
  // Namespace declarations first: they apply to the element's own name and attributes.
  let scope = outer;
  let raw: [string, string][] | undefined;
  if (attrs !== undefined && attrs !== null && typeof attrs === 'object') {
    for (const name of Object.keys(attrs)) {
      const value = decodeReferences(String((attrs as Record<string, unknown>)[name]).replace(/[\t\n\r]/g, ' '));
      const attr = name.slice(ATTRIBUTE_MARK.length);
      if (attr === 'xmlns') scope = { default: value, prefixes: scope.prefixes };
      else if (attr.startsWith('xmlns:')) {
        const prefix = attr.slice(6);
        if (value === '' || prefix === 'xmlns' || (prefix === 'xml') !== (value === XML_NAMESPACE)) throw new XmlSyntaxError('a namespace declaration binds a reserved prefix or an empty name');
        scope = { default: scope.default, prefixes: new Map(scope.prefixes).set(prefix, value) };
      } else (raw ??= []).push([attr, value]);
    }
  }
  const qname = key.slice(ELEMENT_MARK.length);
  const colon = qname.indexOf(':');
  const local = colon === -1 ? qname : localOf(qname, colon);
  const ns = colon === -1 ? scope.default : namespaceOf(qname, colon, scope);
  let attributes: readonly XmlAttribute[] = NONE;
  let nil = false;
  if (raw !== undefined) {
    const list: XmlAttribute[] = [];
    for (const [attr, value] of raw) {
      const c = attr.indexOf(':');
      const a: XmlAttribute = c === -1 ? { local: attr, ns: '', value } : { local: localOf(attr, c), ns: namespaceOf(attr, c, scope), value };
      if (a.ns === XSI_NAMESPACE && a.local === 'nil') nil = value.trim() === 'true' || value.trim() === '1';
      list.push(a);
    }
    attributes = list;
  }
  let children: XmlElement[] | undefined;
  let text = '';
  if (Array.isArray(content)) {
    for (const node of content as ParsedNode[]) {
      const k = keyOf(node);
      if (k === '#text') text += decodeReferences(String(node[k]));
      else if (k === '#cdata') {
        const parts = node[k];
        if (Array.isArray(parts)) for (const part of parts as ParsedNode[]) text += String(part['#text'] ?? '');
      } else if (k.startsWith(ELEMENT_MARK)) (children ??= []).push(elementOf(k, node[k], node[':@'], scope));
    }
  }
  return { local, ns, attributes, children: children ?? NONE, text, nil };
}

/** The node's one key besides `:@`. */
function keyOf(node: ParsedNode): string {
  for (const key in node) if (key !== ':@' && Object.hasOwn(node, key)) return key;
  return '';
}

/**
 * The local part of a prefixed name (Namespaces in XML 1.0 §6), whose colon is at `colon`.
 * @throws {XmlSyntaxError} for a name with more than one colon, or an empty prefix or local part.
 */
function localOf(qname: string, colon: number): string {
  const local = qname.slice(colon + 1);
  if (!NCNAME.test(qname.slice(0, colon)) || !NCNAME.test(local)) throw new XmlSyntaxError('a name has more than one colon, or an empty prefix or local part');
  return local;
}

/**
 * The namespace a prefixed name is in: its prefix's, as declared in scope.
 * @throws {XmlSyntaxError} for an undeclared prefix.
 */
function namespaceOf(qname: string, colon: number, scope: Scope): string {
  const ns = scope.prefixes.get(qname.slice(0, colon));
  if (ns === undefined) throw new XmlSyntaxError('a namespace prefix is not declared');
  return ns;
}

// ---- the schema ----

/** What reading and writing need of a schema, through `$ref`, `allOf`, `anyOf` and `oneOf`. */
interface Shape {
  /** The JSON types the schema admits (`object`, `array`, `string`, `number`, `integer`, `boolean`, `null`); empty: any. */
  readonly types: ReadonlySet<string>;
  /** The properties, by key (the first schema met for a key). */
  readonly properties: ReadonlyMap<string, JsonSchema>;
  readonly required: ReadonlySet<string>;
  /** The schema of other properties (`additionalProperties`, a record's values). */
  readonly additional: JsonSchema | undefined;
  /** The schema of the items of an array. */
  readonly items: JsonSchema | undefined;
  /** The XML Object of the schema itself: its `$ref` target's, overridden by its own keywords. */
  readonly xml: XmlObject;
  /** The definition the schema's `$ref` names (the codec's name), if any. */
  readonly refName: string | undefined;
}

const ANY: JsonSchema = {};
const SCALARS = ['string', 'number', 'integer', 'boolean'];

/** Schemas, their definitions and their shapes, for one codec. */
export class XmlSchemas {
  /** The schema of the codec's wire value: a `$ref` for a named codec. */
  readonly root: JsonSchema;
  /** The root element's name: `xml.name`, else the codec's name (when it is an XML name), else {@link DEFAULT_ROOT}. */
  readonly rootName: string;
  private readonly definitions: Readonly<Record<string, JsonSchema>>;
  private readonly shapes = new Map<JsonSchema, Shape>();

  /**
   * @throws {import('@lib/codec').SchemaNameConflictError} when two different codecs in `codec` have the same name.
   * @throws {TypeError} when the root schema's `xml.name` is not an XML name (other names are checked as they are written).
   */
  constructor(codec: Codec<unknown>) {
    const gen = new SchemaGenerator({ refNamed: true });
    this.root = gen.schema(codec);
    this.definitions = gen.definitions;
    const s = this.shape(this.root);
    // A codec's name is chosen for OpenAPI (`1Pet` is a fine component name): one that is no XML name is passed over.
    this.rootName = s.xml.name !== undefined ? checkName(s.xml.name, () => 'the root element') : (codecName(codec.meta.name) ?? codecName(s.refName) ?? DEFAULT_ROOT);
  }

  /** The shape of `schema` (cached). */
  shape(schema: JsonSchema): Shape {
    let s = this.shapes.get(schema);
    if (s === undefined) {
      const acc: MutableShape = { types: new Set(), properties: new Map(), required: new Set(), additional: undefined, items: undefined };
      this.collect(schema, acc, 0);
      if (acc.types.size === 0 && (acc.properties.size > 0 || acc.additional !== undefined)) acc.types.add('object');
      if (acc.types.size === 0 && acc.items !== undefined) acc.types.add('array');
      const { xml, refName } = this.xmlOf(schema);
      s = { ...acc, xml, refName };
      this.shapes.set(schema, s);
    }
    return s;
  }

  private resolve(ref: string): JsonSchema | undefined {
    const prefix = '#/$defs/';
    if (!ref.startsWith(prefix)) return undefined;
    const name = decodeURIComponent(ref.slice(prefix.length));
    return Object.hasOwn(this.definitions, name) ? this.definitions[name] : undefined;
  }

  private collect(schema: JsonSchema | boolean | undefined, acc: MutableShape, depth: number): void {
    if (typeof schema !== 'object' || schema === null || depth > 16) return;
    const type = schema.type;
    if (type !== undefined) for (const t of Array.isArray(type) ? type : [type]) acc.types.add(t);
    else if (schema.const !== undefined) acc.types.add(jsonType(schema.const));
    else if (Array.isArray(schema.enum)) for (const v of schema.enum) acc.types.add(jsonType(v));
    if (isPlainObject(schema.properties)) {
      for (const [k, v] of Object.entries(schema.properties)) if (!acc.properties.has(k)) acc.properties.set(k, v);
    }
    if (Array.isArray(schema.required)) for (const k of schema.required) acc.required.add(k);
    if (acc.additional === undefined && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      acc.additional = schema.additionalProperties === true ? ANY : schema.additionalProperties;
    }
    if (acc.items === undefined && schema.items !== undefined && schema.items !== false) acc.items = schema.items === true ? ANY : schema.items;
    if (typeof schema.$ref === 'string') this.collect(this.resolve(schema.$ref), acc, depth + 1);
    for (const branch of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) this.collect(branch, acc, depth + 1);
  }

  /** The XML Object of `schema` through its `$ref`s (the referring schema's keywords win), and the name of the first definition referenced. */
  private xmlOf(schema: JsonSchema): { xml: XmlObject; refName: string | undefined } {
    const chain: JsonSchema[] = [];
    let refName: string | undefined;
    for (let s: JsonSchema | undefined = schema; s !== undefined && chain.length < 16; ) {
      chain.push(s);
      if (typeof s.$ref !== 'string') break;
      if (refName === undefined && s.$ref.startsWith('#/$defs/')) refName = decodeURIComponent(s.$ref.slice(8));
      s = this.resolve(s.$ref);
    }
    let xml: XmlObject = {};
    for (const s of chain.reverse()) if (isPlainObject(s.xml)) xml = { ...xml, ...(s.xml as XmlObject) };
    return { xml, refName };
  }
}

interface MutableShape {
  types: Set<string>;
  properties: Map<string, JsonSchema>;
  required: Set<string>;
  additional: JsonSchema | undefined;
  items: JsonSchema | undefined;
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v;
}

/**
 * `name` when it is a name an element or attribute may have (an NCName: no colon).
 * @throws {TypeError} naming what it would name (`what()`) otherwise.
 */
function checkName(name: string, what: () => string): string {
  if (!NCNAME.test(name)) throw new TypeError(`${JSON.stringify(name)} is not an XML name (a letter or "_" first, then letters, digits, ".", "-" or "_"; no space, no colon): it would name ${what()}`);
  return name;
}

/** `name` when it is a codec name that is also an XML name. */
function codecName(name: string | undefined): string | undefined {
  return name !== undefined && NCNAME.test(name) ? name : undefined;
}

const admitsArray = (s: Shape): boolean => s.types.has('array');
const admitsObject = (s: Shape): boolean => s.types.has('object');
const admitsScalar = (s: Shape): boolean => SCALARS.some((t) => s.types.has(t));

/** A JSON number's text (RFC 8259 §6), as number codecs read it from JSON. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The wire value of an element's or attribute's text under `s`: a JSON number's text (spaces
 * around it allowed) where the schema admits a number or an integer is that number, `true` and
 * `false` where it admits a boolean are booleans; anything else stays text, for the codec to
 * take or refuse.
 */
function textWire(text: string, s: Shape): unknown {
  if (s.types.has('number') || s.types.has('integer') || s.types.has('boolean')) {
    const t = text.trim();
    if ((s.types.has('number') || s.types.has('integer')) && NUMBER_TEXT.test(t)) return Number(t);
    if (s.types.has('boolean') && (t === 'true' || t === 'false')) return t === 'true';
  }
  return text;
}

// ---- reading ----

/** Whether an element is the one a schema names: its local name, and its namespace where the schema gives one. */
function isNamed(el: XmlElement, local: string, xml: XmlObject): boolean {
  return el.local === local && (xml.namespace === undefined || el.ns === xml.namespace);
}

/** Attributes that are markup, not data: `xsi:*` and `xml:*`. */
function isMarkup(a: XmlAttribute): boolean {
  return a.ns === XSI_NAMESPACE || a.ns === XML_NAMESPACE;
}

/** The wire value of the document whose root element is `root` (its name is not checked). */
export function readDocument(schemas: XmlSchemas, root: XmlElement): unknown {
  return readElement(schemas, root, schemas.root);
}

/**
 * The wire value of an element under `schema`: `null` for `xsi:nil`; an array of its child
 * elements where the schema says array; an object of its attributes and child elements where
 * it says object; the text, typed by the schema, for a scalar; what the element holds, as
 * strings, objects and arrays, where the schema says nothing (or the element is not what it says,
 * for the codec to refuse).
 */
function readElement(schemas: XmlSchemas, el: XmlElement, schema: JsonSchema): unknown {
  if (el.nil) return null;
  const s = schemas.shape(schema);
  const hasChildren = el.children.length > 0;
  const hasText = el.text.trim() !== '';
  if (admitsArray(s) && (hasChildren || (!admitsObject(s) && !admitsScalar(s) && !hasText))) {
    const items = s.items ?? ANY;
    return el.children.map((c) => readElement(schemas, c, items));
  }
  if (admitsObject(s) && (hasChildren || el.attributes.some((a) => !isMarkup(a)) || (!admitsScalar(s) && !hasText))) return readObject(schemas, el, s);
  if (s.types.size === 0 || hasChildren) return anyValue(el);
  // Text where the schema wants an array or an object: the text, for the codec to refuse.
  return admitsScalar(s) ? textWire(el.text, s) : el.text;
}

function readObject(schemas: XmlSchemas, el: XmlElement, s: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The children by local name, in order; a property takes (and removes) those it names.
  const byName = new Map<string, XmlElement[]>();
  for (const c of el.children) {
    const group = byName.get(c.local);
    if (group === undefined) byName.set(c.local, [c]);
    else group.push(c);
  }
  const take = (local: string, xml: XmlObject): XmlElement[] => {
    const group = byName.get(local);
    if (group === undefined) return [];
    const found = group.filter((c) => isNamed(c, local, xml));
    if (found.length === group.length) byName.delete(local);
    else if (found.length > 0) byName.set(local, group.filter((c) => !isNamed(c, local, xml)));
    return found;
  };
  const usedAttributes = new Set<XmlAttribute>();
  for (const [key, schema] of s.properties) {
    const p = schemas.shape(schema);
    const name = p.xml.name ?? key;
    if (p.xml.attribute === true) {
      const a = el.attributes.find((x) => !usedAttributes.has(x) && x.local === name && x.ns === (p.xml.namespace ?? ''));
      if (a !== undefined) {
        usedAttributes.add(a);
        defineEntry(out, key, textWire(a.value, p));
      }
      continue;
    }
    if (admitsArray(p) && p.xml.wrapped !== true) {
      // Unwrapped: the items are repeated elements, named by `items.xml.name`, else by the property.
      const items = p.items ?? ANY;
      const ix = schemas.shape(items).xml;
      const found = take(ix.name ?? key, ix.namespace !== undefined ? ix : p.xml);
      if (found.length > 0) defineEntry(out, key, found.map((c) => readElement(schemas, c, items)));
      else if (s.required.has(key)) defineEntry(out, key, []);
      continue;
    }
    const found = take(name, p.xml);
    if (found.length === 1) defineEntry(out, key, readElement(schemas, found[0] as XmlElement, schema));
    else if (found.length > 1) defineEntry(out, key, found.map((c) => readElement(schemas, c, schema)));
  }
  // The rest: a record's entries, else undeclared fields (stripped, or refused by a strict codec).
  // A name that is a declared key is never one of them (its element was in another namespace).
  const additional = s.additional;
  const rest = additional === undefined ? undefined : schemas.shape(additional);
  for (const [key, els] of byName) {
    if (s.properties.has(key)) continue;
    let value: unknown;
    if (rest === undefined || additional === undefined) value = els.length === 1 ? anyValue(els[0] as XmlElement) : els.map(anyValue);
    else if (admitsArray(rest) && rest.xml.wrapped !== true) value = els.map((c) => readElement(schemas, c, rest.items ?? ANY));
    else value = els.length === 1 ? readElement(schemas, els[0] as XmlElement, additional) : els.map((c) => readElement(schemas, c, additional));
    defineEntry(out, key, value);
  }
  for (const a of el.attributes) {
    if (usedAttributes.has(a) || isMarkup(a) || s.properties.has(a.local) || Object.hasOwn(out, a.local)) continue;
    defineEntry(out, a.local, rest === undefined ? a.value : textWire(a.value, rest));
  }
  return out;
}

/** What an element holds where the schema says nothing: `null` for `xsi:nil`; its text; else an object of its attributes and children (repeated ones as arrays). */
function anyValue(el: XmlElement): unknown {
  if (el.nil) return null;
  const attributes = el.attributes.filter((a) => !isMarkup(a));
  if (el.children.length === 0 && attributes.length === 0) return el.text;
  const out: Record<string, unknown> = {};
  for (const a of attributes) defineEntry(out, a.local, a.value);
  for (const c of el.children) {
    const v = anyValue(c);
    // An element's own value is never an array: an array here is of repeated elements.
    const prev = Object.hasOwn(out, c.local) ? out[c.local] : undefined;
    if (prev === undefined) defineEntry(out, c.local, v);
    else if (Array.isArray(prev)) prev.push(v);
    else defineEntry(out, c.local, [prev, v]);
  }
  return out;
}

// ---- writing ----

/** A node of the writer's ordered tree (fast-xml-parser's XMLBuilder, `preserveOrder`), its text already escaped. */
export type WrittenNode = Record<string, unknown>;

/** The namespaces in scope while writing, and how many prefixes were made up. */
interface WriteScope extends Scope {
  readonly made: { n: number };
}

/**
 * The tree of `data` (the codec's wire value through the JSON data model) as one XML document,
 * text and attribute values escaped.
 * @throws {TypeError} for what XML cannot carry as this format writes it: a string with a
 * character XML 1.0 does not allow, an object key or `xml.name` that is not an XML name, an
 * attribute holding an object, an array or `null`, nesting deeper than {@link MAX_DEPTH}.
 */
export function writeDocument(schemas: XmlSchemas, data: unknown): WrittenNode[] {
  const scope: WriteScope = { ...NO_NAMESPACES, made: { n: 0 } };
  return [writeElement(schemas, schemas.rootName, schemas.shape(schemas.root).xml, data, schemas.root, scope, [], 1)];
}

/** The element named `local` of `value` under `schema`, at `depth` (the root is 1). */
function writeElement(schemas: XmlSchemas, local: string, xml: XmlObject, value: unknown, schema: JsonSchema, outer: WriteScope, path: PathSegment[], depth: number): WrittenNode {
  if (depth > MAX_DEPTH) throw new TypeError(`XML elements nest at most ${MAX_DEPTH} levels deep: ${formatPath(path)} is deeper`);
  const attrs: Record<string, string> = {};
  const { qname, scope } = qualify(checkName(local, () => formatPath(path) || 'the root element'), xml, outer, attrs, false);
  const children: WrittenNode[] = [];
  const s = schemas.shape(schema);
  if (value === null) {
    const xsi = prefixFor(XSI_NAMESPACE, 'xsi', scope, attrs);
    attrs[`${ATTRIBUTE_MARK}${xsi.prefix}:nil`] = 'true';
  } else if (Array.isArray(value)) {
    const items = s.items ?? ANY;
    const is = schemas.shape(items);
    const itemName = is.xml.name ?? (depth === 1 ? (codecName(is.refName) ?? DEFAULT_ITEM) : local);
    value.forEach((item, i) => children.push(writeElement(schemas, itemName, is.xml, item, items, scope, [...path, i], depth + 1)));
  } else if (isPlainObject(value)) {
    writeFields(schemas, s, value, scope, attrs, children, path, depth + 1);
  } else {
    const text = scalarText(value, path);
    if (text !== '') children.push({ '#text': escapeText(text) });
  }
  const node: WrittenNode = {};
  Object.defineProperty(node, qname, { value: children, enumerable: true, writable: true, configurable: true });
  if (Object.keys(attrs).length > 0) node[':@'] = attrs;
  return node;
}

/** The attributes and child elements (at `depth`) of an object's fields. */
function writeFields(schemas: XmlSchemas, s: Shape, value: Record<string, unknown>, scope: WriteScope, attrs: Record<string, string>, children: WrittenNode[], path: PathSegment[], depth: number): void {
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    const declared = s.properties.has(key);
    const schema = (declared ? s.properties.get(key) : s.additional) ?? ANY;
    const p = schemas.shape(schema);
    const at = [...path, key];
    const name = p.xml.name ?? key;
    if (p.xml.attribute === true) {
      if (v === null || typeof v === 'object') throw new TypeError(`an XML attribute holds text: ${formatPath(at)} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object'}`);
      const { qname } = qualify(checkName(name, () => formatPath(at)), p.xml, scope, attrs, true);
      attrs[`${ATTRIBUTE_MARK}${qname}`] = escapeAttribute(scalarText(v, at));
    } else if (Array.isArray(v) && p.xml.wrapped !== true) {
      const items = p.items ?? ANY;
      const is = schemas.shape(items);
      // The items are in the array's namespace unless their own schema gives one.
      const { namespace, prefix } = p.xml;
      const itemXml: XmlObject = is.xml.namespace !== undefined || namespace === undefined ? is.xml : { ...is.xml, namespace, ...(prefix !== undefined && { prefix }) };
      // A record's entries are read back by their keys: their items are named by the key.
      const itemName = declared ? (is.xml.name ?? key) : key;
      v.forEach((item, i) => children.push(writeElement(schemas, itemName, itemXml, item, items, scope, [...at, i], depth)));
    } else children.push(writeElement(schemas, name, p.xml, v, schema, scope, at, depth));
  }
}

/** The text of a scalar: a string as it is, a number as JSON writes it, a boolean, a bigint in decimal. @throws {TypeError} for anything else, or a string XML cannot carry. */
function scalarText(v: unknown, path: PathSegment[]): string {
  if (typeof v === 'string') {
    const bad = NOT_XML_CHAR.exec(v);
    if (bad !== null) {
      throw new TypeError(`XML 1.0 cannot carry U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}: ${formatPath(path) || 'the value'} holds it`);
    }
    return v;
  }
  if (typeof v === 'number') return JSON.stringify(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  throw new TypeError(`XML cannot carry ${formatPath(path) || 'the value'}: a ${typeof v}`);
}

/**
 * The qualified name to write for `local` under `xml`'s namespace and prefix, declaring what
 * `scope` lacks in `attrs`; and the scope inside the element. An element in a namespace without
 * a prefix is in the default namespace; an attribute in one gets its prefix (or a made-up one,
 * `ns1`). A prefix without a namespace is written only when an outer element declared it.
 */
function qualify(local: string, xml: XmlObject, scope: WriteScope, attrs: Record<string, string>, attribute: boolean): { qname: string; scope: WriteScope } {
  const prefix = xml.prefix === undefined ? undefined : checkName(xml.prefix, () => `the prefix of ${local}`);
  if (xml.namespace === undefined) {
    return { qname: prefix !== undefined && scope.prefixes.has(prefix) ? `${prefix}:${local}` : local, scope };
  }
  if (prefix === undefined && !attribute) {
    if (scope.default === xml.namespace) return { qname: local, scope };
    attrs[`${ATTRIBUTE_MARK}xmlns`] = escapeAttribute(xml.namespace);
    return { qname: local, scope: { ...scope, default: xml.namespace } };
  }
  const bound = prefixFor(xml.namespace, prefix ?? `ns${scope.made.n + 1}`, scope, attrs);
  return { qname: `${bound.prefix}:${local}`, scope: bound.scope };
}

/** A prefix bound to `ns`: `wanted` when in scope for it, else declared in `attrs` (a made-up prefix counts). */
function prefixFor(ns: string, wanted: string, scope: WriteScope, attrs: Record<string, string>): { prefix: string; scope: WriteScope } {
  if (scope.prefixes.get(wanted) === ns) return { prefix: wanted, scope };
  const declared = attrs[`${ATTRIBUTE_MARK}xmlns:${wanted}`];
  // The element already binds this prefix to another namespace: make one up.
  if (declared !== undefined && declared !== escapeAttribute(ns)) return prefixFor(ns, `ns${scope.made.n + 1}`, scope, attrs);
  if (/^ns\d+$/.test(wanted)) scope.made.n++;
  attrs[`${ATTRIBUTE_MARK}xmlns:${wanted}`] = escapeAttribute(ns);
  return { prefix: wanted, scope: { ...scope, prefixes: new Map(scope.prefixes).set(wanted, ns) } };
}
