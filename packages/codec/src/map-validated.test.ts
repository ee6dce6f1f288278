import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

const https = codec.mapValidated(
  codec.string(),
  (s) => {
    const u = new URL(s);
    if (u.protocol !== 'https:') throw new Error('must be an https URL');
    return u;
  },
  (u) => {
    if (u.protocol !== 'https:') throw new Error('must be an https URL');
    return u.href;
  },
);

describe('mapValidated', () => {
  it('turns a throwing decode into an issue', () => {
    expect(https.decode('https://example.com/').href).toBe('https://example.com/');
    expect(() => https.decode('http://example.com/')).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ constraint: 'map', message: 'must be an https URL' })] }));
  });

  it('turns a throwing encode into a DecodeError naming the field', () => {
    const page = codec.object({ links: codec.array(https) });
    const value = { links: [new URL('https://a.example/'), new URL('http://b.example/')] };
    expect(() => page.encode(value)).toThrow(expect.objectContaining({ name: 'DecodeError', issues: [expect.objectContaining({ pointer: '/links/1', constraint: 'map' })] }));
    expect(() => page.validate(value)).toThrow(codec.DecodeError);
    expect(page.schema.properties?.links).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('map keeps its total encode', () => {
    const n = codec.map(codec.intString(), (x) => BigInt(x), (b) => Number(b));
    expect(n.decode('12')).toBe(12n);
    expect(n.encode(12n)).toBe('12');
    expect(n.schema).toEqual(codec.intString().schema);
  });
});

describe('newValue and must', () => {
  const user = codec.object({ name: codec.string(), age: codec.defaulted(codec.uint8(), 18) });

  it('newValue checks and normalises a value', () => {
    const extra = { name: 'a', age: 30, extra: true } as { name: string; age: number };
    expect(codec.newValue(user, extra)).toEqual({ name: 'a', age: 30 });
    expect(() => codec.newValue(user, { name: 'a', age: 300 })).toThrow(codec.DecodeError);
  });

  it('must throws a MustError (a TypeError) caused by the DecodeError', () => {
    expect(codec.must(user, { name: 'a', age: 1 })).toEqual({ name: 'a', age: 1 });
    let err: unknown;
    try {
      codec.must(user, { name: 'a', age: -1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(codec.MustError);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as codec.MustError).cause).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.MustError).issues[0]?.pointer).toBe('/age');
  });
});
