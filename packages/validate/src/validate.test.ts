import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as validate from './index.js';

describe('constraints', () => {
  it('check values and name themselves in issues', () => {
    const name = codec.string().refine(validate.minLength(1), validate.maxLength(3));
    expect(name.decode('abc')).toBe('abc');
    expect(() => name.decode('')).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ constraint: 'minLength' })] }));
    expect(() => name.decode('abcd')).toThrow(/must have at most 3 characters/);
    expect(() => codec.string().refine(validate.uuid).decode('nope')).toThrow(/must be a UUID/);
    expect(codec.string().refine(validate.uuid).decode('0191d0c4-8f5e-7a8b-9c2d-3e4f5a6b7c8d')).toBeTypeOf('string');
    expect(() => codec.string().refine(validate.email).decode('a@')).toThrow(/e-mail/);
    expect(() => codec.int().refine(validate.min(0)).decode(-1)).toThrow(/at least 0/);
    expect(() => codec.string().refine(validate.oneOf('a', 'b')).decode('c')).toThrow(/one of "a", "b"/);
    expect(() => codec.string().refine(validate.pattern(/^x/)).decode('y')).toThrow(/must match/);
    expect(() => codec.array(codec.int()).refine(validate.nonEmpty).decode([])).toThrow(/must not be empty/);
  });

  it('reflect into JSON Schema keywords', () => {
    expect(codec.string().refine(validate.minLength(2), validate.maxLength(5), validate.pattern(/^a/)).schema).toEqual({
      type: 'string',
      minLength: 2,
      maxLength: 5,
      pattern: '^a',
    });
    expect(codec.string().refine(validate.email).schema).toEqual({ type: 'string', format: 'email' });
    expect(codec.string().refine(validate.uuid).schema).toEqual({ type: 'string', format: 'uuid' });
    expect(codec.int().refine(validate.min(0), validate.max(9)).schema).toEqual({ type: 'integer', minimum: 0, maximum: 9 });
    expect(codec.string().refine(validate.oneOf('a', 'b')).schema).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(codec.array(codec.int()).refine(validate.nonEmpty).schema).toEqual({ type: 'array', items: { type: 'integer' }, minItems: 1 });
    expect(codec.string().refine(validate.nonEmpty).schema).toEqual({ type: 'string', minLength: 1 });
  });

  it('httpPath accepts absolute paths only', () => {
    const ok = ['/', '/users', '/users/x', '/a/b-c/%20/~d'];
    const bad = ['', 'users', '/users/', '//a', '/a?b', '/a#b', '/a b'];
    for (const p of ok) expect(validate.httpPath.test(p), p).toBe(true);
    for (const p of bad) expect(validate.httpPath.test(p), p).toBe(false);
  });
});
