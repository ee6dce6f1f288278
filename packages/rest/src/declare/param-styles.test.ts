import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as rest from '../index.js';
import {
  documentedStyle,
  percentDecode,
  percentEncode,
  rawPathSegment,
  rawQueryPairs,
  readsBack,
  readStyledQuery,
  readStyledText,
  resolveParamStyle,
  writeStyled,
  writeStyledQuery,
  writeStyledText,
  type ParamStyleOptions,
  type ResolvedParamStyle,
  type StyledWire,
} from './param-styles.js';
import type { ParamLocation } from './params.js';

const ids = codec.array(codec.intString());
const color = codec.object({ R: codec.intString(), G: codec.intString(), B: codec.intString() });
const names = codec.array(codec.string());

/** The resolved style of a parameter `name` (`id` for lists, `color` for objects, as OpenAPI's table names them). */
function style(location: ParamLocation, c: codec.Codec<unknown>, options: ParamStyleOptions = {}, name = c === color ? 'color' : 'id'): ResolvedParamStyle {
  // Not as a repeated query key (`multi`), which the server reads without this module: the functions are tested on all.
  const s = resolveParamStyle(location, name, c, options);
  if (s === undefined) throw new Error('not styled');
  return s;
}

const list = ['3', '4', '5'];
const rgb = { R: '100', G: '200', B: '150' };

/** Writes `wire` as text, checks the text, and reads it back. */
function textRoundTrip(s: ResolvedParamStyle, wire: StyledWire, text: string): void {
  expect(writeStyledText(s, wire)).toBe(text);
  expect(readStyledText(s, text)?.wire).toEqual(wire);
}

/** Writes `wire` as query pairs, checks them, and reads them back from the query string. */
function queryRoundTrip(s: ResolvedParamStyle, wire: StyledWire, query: string): void {
  expect(writeStyledQuery(s, wire).join('&')).toBe(query);
  expect(readStyledQuery(s, rawQueryPairs(query))?.wire).toEqual(wire);
}

