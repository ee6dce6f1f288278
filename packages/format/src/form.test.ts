import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { expectEncodeError, expectSameDecodeError, expectSyntaxError, text, thrown, utf8 } from '../test/helpers.js';
import * as format from './index.js';

const signup = codec
  .object({
    name: codec.string().refine(validate.minLength(1)),
    age: codec.int(),
    page: codec.defaulted(codec.intString(), 1),
    ratio: codec.optional(codec.number()),
    subscribe: codec.boolean(),
    admin: codec.optional(codec.boolString()),
    born: codec.optional(codec.date()),
    id: codec.optional(codec.int64()),
    tags: codec.array(codec.string()),
    sizes: codec.optional(codec.array(codec.uint8())),
    plan: codec.optional(codec.untaggedUnion(codec.literal('free'), codec.literal('pro'))),
    userId: codec.optional(codec.string()),
  })
  .withWireNames({ userId: 'user_id' });
const f = format.form(signup);

describe('form', () => {
  it('round-trips through application/x-www-form-urlencoded', () => {
    const value = {
      name: 'Ada Lovelace & Co=1+1 ü',
      age: 36,
      page: 2,
      ratio: 0.5,
      subscribe: false,
      admin: true,
      born: new Date('1815-12-10T00:00:00.000Z'),
      id: 9223372036854775807n,
      tags: ['a', 'b c'],
      sizes: [1, 2],
      plan: 'pro' as const,
      userId: 'u1',
    };
    const bytes = f.marshal(value);
    expect(f.contentType).toBe('application/x-www-form-urlencoded');
    expect(text(bytes)).toBe(
      'name=Ada+Lovelace+%26+Co%3D1%2B1+%C3%BC&age=36&page=2&ratio=0.5&subscribe=false&admin=true&born=1815-12-10' +
        '&id=9223372036854775807&tag=a&tag=b+c&sizes=1&sizes=2&plan=pro&user_id=u1'.replace('tag=a&tag=b+c', 'tags=a&tags=b+c'),
    );
    expect(f.unmarshal(bytes)).toEqual(value);
  });

  it('reads what a browser sends: URLSearchParams, %20, missing optional and defaulted fields', () => {
    const body = new URLSearchParams([
      ['name', 'Ada'],
      ['age', '-7'],
      ['subscribe', 'true'],
      ['tags', 'x'],
    ]).toString();
    expect(f.unmarshal(utf8(body))).toEqual({ name: 'Ada', age: -7, page: 1, subscribe: true, tags: ['x'] });
    // No key for a required array: the empty list (unchecked checkboxes send nothing).
    expect(f.unmarshal(utf8('name=Ada&age=1&subscribe=true'))).toEqual({ name: 'Ada', age: 1, page: 1, subscribe: true, tags: [] });
    expect(text(f.marshal({ name: 'Ada', age: 1, page: 1, subscribe: true, tags: [] }))).toBe('name=Ada&age=1&page=1&subscribe=true');
    expect(f.unmarshal(utf8('name=A%20B&age=1e3&subscribe=false&&page=3&tags='))).toEqual({ name: 'A B', age: 1000, page: 3, subscribe: false, tags: [''] });
  });

  it('reads an empty body as a form without fields', () => {
    const opt = format.form(codec.object({ q: codec.optional(codec.string()) }));
    expect(opt.unmarshal(new Uint8Array(0))).toEqual({});
    expect(opt.marshal({})).toEqual(new Uint8Array(0));
    expect(() => f.unmarshal(new Uint8Array(0))).toThrow('name: is required');
  });

  it('reports malformed escapes and invalid UTF-8 as DecodeError `syntax`', () => {
    expectSyntaxError(() => f.unmarshal(utf8('name=a&age=%zz')), 'application/x-www-form-urlencoded', 'pair 2 has a malformed percent-escape');
    expectSyntaxError(() => f.unmarshal(utf8('name=%FF')), 'application/x-www-form-urlencoded', /pair 1 .* not UTF-8$/);
    expectSyntaxError(() => f.unmarshal(new Uint8Array([0x6e, 0x3d, 0xff])), 'application/x-www-form-urlencoded', 'it is not valid UTF-8');
  });

  it('reports invalid values with the same issues as JSON', () => {
    expectSameDecodeError(
      () => f.unmarshal(utf8('name=&age=1&subscribe=true')),
      () => format.json(signup).unmarshal(utf8('{"name":"","age":1,"subscribe":true,"tags":[]}')),
    );
    expect(() => f.unmarshal(utf8('name=&age=1&subscribe=true&tags=a'))).toThrow('name: must have at least 1 character');
  });

  it('reads numbers and booleans strictly, and reports them at their field', () => {
    const err = thrown(() => f.unmarshal(utf8('name=a&age=%2B1&subscribe=yes&tags=a&sizes=1&sizes=x&page=1.5&user_id=a&user_id=b'))) as codec.DecodeError;
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect(err.issues.map((i) => [i.pointer, i.message])).toEqual([
      ['/age', 'expected integer, got string'],
      ['/page', 'expected an integer'],
      ['/subscribe', 'expected boolean, got string'],
      ['/sizes/1', 'expected integer, got string'],
      ['/user_id', 'expected string, got array'],
    ]);
  });

  it('strips or refuses undeclared keys by the codec, and never touches a prototype', () => {
    const body = utf8('q=1&__proto__=x&constructor=y&extra=1&extra=2');
    const loose = format.form(codec.object({ q: codec.intString() }));
    const out = loose.unmarshal(body);
    expect(out).toEqual({ q: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    const strict = format.form(codec.object({ q: codec.intString() }).strict());
    const err = thrown(() => strict.unmarshal(body)) as codec.DecodeError;
    expect(err.issues.map((i) => [i.pointer, i.constraint, i.value])).toEqual([
      ['/__proto__', 'unknownKey', 'x'],
      ['/constructor', 'unknownKey', 'y'],
      ['/extra', 'unknownKey', ['1', '2']],
    ]);
    const rec = format.form(codec.object(Object.fromEntries([['__proto__', codec.optional(codec.string())]])));
    expect(Object.keys(rec.unmarshal(utf8('__proto__=x')))).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('refuses fields a form cannot carry when it is made', () => {
    expect(() => format.form(codec.object({ a: codec.object({ b: codec.string() }) }))).toThrow(new TypeError(
      'format.form: field "a" (object) cannot be carried by a form: use text codecs (string, intString, boolString, int64, time, date, duration, bytes, literal), numbers, boolean, or arrays of them',
    ));
    expect(() => format.form(codec.object({ a: codec.nullable(codec.string()) }))).toThrow(/field "a" \(nullable\)/);
    expect(() => format.form(codec.object({ a: codec.array(codec.array(codec.string())) }))).toThrow(/field "a" \(array of array\)/);
    expect(() => format.form(codec.object({ a: codec.record(codec.string()) }))).toThrow(TypeError);
    expect(() => format.form(codec.object({ a: codec.untaggedUnion(codec.int(), codec.string()) }))).toThrow(TypeError);
  });

  it('describes the fields by their meaning in OpenAPI', () => {
    const login = format.form(
      codec.object({ user: codec.string(), page: codec.optional(codec.intString()), tags: codec.array(codec.boolString()) }).strict().withDescription('Login'),
    );
    expect(login.bodySchema).toEqual({
      type: 'object',
      properties: { user: { type: 'string' }, page: { type: 'integer', format: 'double-int' }, tags: { type: 'array', items: { type: 'boolean' } } },
      required: ['user'],
      additionalProperties: false,
      description: 'Login',
    });
  });

  it('checks the structure on marshal', () => {
    expectEncodeError(() => f.marshal({ name: 'a', age: 1.5, page: 1, subscribe: true, tags: [] }), /^age: /);
    const any = format.form(codec.object({ a: codec.any() }));
    expect(() => any.marshal({ a: { b: 1 } })).toThrow(new TypeError('format.form: a encodes to object, which a form cannot carry'));
    expect(text(any.marshal({ a: ['x', 1, true] }))).toBe('a=x&a=1&a=true');
  });
});
