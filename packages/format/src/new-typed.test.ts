import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { expectEncodeError, expectSameDecodeError, expectSyntaxError, text, thrown, utf8 } from '../test/helpers.js';
import * as format from './index.js';

const row = codec.object({ name: codec.string().refine(validate.minLength(1)), age: codec.uint8() });
const rows = codec.array(row);
type Row = codec.Infer<typeof row>;

/** The README's CSV example: `name,age` lines. */
const csv = format.newTyped(
  rows,
  (rs: Row[]) => new TextEncoder().encode(rs.map((r) => `${r.name},${r.age}`).join('\n')),
  (bytes) =>
    new TextDecoder('utf-8', { fatal: true })
      .decode(bytes)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [name, age, ...rest] = line.split(',');
        if (name === undefined || age === undefined || rest.length > 0) throw new SyntaxError(`expected 2 columns: ${line}`);
        return { name, age: Number(age) };
      }),
  'text/csv; charset=utf-8',
);

describe('newTyped', () => {
  it('round-trips through the two functions', () => {
    const value = [
      { name: 'Ada', age: 36 },
      { name: 'Bob', age: 7 },
    ];
    const bytes = csv.marshal(value);
    expect(text(bytes)).toBe('Ada,36\nBob,7');
    expect(csv.unmarshal(bytes)).toEqual(value);
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    expect(csv.bodySchema).toBeUndefined();
    expect(csv.withBodySchema({ type: 'string' }).bodySchema).toEqual({ type: 'string' });
    expect(csv.withBodySchema({ type: 'string' }).unmarshal(bytes)).toEqual(value);
  });

  it('turns what unmarshal throws into DecodeError `syntax` without its text', () => {
    const err = expectSyntaxError(() => csv.unmarshal(utf8('Ada,36,x')), 'text/csv', 'body is not valid text/csv: it could not be parsed');
    expect((err.cause as Error).message).toBe('expected 2 columns: Ada,36,x');
    const leaky = format.newTyped(
      codec.string(),
      (s) => utf8(s),
      () => {
        throw new Error("ENOENT: no such file or directory, open '/etc/app/secret.key'");
      },
      'application/x-thing',
    );
    const e = expectSyntaxError(() => leaky.unmarshal(utf8('x')), 'application/x-thing');
    expect(e.message).not.toContain('secret');
    expectSyntaxError(() => csv.unmarshal(new Uint8Array([0xff])), 'text/csv');
  });

  it('passes a DecodeError thrown by unmarshal through', () => {
    const own = new codec.DecodeError([codec.makeIssue([], 'line 3: expected 2 columns', 'syntax', undefined)]);
    const f = format.newTyped(
      rows,
      () => new Uint8Array(0),
      () => {
        throw own;
      },
      'text/csv',
    );
    expect(thrown(() => f.unmarshal(utf8('')))).toBe(own);
  });

  it('validates what unmarshal returns with the same issues as JSON', () => {
    expectSameDecodeError(() => csv.unmarshal(utf8('Ada,36\n,3')), () => format.json(rows).unmarshal(utf8('[{"name":"Ada","age":36},{"name":"","age":3}]')));
    expect(() => csv.unmarshal(utf8(',1'))).toThrow('[0].name: must have at least 1 character');
    // A value of the wrong structure is reported by its structure (codec.validate encodes first).
    expect(() => csv.unmarshal(utf8('Ada,300\nBob,x'))).toThrow('[0].age: expected an integer from 0 to 255 (uint8), got 300; [1].age: expected a finite integer, got NaN');
  });

  it('checks the structure before marshal and lets marshal errors propagate', () => {
    expectEncodeError(() => csv.marshal([{ name: 'a', age: 1.5 }]), /^\[0\]\.age: /);
    const boom = new RangeError('boom');
    const f = format.newTyped(
      codec.string(),
      () => {
        throw boom;
      },
      (b) => text(b),
      'text/plain',
    );
    expect(thrown(() => f.marshal('x'))).toBe(boom);
    expect(f.unmarshal(utf8('hi'))).toBe('hi');
  });

  it('refuses a content type that is not type/subtype', () => {
    expect(() => format.newTyped(codec.string(), utf8, text, 'csv')).toThrow(TypeError);
    expect(() => format.newTyped(codec.string(), utf8, text, '')).toThrow(TypeError);
  });
});
