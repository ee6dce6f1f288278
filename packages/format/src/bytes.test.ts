import { describe, expect, it } from 'vitest';
import { collectBytes, concatBytes } from './bytes.js';

describe('concatBytes and collectBytes', () => {
  it('join chunks in order, with or without the size, and return a single chunk as it is', async () => {
    const a = new Uint8Array([1, 2]);
    const b = new Uint8Array([3]);
    expect(concatBytes([a, b])).toEqual(new Uint8Array([1, 2, 3]));
    expect(concatBytes([a, b], 3)).toEqual(new Uint8Array([1, 2, 3]));
    expect(concatBytes([a])).toBe(a);
    expect(concatBytes([])).toEqual(new Uint8Array(0));
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield a;
      yield new Uint8Array(0);
      yield b;
    }
    expect(await collectBytes(chunks())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('collectBytes rejects as its source does', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array([1]);
      throw new RangeError('too large');
    }
    await expect(collectBytes(failing())).rejects.toThrow('too large');
  });
});