describe('parameter styles: the examples of OpenAPI 3.1 §4.8.12.4', () => {
  it('path simple: 3,4,5; R,100,G,200,B,150; exploded R=100,G=200,B=150', () => {
    textRoundTrip(style('path', ids), list, '3,4,5');
    textRoundTrip(style('path', ids, { explode: true }), list, '3,4,5');
    textRoundTrip(style('path', color), rgb, 'R,100,G,200,B,150');
    textRoundTrip(style('path', color, { explode: true }), rgb, 'R=100,G=200,B=150');
  });

  it('path label: .3,4,5 / .3.4.5; .R,100,G,200,B,150 / .R=100.G=200.B=150; a scalar .blue', () => {
    textRoundTrip(style('path', ids, { style: 'label' }), list, '.3,4,5');
    textRoundTrip(style('path', ids, { style: 'label', explode: true }), list, '.3.4.5');
    textRoundTrip(style('path', color, { style: 'label' }), rgb, '.R,100,G,200,B,150');
    textRoundTrip(style('path', color, { style: 'label', explode: true }), rgb, '.R=100.G=200.B=150');
    textRoundTrip(style('path', codec.string(), { style: 'label' }), 'blue', '.blue');
  });

  it('path matrix: ;id=3,4,5 / ;id=3;id=4;id=5; ;color=R,100,G,200,B,150 / ;R=100;G=200;B=150; a scalar ;id=5', () => {
    textRoundTrip(style('path', ids, { style: 'matrix' }), list, ';id=3,4,5');
    textRoundTrip(style('path', ids, { style: 'matrix', explode: true }), list, ';id=3;id=4;id=5');
    textRoundTrip(style('path', color, { style: 'matrix' }), rgb, ';color=R,100,G,200,B,150');
    textRoundTrip(style('path', color, { style: 'matrix', explode: true }), rgb, ';R=100;G=200;B=150');
    textRoundTrip(style('path', codec.intString(), { style: 'matrix' }), '5', ';id=5');
  });

  it('query form: id=3,4,5 and color=R,100,G,200,B,150 not exploded; id=3&id=4&id=5 and R=100&G=200&B=150 exploded', () => {
    queryRoundTrip(style('query', ids, { explode: false }), list, 'id=3,4,5');
    queryRoundTrip(style('query', color, { explode: false }), rgb, 'color=R,100,G,200,B,150');
    queryRoundTrip(style('query', names), list, 'id=3&id=4&id=5');
    queryRoundTrip(style('query', color), rgb, 'R=100&G=200&B=150');
  });

  it('query spaceDelimited id=3%204%205, pipeDelimited id=3|4|5, deepObject color[R]=100&color[G]=200&color[B]=150', () => {
    queryRoundTrip(style('query', ids, { style: 'spaceDelimited' }), list, 'id=3%204%205');
    queryRoundTrip(style('query', ids, { style: 'pipeDelimited' }), list, 'id=3|4|5');
    queryRoundTrip(style('query', color, { style: 'pipeDelimited' }), rgb, 'color=R|100|G|200|B|150');
    queryRoundTrip(style('query', color, { style: 'deepObject' }), rgb, 'color[R]=100&color[G]=200&color[B]=150');
    // A space written by a form (`+`) delimits too; a key written %5B…%5D is a deepObject key as well.
    expect(readStyledQuery(style('query', ids, { style: 'spaceDelimited' }), rawQueryPairs('id=3+4 5'))?.wire).toEqual(list);
    expect(readStyledQuery(style('query', color, { style: 'deepObject' }), rawQueryPairs('color%5BR%5D=1'))?.wire).toEqual({ R: '1' });
  });

  it('header simple: X-Ids: 3,4,5 (spaces around items ignored); objects R,100,G,200 or exploded R=100,G=200', () => {
    textRoundTrip(style('header', ids), list, '3,4,5');
    expect(readStyledText(style('header', ids), '3, 4 ,\t5')?.wire).toEqual(list);
    textRoundTrip(style('header', color), rgb, 'R,100,G,200,B,150');
    textRoundTrip(style('header', color, { explode: true }), rgb, 'R=100,G=200,B=150');
  });

  it('cookie form, not exploded: ids=3,4,5 (the value 3,4,5), color=R,100,G,200,B,150', () => {
    textRoundTrip(style('cookie', ids, { explode: false }), list, '3,4,5');
    textRoundTrip(style('cookie', color, { explode: false }), rgb, 'R,100,G,200,B,150');
  });
});

