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
  it('validate checks the bytes themselves: no base64 round trip, whatever the size', () => {
    const seen: Uint8Array[] = [];
    const recorded = codec.bytes().refine({ name: 'recorded', test: (v) => (seen.push(v), true), message: () => '' });
    const file = new Uint8Array(5 * 1024 * 1024).fill(7);
    recorded.validate(file);
    codec.object({ file: recorded, note: codec.string() }).validate({ file, note: 'x' });
    // A base64 round trip would hand the constraint a copy.
    expect(seen).toHaveLength(2);
    expect(seen.every((v) => v === file)).toBe(true);
  });
  it('encode(value, { rawBinary: true }) keeps bytes as bytes, anywhere in the value; encode(value) writes base64', () => {
    const file = Uint8Array.of(1, 2, 3);
    const form = codec.object({ file: codec.bytes(), files: codec.array(codec.bytes()), n: codec.int() });
    const raw = form.encode({ file, files: [file], n: 1 }, { rawBinary: true }) as { file: unknown; files: unknown[] };
    expect(raw.file).toBe(file);
    expect(raw.files[0]).toBe(file);
    expect(form.encode({ file, files: [file], n: 1 })).toEqual({ file: 'AQID', files: ['AQID'], n: 1 });
    // The mode ends with the call, even when it throws.
    expect(() => form.encode({ file: 'x' as unknown as Uint8Array, files: [], n: 1 }, { rawBinary: true })).toThrow();
    expect(c.encode(file)).toBe('AQID');
  });
});
