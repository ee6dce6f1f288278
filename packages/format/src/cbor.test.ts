import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { decode as cborxDecode, encode as cborxEncode, Encoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import { expectEncodeError, expectSameDecodeError, expectSyntaxError, utf8 } from '../test/helpers.js';
import * as format from './index.js';

/** Bytes from hex text (spaces ignored). */
const hex = (s: string): Uint8Array => new Uint8Array((s.replace(/\s+/g, '').match(/../g) ?? []).map((h) => parseInt(h, 16)));
const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');

const user = codec.object({
  name: codec.string().refine(validate.minLength(1)),
  at: codec.time(),
  id: codec.int64(),
  big: codec.uint64(),
  wide: codec.int(),
  avatar: codec.optional(codec.bytes()),
  score: codec.nullable(codec.number()),
  files: codec.array(codec.taggedUnion('kind', { png: codec.object({ data: codec.bytes() }), url: codec.object({ href: codec.string() }) })),
  meta: codec.record(codec.bytes()),
});
const f = format.cbor(user);

describe('cbor', () => {
  const value = {
    name: 'Ada',
    at: new Date('2025-01-02T03:04:05.000Z'),
    id: -9223372036854775808n,
    big: 18446744073709551615n,
    wide: 2 ** 40,
    avatar: new Uint8Array([0, 1, 255]),
    score: null,
    files: [
      { kind: 'png' as const, data: new Uint8Array([137, 80]) },
      { kind: 'url' as const, href: 'https://example.org/' },
    ],
    meta: { a: new Uint8Array([7]) },
  };

  it('round-trips the whole typed value, bytes as byte strings and 64-bit integers as integers', () => {
    const bytes = f.marshal(value);
    expect(f.contentType).toBe('application/cbor');
    expect(bytes.constructor).toBe(Uint8Array);
    // What any CBOR decoder sees: byte strings, integers, text date-times.
    const plain = cborxDecode(bytes) as Record<string, unknown>;
    expect(plain['at']).toBe('2025-01-02T03:04:05.000Z');
    expect(plain['id']).toBe(-9223372036854775808n);
    expect(plain['big']).toBe(18446744073709551615n);
    expect(plain['wide']).toBe(2n ** 40n);
    expect(plain['avatar']).toEqual(new Uint8Array([0, 1, 255]));
    expect((plain['files'] as Record<string, unknown>[])[0]?.['data']).toEqual(new Uint8Array([137, 80]));
    expect((plain['meta'] as Record<string, unknown>)['a']).toEqual(new Uint8Array([7]));
    expect(f.unmarshal(bytes)).toEqual(value);
  });

  it('writes plain RFC 8949 items: preferred map headers, untagged byte strings, no records', () => {
    const small = format.cbor(codec.object({ a: codec.int(), b: codec.bytes(), c: codec.array(codec.object({ x: codec.boolean() })) }));
    expect(toHex(small.marshal({ a: 1, b: new Uint8Array([9]), c: [{ x: true }, { x: false }] }))).toBe(
      'a3 61 61 01 61 62 41 09 61 63 82 a1 61 78 f5 a1 61 78 f4',
    );
    expect(toHex(format.cbor(codec.number()).marshal(1.5))).toBe('fb 3f f8 00 00 00 00 00 00');
    expect(format.cbor(codec.empty<Record<string, never>>()).marshal({})).toEqual(new Uint8Array(0));
  });

  it('reads items from other encoders: tagged date-times, small integers for int64, bignums, tag 64', () => {
    const any = format.cbor(codec.object({ at: codec.time(), t1: codec.time(), id: codec.int64(), n: codec.uint64(), b: codec.bytes(), w: codec.int() }));
    // {"at": 0("2013-03-21T20:04:00Z"), "t1": 1(1363896240), "id": 42, "n": 2(h'0100000000000000'), "b": 64(h'0102'), "w": 0x1b 00000000 00000005}
    const body = hex(
      'a6 62 6174 c0 74 323031332d30332d32315432303a30343a30305a' +
        ' 62 7431 c1 1a 514b67b0' +
        ' 62 6964 18 2a' +
        ' 61 6e c2 48 0100000000000000' +
        ' 61 62 d8 40 42 0102' +
        ' 61 77 1b 0000000000000005',
    );
    expect(any.unmarshal(body)).toEqual({
      at: new Date('2013-03-21T20:04:00Z'),
      t1: new Date('2013-03-21T20:04:00Z'),
      id: 42n,
      n: 2n ** 56n,
      b: new Uint8Array([1, 2]),
      w: 5,
    });
    // cbor-x's own default encoding (tag 64 on Buffers) reads too.
    expect(format.cbor(codec.object({ b: codec.bytes() })).unmarshal(cborxEncode({ b: new Uint8Array([1]) }))).toEqual({ b: new Uint8Array([1]) });
  });

  it('round-trips any text and reads bodies that are views into larger buffers', () => {
    const strings = format.cbor(codec.array(codec.string()));
    const texts = ['', 'ü', '😀 \u{10FFFF}', 'a'.repeat(70_000), '\u0000\u2028', 'x'.repeat(200)];
    expect(strings.unmarshal(strings.marshal(texts))).toEqual(texts);
    const body = strings.marshal(['a', 'b']);
    const framed = new Uint8Array(body.length + 4);
    framed.set(body, 2);
    expect(strings.unmarshal(framed.subarray(2, 2 + body.length))).toEqual(['a', 'b']);
  });

  it('unmarshals an empty body as undefined', () => {
    expect(format.cbor(codec.optional(codec.string())).unmarshal(new Uint8Array(0))).toBeUndefined();
  });

  it('reports malformed and unsupported items as DecodeError `syntax` naming the offset', () => {
    const any = format.cbor(codec.any());
    expectSyntaxError(() => any.unmarshal(hex('82 01')), 'CBOR', 'body is not valid CBOR: it ends early (offset 1)');
    expectSyntaxError(() => any.unmarshal(hex('01 02')), 'CBOR', 'extra bytes after the value (offset 1)');
    expectSyntaxError(() => any.unmarshal(hex('62 c3 28')), 'CBOR', 'a text string is not valid UTF-8 (offset 1)');
    expectSyntaxError(() => any.unmarshal(hex('a1 01 02')), 'CBOR', 'map keys must be text strings (offset 1)');
    expectSyntaxError(() => any.unmarshal(hex('a2 61 61 01 61 61 02')), 'CBOR', 'duplicate map key "a" (offset 4)');
    expectSyntaxError(() => any.unmarshal(hex('7f 61 61 ff')), 'CBOR', 'indefinite-length strings are not supported');
    expectSyntaxError(() => any.unmarshal(hex('f0')), 'CBOR', 'simple value 16 is not supported');
    expectSyntaxError(() => any.unmarshal(hex('ff')), 'CBOR', 'unexpected break');
    expectSyntaxError(() => any.unmarshal(hex('1c')), 'CBOR', 'reserved additional information 28');
    expectSyntaxError(() => any.unmarshal(hex('c0 63 61 62 63')), 'CBOR', 'tag 0 must hold an RFC 3339 date-time');
    expectSyntaxError(() => any.unmarshal(hex('c1 fb 7ff0000000000000')), 'CBOR', 'a tagged date-time is out of range');
    expectSyntaxError(() => any.unmarshal(hex('c2 49 010000000000000000')), 'CBOR', 'bignum tag 2 is longer than 8 bytes');
    expectSyntaxError(() => any.unmarshal(utf8('{"a":1}')), 'CBOR');
    // Every declared length must fit in the rest of the body: no allocation beyond its size.
    expectSyntaxError(() => any.unmarshal(hex('9b 00000000ffffffff')), 'CBOR', 'it ends early');
    expectSyntaxError(() => any.unmarshal(hex('bb 00000000ffffffff')), 'CBOR', 'it ends early');
    expectSyntaxError(() => any.unmarshal(hex('5a ffffffff 00')), 'CBOR', 'it ends early');
    expectSyntaxError(() => any.unmarshal(new Uint8Array(600).fill(0x81)), 'CBOR', 'it nests more than 512 levels deep');
    expectSyntaxError(() => any.unmarshal(new Uint8Array(100_000).fill(0x9f)), 'CBOR', 'it nests more than 512 levels deep');
  });

  it('refuses cbor-x extensions that build shared, cyclic or class-instance values', () => {
    const any = format.cbor(codec.any());
    // Value sharing (28/29) would make cycles and exponential DAGs; 27 instantiates Error/RegExp.
    expectSyntaxError(() => any.unmarshal(hex('d8 1c 81 d8 1d 00')), 'CBOR', 'tag 28 is not supported');
    expectSyntaxError(() => any.unmarshal(hex('d8 1b 82 65 4572726f72 61 78')), 'CBOR', 'tag 27 is not supported');
    expectSyntaxError(() => any.unmarshal(hex('d9 0102 81 01')), 'CBOR', 'tag 258 is not supported');
    expectSyntaxError(() => any.unmarshal(hex('d9 0103 a0')), 'CBOR', 'tag 259 is not supported');
    expectSyntaxError(() => any.unmarshal(hex('d8 33 84 80 80 80 01')), 'CBOR', 'tag 51 is not supported');
    // cbor-x records and structured clones, as cbor-x writes them.
    const records = new Encoder({ useRecords: true }).encode([{ a: 1 }, { a: 2 }]);
    expectSyntaxError(() => any.unmarshal(records), 'CBOR', /tag \d+ is not supported/);
    const shared = { x: 1 };
    const clone = new Encoder({ structuredClone: true }).encode({ a: shared, b: shared });
    expectSyntaxError(() => any.unmarshal(clone), 'CBOR', /tag \d+ is not supported/);
    expectSyntaxError(() => any.unmarshal(cborxEncode(new Uint16Array([1]))), 'CBOR', /tag \d+ is not supported/);
  });

  it('keeps __proto__ as an own key and never touches a prototype', () => {
    // {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}
    const body = hex('a2 69 5f5f70726f746f5f5f a1 68 706f6c6c75746564 f5 6b 636f6e7374727563746f72 a1 69 70726f746f74797065 a1 68 706f6c6c75746564 f5');
    const rec = format.cbor(codec.record(codec.any())).unmarshal(body);
    expect(Object.getPrototypeOf(rec)).toBe(Object.prototype);
    expect(Object.keys(rec)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(rec, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(format.cbor(codec.object({})).unmarshal(body)).toEqual({});
    expect(() => format.cbor(codec.object({}).strict()).unmarshal(body)).toThrow(/__proto__: is not a known field/);
    // And back: an own __proto__ key is written as a map key.
    const again = format.cbor(codec.record(codec.any())).marshal(rec);
    expect(format.cbor(codec.record(codec.any())).unmarshal(again)).toEqual(rec);
  });

  it('reports invalid values with the same issues as JSON', () => {
    const wire = { ...value, name: '', avatar: undefined, files: [], meta: {}, at: value.at.toISOString(), id: '1', big: '1' };
    const bytes = cborxEncode(wire);
    expectSameDecodeError(() => f.unmarshal(bytes), () => format.json(user).unmarshal(utf8(JSON.stringify(wire))));
    expect(() => f.unmarshal(bytes)).toThrow('name: must have at least 1 character');
    expect(() => format.cbor(user).unmarshal(cborxEncode({ ...wire, name: 'a', files: [{ kind: 'png', data: 'not base64!' }] }))).toThrow(
      'files[0].data: expected standard base64',
    );
  });

  it('writes every bytes() value as a byte string: inside untagged unions too, Node Buffers as plain bytes', () => {
    const either = codec.object({ v: codec.untaggedUnion(codec.bytes(), codec.int()), b: codec.bytes() });
    const g = format.cbor(either);
    const bytes = g.marshal({ v: new Uint8Array([1, 2]), b: Buffer.from([3]) });
    // {"v": h'0102', "b": h'03'}
    expect(toHex(bytes)).toBe('a2 61 76 42 01 02 61 62 41 03');
    expect(g.unmarshal(bytes)).toEqual({ v: new Uint8Array([1, 2]), b: new Uint8Array([3]) });
    // Where the codec does not say what a value is (any()), a Uint8Array is a byte string too.
    expect(toHex(format.cbor(codec.any()).marshal({ raw: new Uint8Array([9]) }))).toBe('a1 63 72 61 77 41 09');
  });

  it('checks the structure on marshal', () => {
    expectEncodeError(() => f.marshal({ ...value, id: 1 as unknown as bigint }), /^id: expected bigint, got number$/);
    expect(f.withContentType('application/vnd.x+cbor').contentType).toBe('application/vnd.x+cbor');
  });
});