describe('parameter styles: percent-encoding (RFC 6570 §3.2.1)', () => {
  it('encodes every character but the unreserved ones, and decodes as a URL parser does', () => {
    expect(percentEncode("a b,c;d=e|f.g~h!'()*é")).toBe('a%20b%2Cc%3Bd%3De%7Cf.g~h%21%27%28%29%2A%C3%A9');
    expect(percentEncode('1.5', true)).toBe('1%2E5');
    expect(() => percentEncode('\uD800')).toThrow(TypeError);
    expect(percentDecode('a%20b+c')).toBe('a b+c');
    expect(percentDecode('a%20b+c', true)).toBe('a b c');
    // A malformed escape stays as it is; a bad UTF-8 sequence is U+FFFD: never a throw.
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%zz%41%')).toBe('%zzA%');
    expect(percentDecode('%C3%28x')).toBe('\uFFFD(x');
  });

  it('keeps a delimiter inside an item: escaped when written, split only where it is literal when read', () => {
    textRoundTrip(style('path', names), ['a,b', 'c d'], 'a%2Cb,c%20d');
    textRoundTrip(style('path', names, { style: 'label', explode: true }), ['1.5', 'x'], '.1%2E5.x');
    textRoundTrip(style('path', names, { style: 'matrix', explode: true }), ['a;b=c', ''], ';id=a%3Bb%3Dc;id');
    queryRoundTrip(style('query', names, { style: 'pipeDelimited' }), ['a|b', 'c'], 'id=a%7Cb|c');
    queryRoundTrip(style('query', names, { explode: false }), ['a,b', 'é'], 'id=a%2Cb,%C3%A9');
    textRoundTrip(style('header', names), ['a,b', 'c'], 'a%2Cb,c');
  });

  it('refuses what a style cannot carry without ambiguity', () => {
    expect(() => writeStyledQuery(style('query', names, { style: 'spaceDelimited' }), ['a b'])).toThrow(/space/);
    const deep = style('query', codec.record(codec.string()), { style: 'deepObject' }, 'f');
    expect(() => writeStyledQuery(deep, { 'a]': '1' })).toThrow(/bracket/);
    expect(() => writeStyledText(style('path', ids), { a: '1' })).toThrow(TypeError);
    // `.` reads as no item at all; an exploded form object's undeclared key is not read back.
    expect(() => writeStyled(style('path', names, { style: 'label' }), [''])).toThrow(/reads as an empty list/);
    expect(() => writeStyled(style('query', names, { style: 'pipeDelimited' }), [''])).toThrow(/reads as an empty list/);
    expect(writeStyled(style('path', names, { style: 'matrix', explode: true }), [''])).toEqual({ text: ';id' });
    expect(() => writeStyled(style('query', color), { ...rgb, X: '1' })).toThrow(/not a declared property/);
    expect(writeStyled(style('query', color), rgb)).toEqual({ pairs: ['R=100', 'G=200', 'B=150'] });
    // What a generator sends: only what reads back as itself.
    expect(readsBack(style('path', names, { style: 'label', explode: true }), ['a.b', ''])).toBe(true);
    expect(readsBack(style('path', names), [''])).toBe(false);
    expect(readsBack(style('query', names, { style: 'spaceDelimited' }), ['a b'])).toBe(false);
    expect(readsBack(style('header', color), {})).toBe(true);
  });
});

describe('parameter styles: hostile input', () => {
  it('reads a huge list in linear time', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => String(i));
    const started = performance.now();
    expect((readStyledText(style('path', ids), many.join(','))?.wire as string[]).length).toBe(100_000);
    expect((readStyledQuery(style('query', ids, { style: 'pipeDelimited' }), rawQueryPairs(`id=${many.join('|')}`))?.wire as string[]).length).toBe(100_000);
    expect((readStyledText(style('header', ids), ' ,'.repeat(50_000))?.wire as string[]).length).toBe(50_001);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps __proto__ and constructor keys as own properties: no prototype is touched', () => {
    const rec = codec.record(codec.string());
    const deep = readStyledQuery(style('query', rec, { style: 'deepObject' }, 'f'), rawQueryPairs('f[__proto__]=x&f[constructor]=y&f[a]=1'))?.wire as Record<string, string>;
    expect(Object.getPrototypeOf(deep)).toBe(Object.prototype);
    expect(Object.keys(deep)).toEqual(['__proto__', 'constructor', 'a']);
    expect(deep['__proto__']).toBe('x');
    const exploded = readStyledText(style('path', rec, { explode: true }, 'f'), '__proto__=polluted,a=1')?.wire as Record<string, string>;
    expect(Object.getPrototypeOf(exploded)).toBe(Object.prototype);
    expect(Object.hasOwn(exploded, '__proto__')).toBe(true);
    const pairs = readStyledText(style('header', rec, {}, 'f'), '__proto__,1')?.wire as Record<string, string>;
    expect(Object.hasOwn(pairs, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['1']).toBeUndefined();
    // An object codec reads its declared keys only.
    expect(codec.object({ a: codec.string() }).decode(exploded)).toEqual({ a: '1' });
  });

  it('refuses malformed text with a DecodeError of constraint style, naming what was expected', () => {
    const deep = style('query', color, { style: 'deepObject' });
    for (const q of ['color[=1', 'color[R=1', 'color[R][G]=1', 'color[R]]=1', 'color[[R]=1']) {
      expect(() => readStyledQuery(deep, rawQueryPairs(q)), q).toThrow(codec.DecodeError);
    }
    const issue = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return (e as codec.DecodeError).issues[0]?.constraint;
      }
      return undefined;
    };
    expect(issue(() => readStyledText(style('path', ids, { style: 'label' }), '3,4'))).toBe('style');
    expect(issue(() => readStyledText(style('path', ids, { style: 'matrix' }), ';x=3'))).toBe('style');
    expect(issue(() => readStyledText(style('path', ids, { style: 'matrix', explode: true }), ';id=3;x=4'))).toBe('style');
    expect(issue(() => readStyledText(style('path', color), 'R,100,G'))).toBe('style');
    expect(issue(() => readStyledText(style('path', color, { explode: true }), 'R=100,G'))).toBe('style');
    expect(issue(() => readStyledQuery(style('query', color, { explode: false }), rawQueryPairs('color=R')))).toBe('style');
  });

  it('reads empty values: an empty list or object is absent, an empty item is an item', () => {
    expect(readStyledText(style('path', ids), '')).toBeUndefined();
    expect(readStyledText(style('path', ids, { style: 'label' }), '.')).toBeUndefined();
    expect(readStyledText(style('path', ids, { style: 'matrix' }), ';id')).toBeUndefined();
    expect(readStyledQuery(style('query', ids, { explode: false }), rawQueryPairs('id='))).toBeUndefined();
    expect(readStyledQuery(style('query', color), rawQueryPairs('x=1'))).toBeUndefined();
    expect(readStyledQuery(style('query', color, { style: 'deepObject' }), rawQueryPairs(''))).toBeUndefined();
    expect(readStyledText(style('path', ids), '3,,4')?.wire).toEqual(['3', '', '4']);
    expect(readStyledText(style('path', codec.string(), { style: 'matrix' }), ';id')?.wire).toBe('');
    // The first of a repeated key wins.
    expect(readStyledQuery(style('query', color, { style: 'deepObject' }), rawQueryPairs('color[R]=1&color[R]=2'))?.wire).toEqual({ R: '1' });
  });
});

