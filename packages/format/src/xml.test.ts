import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { TRICKY, expectEncodeError, expectSameDecodeError, expectSyntaxError, text, thrown, utf8 } from '../test/helpers.js';
import * as format from './index.js';

/** The `xml` keyword on a codec's schema: an annotation that checks nothing (as the TSDoc of `format.xml` shows). */
const xml = <T>(x: format.XmlObject): codec.Constraint<T> => ({ name: 'xml', test: () => true, message: () => 'is valid', schema: { xml: x } });

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

// The Swagger Petstore's Pet (OpenAPI 3.1), with a 64-bit id.
const category = codec.object({ id: codec.int(), name: codec.string() }).refine(xml({ name: 'category' })).withName('Category');
const tag = codec.object({ id: codec.int(), name: codec.string() }).refine(xml({ name: 'tag' })).withName('Tag');
const pet = codec
  .object({
    id: codec.int64(),
    name: codec.string().refine(validate.minLength(1)),
    category: codec.optional(category),
    photoUrls: codec.array(codec.string().refine(xml({ name: 'photoUrl' }))).refine(xml({ wrapped: true })),
    tags: codec.optional(codec.array(tag).refine(xml({ wrapped: true }))),
    status: codec.optional(codec.string().refine(validate.oneOf('available', 'pending', 'sold'))),
  })
  .refine(xml({ name: 'pet' }))
  .withName('Pet');
type Pet = codec.Infer<typeof pet>;
const rex: Pet = {
  id: 9007199254740993n,
  name: 'Rex & <Co>',
  category: { id: 1, name: 'Dogs' },
  photoUrls: ['https://example.com/rex.png', 'https://example.com/rex2.png'],
  tags: [{ id: 1, name: 'good' }, { id: 2, name: 'boy' }],
  status: 'available',
};
const REX_XML =
  `${DECL}<pet><id>9007199254740993</id><name>Rex &amp; &lt;Co&gt;</name><category><id>1</id><name>Dogs</name></category>` +
  '<photoUrls><photoUrl>https://example.com/rex.png</photoUrl><photoUrl>https://example.com/rex2.png</photoUrl></photoUrls>' +
  '<tags><tag><id>1</id><name>good</name></tag><tag><id>2</id><name>boy</name></tag></tags><status>available</status></pet>';

