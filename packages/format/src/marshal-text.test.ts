import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { TRICKY } from '../test/helpers.js';
import * as format from './index.js';

const doc = codec.object({ title: codec.string(), n: codec.int(), tags: codec.array(codec.string()) });
const strings = [...TRICKY, '', 'é ü 中文 😀', '\ud800 lone', '\udfff', '"quotes" \\ and </script>'];
const formats: readonly (readonly [string, format.Format<{ title: string; n: number; tags: string[] }>])[] = [
  ['json', format.json(doc)],
  ['yaml', format.yaml(doc)],
  ['toml', format.toml(doc)],
  ['html', format.html(doc, (v) => `<h1>${v.title}</h1><p>${v.tags.join(', ')}</p>`)],
];

describe('marshalText', () => {
  for (const [name, f] of formats) {
    it(`${name}: marshal is exactly the UTF-8 of marshalText, lone surrogates included`, () => {
      expect(f.marshalText).toBeTypeOf('function');
      for (const s of strings) {
        const value = { title: s, n: s.length, tags: [s, 'x'] };
        const text = (f.marshalText as (v: typeof value) => string)(value);
        expect(typeof text).toBe('string');
        // What a server sends for the string (Node writes strings as UTF-8, U+FFFD for lone surrogates).
        expect(Buffer.from(text, 'utf8')).toEqual(Buffer.from(f.marshal(value)));
      }
    });
  }

  it('throws what marshal throws', () => {
    for (const [, f] of formats) {
      const bad = { title: 1, n: 1.5, tags: [] } as never;
      expect(() => f.marshal(bad)).toThrow(codec.EncodeError);
      expect(() => (f.marshalText as (v: never) => string)(bad)).toThrow(codec.EncodeError);
    }
    expect(() => format.toml(codec.nullable(codec.string())).marshalText?.(null)).toThrow(TypeError);
  });

  it('is absent where the bytes are not text', () => {
    const cbor: format.Format<{ title: string; n: number; tags: string[] }> = format.cbor(doc);
    const binary: format.Format<Uint8Array> = format.binary(codec.bytes());
    expect([cbor.marshalText, binary.marshalText]).toEqual([undefined, undefined]);
  });
});