describe('parameter styles: what a location admits', () => {
  const refused = (location: ParamLocation, c: codec.Codec<unknown>, options: ParamStyleOptions): string => {
    try {
      resolveParamStyle(location, 'p', c, options);
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('takes the location defaults, and leaves scalars in them and repeated query keys plain', () => {
    expect(resolveParamStyle('query', 'q', codec.string(), undefined)).toBeUndefined();
    expect(resolveParamStyle('path', 'q', codec.intString(), { style: 'simple', explode: true })).toBeUndefined();
    expect(resolveParamStyle('query', 'q', ids, undefined, true)).toBeUndefined();
    expect(resolveParamStyle('header', 'X-Ids', ids, undefined)).toMatchObject({ style: 'simple', explode: false, shape: 'array' });
    expect(resolveParamStyle('query', 'c', color, undefined)).toMatchObject({ style: 'form', explode: true, shape: 'object', keys: ['R', 'G', 'B'] });
    expect(resolveParamStyle('query', 'c', color, { style: 'deepObject' })).toMatchObject({ explode: true });
    // A Standard Schema's shape comes from its JSON Schema.
    expect(resolveParamStyle('path', 'z', codec.fromStandardSchema(z.object({ a: z.number() }), { parameter: true }), { style: 'label' })).toMatchObject({ shape: 'object', keys: ['a'] });
  });

  it('refuses combinations OpenAPI 3.1 does not define, saying what to declare', () => {
    expect(refused('path', ids, { style: 'form' })).toMatch(/not a style of path parameters .*simple, label, matrix/);
    expect(refused('query', ids, { style: 'label' })).toMatch(/not a style of query parameters/);
    expect(refused('header', ids, { style: 'form' })).toMatch(/not a style of header parameters .*simple/);
    expect(refused('cookie', ids, { style: 'simple' })).toMatch(/not a style of cookie parameters .*form/);
    expect(refused('query', ids, { style: 'bogus' as never })).toMatch(/not a style/);
    expect(refused('query', ids, { explode: 'yes' as never })).toMatch(/explode must be true or false/);
    expect(refused('query', codec.string(), { style: 'pipeDelimited' })).toMatch(/single text/);
    expect(refused('query', ids, { style: 'spaceDelimited', explode: true })).toMatch(/not exploded/);
    expect(refused('query', ids, { style: 'deepObject' })).toMatch(/deepObject carries an object/);
    expect(refused('query', color, { style: 'deepObject', explode: false })).toMatch(/only defined exploded/);
    expect(refused('cookie', ids, {})).toMatch(/explode: false/);
    expect(refused('cookie', color, { explode: true })).toMatch(/explode: false/);
    expect(refused('query', codec.record(codec.intString()), {})).toMatch(/deepObject/);
    expect(refused('cookie', ids, { explode: false })).toBe('accepted');
  });

  it('documents style and explode only where they differ from their defaults', () => {
    expect(documentedStyle(undefined)).toEqual({});
    expect(documentedStyle(style('header', ids))).toEqual({});
    expect(documentedStyle(style('query', color))).toEqual({});
    expect(documentedStyle(style('query', ids, { explode: false }))).toEqual({ explode: false });
    expect(documentedStyle(style('query', color, { style: 'deepObject' }))).toEqual({ style: 'deepObject', explode: true });
    expect(documentedStyle(style('path', ids, { style: 'label', explode: true }))).toEqual({ style: 'label', explode: true });
    expect(documentedStyle(style('cookie', ids, { explode: false }))).toEqual({ explode: false });
  });

  it('finds a variable\'s segment in the raw path, counted from the end (under any base path)', () => {
    expect(rawPathSegment('/items/{ids}/parts', '/api/items/a%2Cb,c/parts', 'ids')).toBe('a%2Cb,c');
    expect(rawPathSegment('/items/{ids}', '/items/3', 'ids')).toBe('3');
    expect(rawPathSegment('/items/{ids}', '/items/3', 'other')).toBeUndefined();
    expect(rawQueryPairs('a=1&&b&c=%2C+x&d%5B0%5D=1')).toEqual([['a', '1'], ['b', ''], ['c', '%2C+x'], ['d[0]', '1']]);
  });
});

describe('rest.styled in a route', () => {
  const getItems = rest.route({
    method: 'GET',
    path: '/items/{ids}',
    pathParams: { ids: rest.styled(ids, { style: 'matrix', explode: true }) },
    query: {
      tags: rest.styled(codec.optional(names), { style: 'pipeDelimited' }),
      filter: rest.named('f', rest.styled(codec.optional(color), { style: 'deepObject' })),
    },
    headers: { trace: rest.named('X-Ids', rest.styled(codec.optional(ids))) },
    cookies: { prefs: rest.styled(codec.optional(color), { explode: false }) },
    response: codec.object({ n: codec.int() }),
  });

  it('types the request by the codecs inside', () => {
    const req: rest.RouteRequestInput<undefined, { ids: typeof ids }, {}, {}, {}> = { ids: [1, 2] };
    expect(req.ids).toEqual([1, 2]);
    // @ts-expect-error: label is not a query style (and the declaration throws)
    expect(() => rest.route({ method: 'GET', path: '/x', query: { a: rest.styled(ids, { style: 'label' }) } })).toThrow(rest.RouteDeclarationError);
    // @ts-expect-error: deepObject is not a path style
    expect(() => rest.route({ method: 'GET', path: '/x/{a}', pathParams: { a: rest.styled(color, { style: 'deepObject' }) } })).toThrow(/not a style of path parameters/);
  });

  it('writes a styled path with buildPath, checked by the codec and the style', () => {
    expect(getItems.buildPath({ ids: ['3', '4'] })).toBe('/items/;ids=3;ids=4');
    expect(() => getItems.buildPath({ ids: ['x'] })).toThrow(rest.PathParamError);
    expect(() => getItems.buildPath({ ids: [] })).toThrow(rest.PathParamError);
    expect(() => getItems.buildPath({ ids: '3' })).toThrow(rest.PathParamError);
  });

  it('throws RouteDeclarationError for a combination a location does not admit', () => {
    expect(() => rest.route({ method: 'GET', path: '/x', cookies: { a: rest.styled(ids) } })).toThrow(rest.RouteDeclarationError);
    expect(() => rest.route({ method: 'GET', path: '/x', query: { a: rest.styled(codec.string(), { style: 'spaceDelimited' }) } })).toThrow(/query parameter "a": style spaceDelimited/);
    expect(() => rest.route({ method: 'GET', path: '/x', query: { c: rest.styled(color), R: codec.optional(codec.string()) } })).toThrow(/property "R" is read as a query key/);
    // A list or an object is declared with rest.styled; a list in a query alone is read from repeated keys without it.
    expect(() => rest.route({ method: 'GET', path: '/x', headers: { a: rest.named('X-A', ids) } })).toThrow(/header parameter "X-A": a list is read in a style .*rest.styled\(codec\)/);
    expect(() => rest.route({ method: 'GET', path: '/x/{a}', pathParams: { a: ids } })).toThrow(/a list is read in a style/);
    expect(() => rest.route({ method: 'GET', path: '/x', query: { c: codec.optional(color) } })).toThrow(/an object is read in a style/);
    expect(() => rest.route({ method: 'GET', path: '/x', cookies: { c: z.object({ a: z.string() }) } })).toThrow(/an object is read in a style/);
    expect(() => rest.route({ method: 'GET', path: '/x', query: { tags: codec.optional(ids), z: z.array(z.number()).optional() } })).not.toThrow();
    expect(() => rest.route({ method: 'GET', path: '/x', responseHeaders: { a: rest.styled(ids) as never } })).toThrow(rest.RouteDeclarationError);
    interface In {
      a?: number[];
    }
    const a = (options: rest.ParamStyleOptions<rest.QueryParamStyle>) => rest.newOptionalQueryParam('a', rest.styled(ids, options), (r: In) => r.a, (r, v) => void (r.a = v));
    expect(() => rest.newRoute('GET', '/x', codec.empty<In>(), codec.empty(), a({ style: 'deepObject' }))).toThrow(rest.RouteDeclarationError);
    expect(rest.newRoute('GET', '/x', codec.empty<In>(), codec.empty(), a({ style: 'pipeDelimited' })).clientHandle().requestParams[0]?.style).toMatchObject({ style: 'pipeDelimited' });
    const mw = rest.newMiddleware(rest.declaration('m', codec.empty<In>(), codec.empty<object>()));
    expect(() => mw.withRequestCookie(rest.newOptionalCookieParam('a', rest.styled(ids), (r: In) => r.a, (r, v) => void (r.a = v)))).toThrow(/explode: false/);
    expect(() => rest.newOptionalResponseHeaderParam('a', rest.styled(ids) as never, (r: In) => r.a, () => undefined)).toThrow(/rest.styled is for path, query, header and cookie parameters/);
  });

  it('documents style and explode where they differ from the defaults, with the array or object schema', () => {
    const api = rest.newServer({ title: 't', version: '1' });
    getItems.withHandler(() => ({ n: 0 })).register(api);
    const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { parameters: Record<string, unknown>[] } }> };
    const params = doc.paths['/items/{ids}']?.get.parameters ?? [];
    const byName = (n: string) => params.find((p) => p['name'] === n);
    expect(byName('ids')).toEqual({ name: 'ids', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'array', items: { type: 'integer', format: 'double-int' } } });
    expect(byName('tags')).toMatchObject({ in: 'query', style: 'pipeDelimited', schema: { type: 'array' } });
    expect(byName('tags')).not.toHaveProperty('explode');
    expect(byName('f')).toMatchObject({ in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } });
    expect(byName('X-Ids')).not.toHaveProperty('style');
    expect(byName('X-Ids')).not.toHaveProperty('explode');
    expect(byName('prefs')).toMatchObject({ in: 'cookie', explode: false });
    expect(byName('prefs')).not.toHaveProperty('style');
  });
});
