import { describe, expect, it } from 'vitest';
import { blob, DecodeError, EncodeError } from './index.js';

describe('codec.blob', () => {
  it('accepts Blobs and Files, checking their size', () => {
    const c = blob({ maxBytes: 4, minBytes: 1 });
    const b = new Blob(['abc']);
    expect(c.decode(b)).toBe(b);
    const f = new File(['ab'], 'a.txt', { type: 'text/plain' });
    expect(c.decode(f)).toBe(f);
    for (const [v, constraint] of [[new Blob(['abcde']), 'maxBytes'], [new Blob([]), 'minBytes'], ['abc', 'type'], [new Uint8Array(2), 'type']] as const) {
      const err = (() => {
        try {
          c.decode(v);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as DecodeError).issues[0]?.constraint).toBe(constraint);
    }
  });

  it('encodes a Blob as itself and refuses anything else', () => {
    const b = new Blob(['x']);
    expect(blob().encode(b)).toBe(b);
    expect(() => blob().encode('x' as unknown as Blob)).toThrow(EncodeError);
  });

  it('describes a binary property', () => {
    expect(blob().schema).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
  });
});