describe('xml', () => {
  const f = format.xml(pet);

  it('round-trips a Petstore Pet laid out by the XML Object: names, wrapped arrays, named items, int64 as text', () => {
    expect(f.contentType).toBe('application/xml');
    expect('bodySchema' in f).toBe(false);
    expect(f.marshalText(rex)).toBe(REX_XML);
    expect(text(f.marshal(rex))).toBe(REX_XML);
    expect(f.unmarshal(f.marshal(rex))).toEqual(rex);
  });

  it('reads hand-written XML: indentation, comments, CDATA, another root name, references, an array of one', () => {
    const body = [
      '<?xml version="1.0"?>',
      '<!-- a pet -->',
      '<Pet>',
      '  <id>42</id>',
      '  <name><![CDATA[Rex & <Co>]]></name>',
      '  <photoUrls>',
      '    <photoUrl>https://example.com/&#x72;ex.png</photoUrl>',
      '  </photoUrls>',
      '  <tags><tag><id>7</id><name>a&#10;b</name></tag></tags>',
      '</Pet>',
    ].join('\r\n');
    expect(f.unmarshal(utf8(body))).toEqual({ id: 42n, name: 'Rex & <Co>', photoUrls: ['https://example.com/rex.png'], tags: [{ id: 7, name: 'a\nb' }] });
    // A wrapper without items is an empty array; without the wrapper, a required array is missing.
    expect(f.unmarshal(utf8('<pet><id>1</id><name>a</name><photoUrls/></pet>'))).toEqual({ id: 1n, name: 'a', photoUrls: [] });
    expect(() => f.unmarshal(utf8('<pet><id>1</id><name>a</name></pet>'))).toThrow(/photoUrls: /);
    expect(() => f.unmarshal(utf8('<pet><id>x</id><name>a</name><photoUrls/><status>lost</status></pet>'))).toThrow(/^id: expected the decimal text of an integer; status: must be one of "available"/);
  });

  it('reads numbers and booleans from text where the schema says so, and reports bad text as JSON would', () => {
    const c = codec.object({ n: codec.number(), i: codec.int(), b: codec.boolean(), s: codec.string(), u: codec.untaggedUnion(codec.int(), codec.string()), big: codec.int64() });
    const x = format.xml(c);
    expect(x.unmarshal(utf8('<r><n>-1.5e3</n><i>42</i><b>true</b><s>42</s><u>7</u><big>-12</big></r>'))).toEqual({ n: -1500, i: 42, b: true, s: '42', u: 7, big: -12n });
    expect(x.unmarshal(utf8('<r><n>0.25</n><i>0</i><b> false </b><s> true </s><u>seven</u><big>0</big></r>'))).toEqual({ n: 0.25, i: 0, b: false, s: ' true ', u: 'seven', big: 0n });
    expectSameDecodeError(
      () => x.unmarshal(utf8('<r><n>1,5</n><i>4.5</i><b>yes</b><s>x</s><u>1</u><big>1</big></r>')),
      () => format.json(c).unmarshal(utf8('{"n":"1,5","i":4.5,"b":"yes","s":"x","u":1,"big":"1"}')),
    );
    expect(() => x.unmarshal(utf8('<r><n>+1</n><i>0x1F</i><b>1</b><s/><u/><big>1</big></r>'))).toThrow(/n: expected number.*\n?.*/);
    expect(() => format.xml(pet).unmarshal(utf8('<pet><id>1</id><name></name><photoUrls/></pet>'))).toThrow('name: must have at least 1 character');
  });

  it('reads a single element as an array of one where the schema says array, wrapped or not', () => {
    const c = codec.object({ tag: codec.array(codec.string()), n: codec.array(codec.int()), opt: codec.optional(codec.array(codec.string())) });
    const x = format.xml(c);
    expect(x.unmarshal(utf8('<r><tag>a</tag><n>1</n></r>'))).toEqual({ tag: ['a'], n: [1] });
    expect(x.unmarshal(utf8('<r><tag>a</tag><n>1</n><tag>b</tag><n>2</n></r>'))).toEqual({ tag: ['a', 'b'], n: [1, 2] });
    // No element: a required array is empty, an optional one absent.
    expect(x.unmarshal(utf8('<r/>'))).toEqual({ tag: [], n: [] });
    expect(x.marshalText({ tag: ['a', 'b'], n: [], opt: ['x'] })).toBe(`${DECL}<root><tag>a</tag><tag>b</tag><opt>x</opt></root>`);
    // A single element where one value is expected, twice: the codec sees an array and refuses it.
    expect(() => format.xml(codec.object({ s: codec.string() })).unmarshal(utf8('<r><s>a</s><s>b</s></r>'))).toThrow(/s: expected string, got array/);
  });

  it('writes and reads attributes, renamed elements and items named by items.xml.name', () => {
    const note = codec
      .object({
        id: codec.int().refine(xml({ attribute: true })),
        lang: codec.optional(codec.string().refine(xml({ attribute: true, name: 'xml-lang' }))),
        urgent: codec.boolean().refine(xml({ attribute: true })),
        body: codec.string().refine(xml({ name: 'text' })),
        to: codec.array(codec.string().refine(xml({ name: 'recipient' }))),
      })
      .withName('Note');
    const x = format.xml(note);
    const value = { id: 3, lang: 'en "GB" & <more>\t\n', urgent: false, body: 'hi', to: ['a', 'b'] };
    expect(x.marshalText(value)).toBe(`${DECL}<Note id="3" xml-lang="en &quot;GB&quot; &amp; &lt;more&gt;&#9;&#10;" urgent="false"><text>hi</text><recipient>a</recipient><recipient>b</recipient></Note>`);
    expect(x.unmarshal(x.marshal(value))).toEqual(value);
    // Attribute values are normalized: literal tabs and line breaks are spaces (XML 1.0 §3.3.3).
    expect(x.unmarshal(utf8("<Note id=' 4 ' urgent='true' xml-lang='a\tb\nc'><text/></Note>"))).toEqual({ id: 4, lang: 'a b c', urgent: true, body: '', to: [] });
    expectEncodeError(() => x.marshal({ ...value, id: 1.5 }), /id: /);
    expect(() => format.xml(codec.object({ a: codec.array(codec.int()).refine(xml({ attribute: true })) })).marshal({ a: [1] })).toThrow(new TypeError('an XML attribute holds text: a is an array'));
    expect(() => format.xml(codec.object({ a: codec.nullable(codec.int()).refine(xml({ attribute: true })) })).marshal({ a: null })).toThrow(/a is null/);
  });

  it('writes and reads namespaces and prefixes: RFC 9457 problem details in XML', () => {
    const problem = codec
      .object({
        type: codec.string(),
        title: codec.string(),
        detail: codec.optional(codec.string()),
        instance: codec.optional(codec.string()),
        balance: codec.number(),
        accounts: codec.array(codec.string().refine(xml({ name: 'i' }))).refine(xml({ wrapped: true })),
      })
      .refine(xml({ name: 'problem', namespace: 'urn:ietf:rfc:7807' }));
    const x = format.xml(problem).withContentType('application/problem+xml');
    expect(x.contentType).toBe('application/problem+xml');
    // RFC 9457 appendix B, as printed.
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<problem xmlns="urn:ietf:rfc:7807">
  <type>https://example.com/probs/out-of-credit</type>
  <title>You do not have enough credit.</title>
  <detail>Your current balance is 30, but that costs 50.</detail>
  <instance>https://example.net/account/12345/msgs/abc</instance>
  <balance>30</balance>
  <accounts>
    <i>https://example.net/account/12345</i>
    <i>https://example.net/account/67890</i>
  </accounts>
</problem>`;
    const value = x.unmarshal(utf8(body));
    expect(value).toEqual({
      type: 'https://example.com/probs/out-of-credit',
      title: 'You do not have enough credit.',
      detail: 'Your current balance is 30, but that costs 50.',
      instance: 'https://example.net/account/12345/msgs/abc',
      balance: 30,
      accounts: ['https://example.net/account/12345', 'https://example.net/account/67890'],
    });
    expect(x.marshalText(value)).toBe(body.replace(/\n\s*/g, ''));
    // The same namespace under a prefix reads the same.
    expect(x.unmarshal(utf8('<p:problem xmlns:p="urn:ietf:rfc:7807"><p:type>t</p:type><title>x</title><balance>1</balance><accounts/></p:problem>'))).toEqual({ type: 't', title: 'x', balance: 1, accounts: [] });
  });

  it('matches elements and attributes by namespace where the schema gives one, whatever the prefix', () => {
    const item = codec
      .object({
        sku: codec.string().refine(xml({ attribute: true, namespace: 'urn:shop', prefix: 's' })),
        name: codec.string().refine(xml({ namespace: 'urn:shop', prefix: 's' })),
        note: codec.optional(codec.string()),
      })
      .refine(xml({ name: 'item', namespace: 'urn:shop', prefix: 's' }));
    const x = format.xml(item);
    const value = { sku: 'A1', name: 'Lamp', note: 'n' };
    expect(x.marshalText(value)).toBe(`${DECL}<s:item xmlns:s="urn:shop" s:sku="A1"><s:name>Lamp</s:name><note>n</note></s:item>`);
    expect(x.unmarshal(x.marshal(value))).toEqual(value);
    expect(x.unmarshal(utf8('<item xmlns="urn:shop" xmlns:o="urn:shop" o:sku="B2"><name>Desk</name></item>'))).toEqual({ sku: 'B2', name: 'Desk' });
    // In another namespace (or none) it is not that element, nor that attribute.
    expect(() => x.unmarshal(utf8('<s:item xmlns:s="urn:other" s:sku="A1"><s:name>Lamp</s:name></s:item>'))).toThrow(/sku: .*\n?|name: /);
    expect(() => x.unmarshal(utf8('<item sku="A1"><name>Lamp</name></item>'))).toThrow(/sku: /);
    // A prefix bound to a namespace by an attribute and another by the element: two prefixes.
    const two = codec.object({ a: codec.string().refine(xml({ attribute: true, namespace: 'urn:b', prefix: 'p' })) }).refine(xml({ name: 'x', namespace: 'urn:a', prefix: 'p' }));
    const out = format.xml(two).marshalText({ a: 'v' });
    expect(out).toBe(`${DECL}<p:x xmlns:p="urn:a" xmlns:ns1="urn:b" ns1:a="v"/>`);
    expect(format.xml(two).unmarshal(utf8(out))).toEqual({ a: 'v' });
  });

  it('names the root by xml.name, else the codec name, else root; items of a root array by their name, else item', () => {
    const plain = codec.object({ a: codec.int() });
    expect(format.xml(plain).marshalText({ a: 1 })).toBe(`${DECL}<root><a>1</a></root>`);
    expect(format.xml(plain.withName('Thing')).marshalText({ a: 1 })).toBe(`${DECL}<Thing><a>1</a></Thing>`);
    // A codec name that is no XML name (fine for OpenAPI) is passed over.
    expect(format.xml(plain.withName('1Thing')).marshalText({ a: 1 })).toBe(`${DECL}<root><a>1</a></root>`);
    expect(format.xml(codec.array(tag)).marshalText([{ id: 1, name: 'x' }])).toBe(`${DECL}<root><tag><id>1</id><name>x</name></tag></root>`);
    expect(format.xml(codec.array(codec.int()).withName('Ids')).marshalText([1, 2])).toBe(`${DECL}<Ids><item>1</item><item>2</item></Ids>`);
    expect(format.xml(codec.array(codec.int())).unmarshal(utf8('<list><n>1</n><n>2</n></list>'))).toEqual([1, 2]);
    expect(format.xml(codec.string()).marshalText('a<b')).toBe(`${DECL}<root>a&lt;b</root>`);
    expect(format.xml(codec.int()).unmarshal(utf8('<root>12</root>'))).toBe(12);
  });

  it('writes null as xsi:nil and reads it back; records by key; tagged unions; any() as text', () => {
    const c = codec.object({
      n: codec.nullable(codec.number()),
      list: codec.array(codec.nullable(codec.string())),
      counts: codec.record(codec.int()),
      shape: codec.taggedUnion('kind', { circle: codec.object({ r: codec.number() }), square: codec.object({ side: codec.int() }) }),
      extra: codec.any(),
    });
    const x = format.xml(c);
    const value = { n: null, list: ['a', null], counts: { apples: 3, pears: 0 }, shape: { kind: 'circle' as const, r: 1.5 }, extra: { k: 'v', l: ['1', '2'] } };
    const out = x.marshalText(value);
    expect(out).toBe(
      `${DECL}<root><n xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/><list>a</list><list xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>` +
        '<counts><apples>3</apples><pears>0</pears></counts><shape><kind>circle</kind><r>1.5</r></shape><extra><k>v</k><l>1</l><l>2</l></extra></root>',
    );
    expect(x.unmarshal(utf8(out))).toEqual(value);
    expect(format.xml(codec.object({ s: codec.nullable(codec.string()) })).unmarshal(utf8('<r xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><s i:nil="1">ignored</s></r>'))).toEqual({ s: null });
  });

  it('unmarshals an empty body as undefined and writes undefined as an empty body', () => {
    expect(format.xml(codec.optional(pet)).unmarshal(new Uint8Array(0))).toBeUndefined();
    expect(format.xml(codec.optional(pet)).unmarshal(utf8(' \n'))).toBeUndefined();
    expect(format.xml(codec.empty<Record<string, never>>()).marshal({})).toEqual(new Uint8Array(0));
  });

  it('round-trips tricky strings exactly, in elements and attributes', () => {
    const strings = format.xml(codec.array(codec.string()));
    const tricky = [...TRICKY, 'a\r\nb\rc', ']]>', '<![CDATA[x]]>', '&amp;', '&#65;', "'\"", '', ' ', '\u00a0\ud83d\ude00'];
    expect(strings.unmarshal(strings.marshal(tricky))).toEqual(tricky);
    const attrs = format.xml(codec.object({ a: codec.string().refine(xml({ attribute: true })) }));
    for (const s of tricky) expect(attrs.unmarshal(attrs.marshal({ a: s })), JSON.stringify(s)).toEqual({ a: s });
  });

  it('refuses on marshal what XML cannot carry, with a TypeError naming the path', () => {
    const strings = format.xml(codec.object({ s: codec.array(codec.string()) }));
    expect(() => strings.marshal({ s: ['ok', 'a\u0000b'] })).toThrow(new TypeError('XML 1.0 cannot carry U+0000: s[1] holds it'));
    expect(() => strings.marshal({ s: ['\ud800'] })).toThrow(/U\+D800/);
    expect(() => strings.marshal({ s: ['\uffff'] })).toThrow(/U\+FFFF/);
    const rec = format.xml(codec.record(codec.int()));
    expect(() => rec.marshal({ 'a b': 1 })).toThrow(new TypeError('"a b" is not an XML name (a letter or "_" first, then letters, digits, ".", "-" or "_"; no space, no colon): it would name ["a b"]'));
    expect(() => rec.marshal({ '1st': 1 })).toThrow(TypeError);
    expect(() => rec.marshal({ 'a:b': 1 })).toThrow(TypeError);
    expect(() => format.xml(codec.object({ a: codec.int() }).refine(xml({ name: 'not a name' }))).marshal({ a: 1 })).toThrow(TypeError);
    let deep: codec.Codec<unknown> = codec.int();
    for (let i = 0; i < 300; i++) deep = codec.array(deep);
    let v: unknown = 1;
    for (let i = 0; i < 300; i++) v = [v];
    expect(() => format.xml(deep).marshal(v)).toThrow(/nest at most 256 levels/);
    // 255 arrays in one another and their item: 256 levels, written and read back.
    let c255: codec.Codec<unknown> = codec.int();
    let v255: unknown = 1;
    for (let i = 0; i < 255; i++) {
      c255 = codec.array(c255);
      v255 = [v255];
    }
    expect(format.xml(c255).unmarshal(format.xml(c255).marshal(v255))).toEqual(v255);
    expectEncodeError(() => format.xml(pet).marshal({ ...rex, photoUrls: 'x' as unknown as string[] }), /photoUrls: /);
  });

  it('reports malformed XML as DecodeError `syntax` with a line and column, never an excerpt', () => {
    const any = format.xml(codec.any());
    expectSyntaxError(() => any.unmarshal(utf8('<a>\n  <b>\n</a>')), 'XML', 'body is not valid XML: a closing tag does not match the element it closes at line 3, column 1');
    expectSyntaxError(() => any.unmarshal(utf8('<a><b></b>')), 'XML', /^body is not valid XML: an element is not closed at line 1, column 1$/);
    expectSyntaxError(() => any.unmarshal(utf8('<a></a><b/>')), 'XML', 'body is not valid XML: there is more than one root element');
    expectSyntaxError(() => any.unmarshal(utf8('<a/><b></b>')), 'XML', /more than one root element/);
    expectSyntaxError(() => any.unmarshal(utf8('<a>x</a>secret')), 'XML', /^body is not valid XML: there is text after the root element at line 1/);
    expectSyntaxError(() => any.unmarshal(utf8('secret<a/>')), 'XML', /text outside the root element/);
    expectSyntaxError(() => any.unmarshal(utf8('<a x="1" x="2"/>')), 'XML', /an attribute is repeated at line 1/);
    expectSyntaxError(() => any.unmarshal(utf8('<a x=1/>')), 'XML', /^body is not valid XML: /);
    expectSyntaxError(() => any.unmarshal(utf8('<1a/>')), 'XML', /a tag name is not an XML name/);
    expectSyntaxError(() => any.unmarshal(utf8('<a>&secret;</a>')), 'XML', 'body is not valid XML: a reference names an entity that is not declared (only lt, gt, amp, apos and quot are)');
    expectSyntaxError(() => any.unmarshal(utf8('<a x="&nbsp;"/>')), 'XML', /entity that is not declared/);
    expectSyntaxError(() => any.unmarshal(utf8('<a>&#0;</a>')), 'XML', 'body is not valid XML: a character reference names a character XML 1.0 does not allow');
    expectSyntaxError(() => any.unmarshal(utf8('<a>&#x110000;</a>')), 'XML', /character XML 1.0 does not allow/);
    expectSyntaxError(() => any.unmarshal(utf8('<a>a & b</a>')), 'XML', /"&" starts no character or entity reference/);
    expectSyntaxError(() => any.unmarshal(utf8('<a>\u0001</a>')), 'XML', 'body is not valid XML: it holds a character XML 1.0 does not allow (U+0001) at line 1, column 4');
    expectSyntaxError(() => any.unmarshal(utf8('<p:a/>')), 'XML', 'body is not valid XML: a namespace prefix is not declared');
    expectSyntaxError(() => any.unmarshal(utf8('<a:b:c xmlns:a="urn:a"/>')), 'XML', /more than one colon/);
    expectSyntaxError(() => any.unmarshal(utf8('<?xml version="1.0" encoding="ISO-8859-1"?><a/>')), 'XML', 'body is not valid XML: the XML declaration names an encoding other than UTF-8 at line 1, column 21');
    expectSyntaxError(() => any.unmarshal(new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e])), 'XML', 'body is not valid XML: it is not valid UTF-8');
    expectSyntaxError(() => any.unmarshal(utf8('<a><!-- open</a>')), 'XML', /^body is not valid XML: /);
    expectSyntaxError(() => any.unmarshal(utf8('<a><![CDATA[x</a>')), 'XML', /^body is not valid XML: /);
  });

  it('refuses elements nested deeper than 256 levels, and reads 256', () => {
    const any = format.xml(codec.any());
    const nest = (n: number): string => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(() => any.unmarshal(utf8(nest(256)))).not.toThrow();
    expectSyntaxError(() => any.unmarshal(utf8(nest(257))), 'XML', 'body is not valid XML: elements are nested more than 256 levels deep');
    expectSyntaxError(() => any.unmarshal(utf8(nest(100_000))), 'XML', /nested more than 256 levels/);
  });

  it('refuses external entities (XXE) and entity bombs: no document type declaration is read', () => {
    const any = format.xml(codec.any());
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<foo>&xxe;</foo>';
    const e = expectSyntaxError(() => any.unmarshal(utf8(xxe)), 'XML', 'body is not valid XML: a document type declaration (DOCTYPE) is not accepted at line 2, column 1');
    expect(e.message).not.toContain('passwd');
    const lines = ['<!DOCTYPE lolz [', '<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) lines.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    lines.push(']>', '<lolz>&lol9;</lolz>');
    expectSyntaxError(() => any.unmarshal(utf8(lines.join('\n'))), 'XML', /a document type declaration \(DOCTYPE\) is not accepted at line 1, column 1$/);
    // Inside the root, or as a bare entity declaration, too; in a comment or CDATA it is text.
    expectSyntaxError(() => any.unmarshal(utf8('<a><!DOCTYPE a></a>')), 'XML', /DOCTYPE\) is not accepted at line 1, column 4$/);
    expectSyntaxError(() => any.unmarshal(utf8('<a><!ENTITY x "y"></a>')), 'XML', /a markup declaration is not accepted/);
    expect(any.unmarshal(utf8('<a><!-- <!DOCTYPE a> --><b><![CDATA[<!ENTITY x SYSTEM "file:///etc/passwd">]]></b></a>'))).toEqual({ b: '<!ENTITY x SYSTEM "file:///etc/passwd">' });
  });

  it('keeps __proto__ and constructor as own keys and never touches a prototype', () => {
    const body = utf8('<r __proto__="x"><__proto__><polluted>true</polluted></__proto__><constructor><prototype><polluted>true</polluted></prototype></constructor><toString>s</toString></r>');
    const rec = format.xml(codec.record(codec.any())).unmarshal(body);
    expect(Object.getPrototypeOf(rec)).toBe(Object.prototype);
    expect(Object.keys(rec)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(rec, '__proto__')?.value).toEqual({ polluted: 'true' });
    expect(rec['toString']).toBe('s');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const anyValue = format.xml(codec.any()).unmarshal(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(anyValue)).toBe(Object.prototype);
    expect(Object.keys(anyValue)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(format.xml(codec.object({ a: codec.optional(codec.string()) })).unmarshal(body)).toEqual({});
    const strict = format.xml(codec.object({}).strict());
    expect(() => strict.unmarshal(body)).toThrow(/__proto__: is not a known field/);
    // Written back as the elements they are.
    const keys = format.xml(codec.record(codec.string()));
    const value = JSON.parse('{"__proto__":"a","constructor":"b"}') as Record<string, string>;
    expect(keys.marshalText(value)).toBe(`${DECL}<root><__proto__>a</__proto__><constructor>b</constructor></root>`);
    expect(Object.keys(keys.unmarshal(keys.marshal(value)))).toEqual(['__proto__', 'constructor']);
  });

  it('passes undeclared elements and attributes to the codec: stripped, or refused by a strict codec', () => {
    const c = codec.object({ a: codec.string() });
    expect(format.xml(c).unmarshal(utf8('<r x="1" xml:lang="en"><a>v</a><b>w</b></r>'))).toEqual({ a: 'v' });
    const strict = format.xml(c.strict());
    expect(() => strict.unmarshal(utf8('<r><a>v</a><b>w</b></r>'))).toThrow(/b: is not a known field/);
    expect(() => strict.unmarshal(utf8('<r x="1"><a>v</a></r>'))).toThrow(/x: is not a known field/);
    // xml:* and xsi:* attributes are markup, not fields.
    expect(strict.unmarshal(utf8('<r xml:lang="en" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="T"><a>v</a></r>'))).toEqual({ a: 'v' });
    // A string where an object is expected, an object where a string is: the codec refuses.
    expect(() => format.xml(codec.object({ o: c })).unmarshal(utf8('<r><o>text</o></r>'))).toThrow('o: expected object, got string');
    expect(() => format.xml(c).unmarshal(utf8('<r><a><b/></a></r>'))).toThrow(/a: expected string, got object/);
    // Text where an array or an object is expected is not dropped: the codec refuses it.
    expect(() => format.xml(pet).unmarshal(utf8('<pet><id>1</id><name>a</name><photoUrls>a.png</photoUrls><category>Dogs</category></pet>'))).toThrow(
      /^category: expected object, got string; photoUrls: expected array, got string$/,
    );
  });

  it('serves +xml media types and carries other codecs (typed error bodies)', () => {
    expect(format.xml(pet).withContentType('text/xml').contentType).toBe('text/xml');
    const problem = format.xml(pet).withContentType('application/problem+xml').withCodec(codec.object({ error: codec.string() }).withName('ErrorEnvelope'));
    expect(problem).toBeInstanceOf(format.XmlFormat);
    expect(problem.contentType).toBe('application/problem+xml');
    expect(problem.marshalText({ error: 'no' })).toBe(`${DECL}<ErrorEnvelope><error>no</error></ErrorEnvelope>`);
    expect(format.mediaTypeOf(format.xml(pet).contentType)).toBe('application/xml');
  });

  it('fails as the program, not the client, for a codec whose names conflict', () => {
    const a = codec.object({ x: codec.int() }).withName('Same');
    const b = codec.object({ y: codec.int() }).withName('Same');
    const f2 = format.xml(codec.object({ a, b }));
    expect(thrown(() => f2.unmarshal(utf8('<r/>')))).toBeInstanceOf(codec.SchemaNameConflictError);
  });
});
