import type { Codec } from '@lib/codec';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { TextFormat } from './internal/codec-format.js';
import {
  ATTRIBUTE_MARK,
  checkDocument,
  ELEMENT_MARK,
  MAX_DEPTH,
  readDocument,
  rootElement,
  writeDocument,
  XmlSchemas,
  XmlSyntaxError,
  type ParsedNode,
} from './internal/xml-mapping.js';

export type { XmlObject } from './internal/xml-mapping.js';

/** The XML declaration every body starts with. */
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

let parser: XMLParser | undefined;
let builder: XMLBuilder | undefined;

/**
 * The parser, made on first use: an ordered tree (`preserveOrder`) of raw text (no value
 * parsing, no trimming, no entity processing: references are replaced by xml-mapping.ts), every
 * element name marked so that none is special to it, CDATA sections apart, comments,
 * declarations and processing instructions dropped, at most {@link MAX_DEPTH} levels.
 */
function theParser(): XMLParser {
  parser ??= new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE_MARK,
    allowBooleanAttributes: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
    cdataPropName: '#cdata',
    commentPropName: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: false,
    // Self-closing tags pass through this twice: mark once.
    transformTagName: (name: string) => (name.startsWith(ELEMENT_MARK) ? name : ELEMENT_MARK + name),
    maxNestedTags: MAX_DEPTH - 1,
    jPath: false,
  });
  return parser;
}

/** The writer, made on first use: compact, empty elements self-closed, text already escaped by xml-mapping.ts. */
function theBuilder(): XMLBuilder {
  builder ??= new XMLBuilder({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE_MARK,
    suppressEmptyNode: true,
    processEntities: false,
    format: false,
    maxNestedTags: MAX_DEPTH + 1,
  });
  return builder;
}

/** The reason the validator gives, in this format's words (the validator's own name tags and attributes: an excerpt of the body). */
function validatorReason(err: { readonly code: string; readonly msg: string; readonly line?: number; readonly col?: number }): string {
  const m = err.msg;
  const reason =
    /^Expected closing tag/.test(m) ? 'a closing tag does not match the element it closes'
    : /has not been opened/.test(m) ? 'a closing tag has no start tag'
    : /^Unclosed tag|^Invalid '\[/.test(m) ? 'an element is not closed'
    : /is an invalid name|^Invalid space after/.test(m) ? (err.code === 'InvalidAttr' ? 'an attribute name is not an XML name' : 'a tag name is not an XML name')
    : /doesn't have proper closing|can't have attributes/.test(m) ? 'a closing tag is malformed'
    : /is repeated/.test(m) ? 'an attribute is repeated'
    : /without value|boolean attribute/.test(m) ? 'an attribute has no value'
    : /open quote/.test(m) ? 'an attribute value is not closed'
    : /no space in starting/.test(m) ? 'attributes are not separated by white space'
    : /char '&'/.test(m) ? 'an "&" starts no character or entity reference'
    : /^char /.test(m) ? 'there is text outside the root element'
    : /^Start tag expected/.test(m) ? 'there is no root element'
    : /^Multiple possible root/.test(m) ? 'there is more than one root element'
    : /^Extra text at the end/.test(m) ? 'there is text after the root element'
    : /^XML declaration allowed only/.test(m) ? 'the XML declaration is not at the start of the document'
    : /not closed|Unclosed/i.test(m) ? 'a comment, CDATA section or processing instruction is not closed'
    : 'it is not well-formed';
  return err.line === undefined ? reason : `${reason} at line ${err.line}${err.col === undefined ? '' : `, column ${err.col}`}`;
}

