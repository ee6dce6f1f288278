import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { encodeData, jsonData } from './json-data.js';

/** What JSON makes of a value: the reference. */
const viaJson = (v: unknown): unknown => {
  const t = JSON.stringify(v);
  return t === undefined ? undefined : JSON.parse(t);
};

class Point {
  x = 1;
  #hidden = 2;
  get sum(): number {
    return this.x + this.#hidden;
  }
}

describe('jsonData', () => {
  it('gives what JSON.parse(JSON.stringify(v)) gives', () => {
    const sparse = [1, , 3];
    const values: unknown[] = [
      'a',
      0,
      -0,
      1.5,
      Number.NaN,
      Infinity,
      true,
      null,
      undefined,
      () => 1,
      Symbol('s'),
      new Date('2025-01-02T03:04:05.678Z'),
      new Date(Number.NaN),
      [undefined, () => 1, Symbol('s'), Number.NaN, new Date(0), sparse],
      { a: undefined, b: () => 1, c: Symbol('c'), d: [undefined], e: { f: undefined } },
      { [Symbol('k')]: 1, k: 2 },
      new Map([['k', 1]]),
      new Set([1]),
      new Point(),
      Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }),
      Object.assign(Object.create(null) as object, { own: 3 }),
      { toJSON: (key: string) => ({ key, nested: { toJSON: (k: string) => `inner ${k}` } }) },
      [Object('s'), Object(2), Object(false)],
      new Uint8Array([1, 2]),
      Buffer.from([3]),
      new Error('not enumerable'),
      /re/g,
    ];
    values.forEach((v, i) => expect(jsonData(v, false), `values[${i}]`).toStrictEqual(viaJson(v)));
  });

  it('keeps bigints (formats with native integers write them) and, with keepBytes, Uint8Arrays', () => {
    expect(jsonData({ n: 2n ** 64n }, false)).toStrictEqual({ n: 2n ** 64n });
    const bytes = new Uint8Array([1, 2]);
    const buf = Buffer.from([3]);
    const out = jsonData({ bytes, list: [buf] }, true) as { bytes: unknown; list: unknown[] };
    expect(out.bytes).toBe(bytes);
    expect(out.list[0]).toBe(buf);
  });

  it('returns containers unchanged as they are, copies the others, and never mutates the input', () => {
    const plain = { a: [1, 'x', { b: null }], c: true };
    expect(jsonData(plain, false)).toBe(plain);
    const withDate = { keep: { k: 1 }, at: new Date(0), gone: undefined };
    const out = jsonData(withDate, false) as Record<string, unknown>;
    expect(out).toStrictEqual({ keep: { k: 1 }, at: '1970-01-01T00:00:00.000Z' });
    expect(out['keep']).toBe(withDate.keep);
    expect(withDate.at).toBeInstanceOf(Date);
    expect(Object.keys(withDate)).toEqual(['keep', 'at', 'gone']);
  });

  it('reads each property once and keeps __proto__ as an own key', () => {
    let reads = 0;
    const counted = {
      a: 1,
      get b(): number {
        reads++;
        return 2;
      },
      c: undefined,
    };
    expect(jsonData(counted, false)).toStrictEqual({ a: 1, b: 2 });
    expect(reads).toBe(1);
    const rec = JSON.parse('{"__proto__": {"polluted": true}, "d": 1}') as Record<string, unknown>;
    rec['gone'] = undefined;
    const back = jsonData(rec, false) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__', 'd']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses cycles with a TypeError; a value shared twice is no cycle', () => {
    const loop: unknown[] = [];
    loop.push({ loop });
    expect(() => jsonData(loop, false)).toThrow(new TypeError('the value is circular: it holds itself'));
    const shared = { x: new Date(0) };
    expect(jsonData([shared, { shared }], false)).toStrictEqual([{ x: '1970-01-01T00:00:00.000Z' }, { shared: { x: '1970-01-01T00:00:00.000Z' } }]);
  });
});

describe('encodeData', () => {
  it('encodes through the codec (structure checked, undeclared fields out), then takes the wire value to JSON data', () => {
    const c = codec.object({ at: codec.time(), b: codec.bytes(), meta: codec.any() });
    const value = { at: new Date(0), b: new Uint8Array([1]), meta: { when: new Date(0), gone: undefined }, extra: 1 };
    expect(encodeData(c, value)).toStrictEqual({ at: '1970-01-01T00:00:00.000Z', b: 'AQ==', meta: { when: '1970-01-01T00:00:00.000Z' } });
    expect(encodeData(c, value, { rawBinary: true })).toStrictEqual({ at: '1970-01-01T00:00:00.000Z', b: new Uint8Array([1]), meta: { when: '1970-01-01T00:00:00.000Z' } });
    expect(() => encodeData(c, { ...value, at: 'x' as unknown as Date })).toThrow(codec.EncodeError);
    expect(encodeData(codec.optional(codec.string()), undefined)).toBeUndefined();
  });
});
