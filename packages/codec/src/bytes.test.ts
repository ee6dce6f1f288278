import { describe, expect, it } from 'vitest';
import * as codec from './index.js';

describe('bytes', () => {
  const c = codec.bytes();
  it('round-trips megabytes through base64 (a scan, not a backtracking pattern)', () => {
    const big = new Uint8Array(4 * 1024 * 1024).map((_, i) => i % 251);
    const wire = c.encode(big) as string;
    const back = c.decode(wire);
    expect(back.byteLength).toBe(big.byteLength);
    expect(back.every((b, i) => b === big[i])).toBe(true);
    expect(() => c.validate(big)).not.toThrow();
  });
  it('refuses what is not standard padded base64', () => {
    for (const bad of ['abc', 'ab=c', 'a===', '@@@@', 'abcd=', 'ab-_']) expect(() => c.decode(bad), bad).toThrow(/expected standard base64/);
    for (const good of ['', 'YQ==', 'YWI=', 'YWJj']) expect(() => c.decode(good), good).not.toThrow();
    expect(c.schema.pattern).toBe('^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$');
  });
});