/**
 * The XML body format of a codec: `application/xml` (RFC 7303), UTF-8, XML 1.0 (fifth edition)
 * with namespaces, through fast-xml-parser, laid out as the OpenAPI 3.1 XML Object (§4.8.26)
 * says, read from the codec's JSON Schema.
 *
 * **The layout.** The document's root element is named by the schema's `xml.name`, else the
 * codec's name (`withName('Pet')`), else `root`. An object's properties are child elements
 * named by their keys, or by their `xml.name`; a property with `xml.attribute: true` is an
 * attribute instead. An array property is repeated elements, each named by `items.xml.name`, else
 * by the property; with `xml.wrapped: true` they are inside a wrapping element named by the
 * property (or the array's `xml.name`), and the items are named by `items.xml.name`, else as the
 * wrapper. An array at the root is wrapped in the root element, its items named by
 * `items.xml.name`, else the item codec's name, else `item`. `xml.namespace` puts the element
 * (or attribute) in that namespace: with `xml.prefix` as `prefix:name` and an `xmlns:prefix`
 * declaration, without it as the default namespace (`xmlns="…"`, which the elements inside
 * inherit, as RFC 9457 appendix B writes problem details). The `xml` keywords of a named codec
 * apply where it is used (through its `$ref`), as for the tags of the Petstore. Scalars are
 * element text; `null` is an empty element with `xsi:nil="true"` (XML Schema instances); a
 * record's entries are child elements named by their keys.
 *
 * **Setting the keywords.** The schema is the codec's (`codec.schema`, with named codecs as
 * definitions). The `xml` keyword is an annotation added by a constraint that checks nothing:
 *
 * ```ts
 * const xml = <T>(x: format.XmlObject): codec.Constraint<T> => ({ name: 'xml', test: () => true, message: () => 'is valid', schema: { xml: x } });
 * const tag = codec.object({ id: codec.int().refine(xml({ attribute: true })), name: codec.string() }).refine(xml({ name: 'tag' })).withName('Tag');
 * const pet = codec.object({ name: codec.string(), tags: codec.array(tag).refine(xml({ wrapped: true })) }).withName('Pet');
 * // <Pet><name>Rex</name><tags><tag id="1"><name>good</name></tag></tags></Pet>
 * ```
 *
 * The OpenAPI document shows the same keywords (code imported by `@lib/openapi-import` keeps
 * them as `annotate({ xml: … })`, which this format reads the same way).
 *
 * **marshal** writes the data JSON writes (`codec.encode`, which checks the structure and
 * throws `EncodeError`, through the JSON data model: `time()` as RFC 3339 text, `bytes()` as
 * base64, `int64()` as decimal text, undeclared fields left out), as one document after an XML
 * declaration, compact. Text is escaped (`&`, `<`, `>`, and CR as `&#13;`; in attributes also
 * `"`, tab and LF), so every string XML can carry comes back as it was. A value with no data
 * (`codec.empty()`) is an empty body. No constraint runs, as for JSON.
 *
 * **unmarshal** reads the document and maps it back by the same schema, then decodes it
 * through the codec (so it validates, and invalid values give the codec's issues with their
 * paths, as JSON does). Text becomes a number where the schema says `number` or `integer` and
 * the text is a JSON number (`42`, `-1.5e3`; white space around it is allowed), a boolean where it says `boolean` (`true`,
 * `false`), and stays text otherwise; an element the schema says is an array is read as one
 * even when it holds one item (or none: a required unwrapped array with no element is `[]`);
 * an element with `xsi:nil="true"` is `null`; text where the schema says array or object reaches
 * the codec as text, which refuses it. Elements and attributes are matched by local
 * name, and by namespace where the schema gives one (any prefix bound to it will do); the root
 * element's name is not checked. Undeclared elements and attributes reach the codec as text (or
 * objects of text), so a strict codec refuses them (`unknownKey`) and others strip them. Names
 * are own properties: `__proto__` and `constructor` never reach a prototype. An empty (or
 * blank) body unmarshals as `undefined`.
 *
 * Refused as `DecodeError` with one issue, constraint `syntax` (`body is not valid XML: a
 * closing tag does not match the element it closes at line 3, column 5`), naming the problem
 * and its place, never an excerpt: invalid UTF-8; a document that is not well-formed (XML 1.0
 * §2.1: one root element, matched tags, unique attributes, quoted values); a document type
 * declaration or any markup declaration (`<!DOCTYPE`, `<!ENTITY`): no DTD is read, so there is
 * no external entity (XXE) and no entity expansion ("billion laughs"); a reference to an entity
 * other than `lt`, `gt`, `amp`, `apos`, `quot`, or to a character XML 1.0 does not allow; such a
 * character in the text; an undeclared namespace prefix; an XML declaration naming an encoding
 * other than UTF-8; elements nested more than 256 levels deep.
 */
export class XmlFormat<T> extends TextFormat<T> {
  protected readonly syntax = 'XML';
  #schemas: XmlSchemas | undefined;
  constructor(codec: Codec<T>, contentType = 'application/xml') {
    super(codec, contentType);
  }
  /** The codec's schemas, walked on first use. */
  private schemas(): XmlSchemas {
    return (this.#schemas ??= schemasOf(this.codec as Codec<unknown>));
  }
  /**
   * One XML document of the data.
   * @throws {TypeError} for what XML cannot carry: a character XML 1.0 does not allow (U+0000, a
   * lone surrogate), a key or `xml.name` that is not an XML name (`"a b"`, `"1st"`, `"a:b"`), an
   * attribute property holding an object, an array or `null`, nesting deeper than 256 levels.
   */
  protected stringify(data: unknown): string {
    return DECLARATION + theBuilder().build(writeDocument(this.schemas(), data));
  }
  /**
   * The wire value of a body's text (`undefined` for an empty or blank body).
   * @throws {XmlSyntaxError} or what the parser throws, for {@link XmlFormat.reasonOf}.
   */
  protected parse(text: string): unknown {
    if (text.trim() === '') return undefined;
    checkDocument(text);
    const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
    if (valid !== true) throw new XmlSyntaxError(validatorReason(valid.err));
    const nodes = theParser().parse(text) as ParsedNode[];
    return readDocument(this.schemas(), rootElement(nodes));
  }
  /**
   * The schemas before the body is read, so that a codec the format cannot describe fails as
   * the program's error, not the client's.
   */
  protected override wireOf(bytes: Uint8Array): unknown {
    this.schemas();
    return super.wireOf(bytes);
  }
  /** The reason a document was refused: this format's own words, never an excerpt. */
  protected reasonOf(err: unknown): string {
    if (err instanceof XmlSyntaxError) return err.message;
    if (err instanceof Error && /Maximum nested tags/.test(err.message)) return `elements are nested more than ${MAX_DEPTH} levels deep`;
    if (err instanceof RangeError) return 'it is nested too deeply';
    return 'it could not be parsed';
  }
}

/** The same-class copies of an XML format, typed as such (the skeleton makes them). */
export interface XmlFormat<T> {
  /** The same format under another media type (`application/problem+xml`, `text/xml`, a `+xml` type: RFC 7303). */
  withContentType(contentType: string): XmlFormat<T>;
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): XmlFormat<U>;
}

const schemaCache = new WeakMap<Codec<unknown>, XmlSchemas>();
function schemasOf(codec: Codec<unknown>): XmlSchemas {
  let s = schemaCache.get(codec);
  if (s === undefined) schemaCache.set(codec, (s = new XmlSchemas(codec)));
  return s;
}

/**
 * XML body format (XML 1.0, laid out by the OpenAPI 3.1 XML Object): `format.xml(petCodec)`,
 * media type `application/xml`. See {@link XmlFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function xml<T>(codec: Codec<T>): XmlFormat<T> {
  return new XmlFormat(codec);
}
