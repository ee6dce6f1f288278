import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { CodecFormat, TextFormat } from './codec-format.js';

/** A text format of `key=value` lines, for the skeleton's own behaviour. */
class LinesFormat<T> extends TextFormat<T> {
  protected readonly syntax = 'lines';
  constructor(codec: codec.Codec<T>, contentType = 'text/x-lines') {
    super(codec, contentType);
  }
  protected stringify(data: unknown): string {
    return Object.entries(data as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('\n');
  }
  protected parse(text: string): unknown {
    if (text === '') return undefined;
    const out: Record<string, unknown> = {};
    for (const line of text.split('\n')) {
      const eq = line.indexOf('=');
      if (eq === -1) throw new SyntaxError(`no "=" in ${JSON.stringify(line)}\n  excerpt`);
      const v = line.slice(eq + 1);
      out[line.slice(0, eq)] = /^\d+$/.test(v) ? BigInt(v) : v;
    }
    return out;
  }
  protected reasonOf(err: unknown): string {
    return err instanceof SyntaxError ? (err.message.split('\n')[0] as string) : 'it could not be parsed';
  }
}

/** A binary format of one byte, for `CodecFormat` without text. */
class ByteFormat<T> extends CodecFormat<T> {
  constructor(codec: codec.Codec<T>, contentType = 'application/x-byte') {
    super(codec, contentType);
  }
  marshal(value: T): Uint8Array {
    const data = this.dataOf(value);
    return data === undefined ? new Uint8Array(0) : new Uint8Array([Number(data)]);
  }
  protected wireOf(bytes: Uint8Array): unknown {
    return bytes.length === 0 ? undefined : bytes[0];
  }
}

const item = codec.object({ id: codec.int64(), name: codec.string() });
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('TextFormat', () => {
  it('writes the data as UTF-8 text, and no data as an empty body', () => {
    const f = new LinesFormat(item);
    expect(f.marshalText({ id: 42n, name: 'é' })).toBe('id=42\nname=é');
    expect(new TextDecoder().decode(f.marshal({ id: 42n, name: 'é' }))).toBe('id=42\nname=é');
    expect(new LinesFormat(codec.optional(item)).marshalText(undefined)).toBe('');
  });

  it('decodes through the codec, integers read where the codec has int64()', () => {
    expect(new LinesFormat(item).unmarshal(encode('id=42\nname=x'))).toEqual({ id: 42n, name: 'x' });
    expect(() => new LinesFormat(item).unmarshal(encode('id=42\nname=7'))).toThrow(expect.objectContaining({ name: 'DecodeError', issues: [expect.objectContaining({ path: ['name'] })] }));
  });

  it('refuses invalid UTF-8 and what the parser refuses with one syntax issue, the parser’s error as the cause', () => {
    const f = new LinesFormat(item);
    expect(() => f.unmarshal(new Uint8Array([0xff]))).toThrow('body is not valid lines: it is not valid UTF-8');
    let caught: unknown;
    try {
      f.unmarshal(encode('id'));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(codec.DecodeError);
    const e = caught as codec.DecodeError;
    expect(e.issues).toEqual([expect.objectContaining({ path: [], constraint: 'syntax', message: 'body is not valid lines: no "=" in "id"' })]);
    expect(e.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('CodecFormat', () => {
  it('makes copies of the format’s own class: another media type, or another codec under the same one', () => {
    const f = new LinesFormat(item).withContentType('text/x-lines+v2');
    expect(f).toBeInstanceOf(LinesFormat);
    expect([f.contentType, f.codec]).toEqual(['text/x-lines+v2', item]);
    const other = codec.object({ name: codec.string() });
    const g = f.withCodec(other);
    expect(g).toBeInstanceOf(LinesFormat);
    expect([g.contentType, g.codec]).toEqual(['text/x-lines+v2', other]);
    expect(new ByteFormat(codec.int()).withCodec(codec.int64())).toBeInstanceOf(ByteFormat);
  });

  it('reads bytes through wireOf, rewrites integers for int64(), and decodes', () => {
    expect(new ByteFormat(codec.int64()).unmarshal(new Uint8Array([7]))).toBe(7n);
    expect(new ByteFormat(codec.optional(codec.int())).unmarshal(new Uint8Array(0))).toBeUndefined();
    expect(new ByteFormat(codec.int()).marshal(9)).toEqual(new Uint8Array([9]));
  });
});
