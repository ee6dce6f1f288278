import { describe, expect, expectTypeOf, it } from 'vitest';
import * as codec from './index.js';
import * as validate from '../../validate/src/index.js';

const labels = codec.withAdditionalProperties(
  codec.object({ name: codec.string(), runs: codec.defaulted(codec.int(), 1), createdAt: codec.optional(codec.string()) }).withWireNames({ createdAt: 'created_at' }),
  codec.string().refine(validate.maxLength(5)),
);

describe('codec.withAdditionalProperties', () => {
  it('decodes the declared fields by the object and every other key by the value codec', () => {
    expect(labels.decode({ name: 'build', created_at: 'today', os: 'linux', arch: 'arm' })).toEqual({ name: 'build', runs: 1, createdAt: 'today', os: 'linux', arch: 'arm' });
    const v = labels.decode(JSON.parse('{"name":"x","__proto__":"y"}'));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(v, '__proto__')).toBe(true);
  });

  it('reports every issue at its key: declared fields and the others', () => {
    let err: unknown;
    try {
      labels.decode({ runs: 'x', os: 'a-long-name', arch: 3 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.DecodeError).issues.map((i) => [codec.formatPath(i.path), i.constraint])).toEqual([
      ['name', 'required'],
      ['runs', 'type'],
      ['os', 'maxLength'],
      ['arch', 'type'],
    ]);
    expect(() => labels.decode([])).toThrow(/expected object/);
  });

  it('encodes the declared fields by the object and the others by the value codec, every issue at once', () => {
    expect(labels.encode({ name: 'b', runs: 2, createdAt: 'now', os: 'linux' })).toEqual({ name: 'b', runs: 2, created_at: 'now', os: 'linux' });
    let err: unknown;
    try {
      labels.encode({ runs: 2, os: 3 } as never);
    } catch (e) {
      err = e;
    }
    expect((err as codec.DecodeError | codec.EncodeError).issues.map((i) => codec.formatPath(i.path))).toEqual(['name', 'os']);
  });

  it('writes properties beside additionalProperties, and refuses a strict object', () => {
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(labels.withName('Labels'))).toEqual({ $ref: '#/components/schemas/Labels' });
    const def = gen.definitions['Labels'] as codec.JsonSchema;
    expect(def).toMatchObject({ type: 'object', required: ['name'], additionalProperties: { type: 'string', maxLength: 5 } });
    expect(Object.keys(def.properties ?? {})).toEqual(['name', 'runs', 'created_at']);
    expect(def.properties?.['runs']?.default).toBe(1);
    expect(() => codec.withAdditionalProperties(codec.object({ a: codec.string() }).strict(), codec.string())).toThrow(/strict/);
  });

  it('types the other keys', () => {
    type Labels = codec.Infer<typeof labels>;
    expectTypeOf<Labels['os']>().toEqualTypeOf<string | number | undefined>();
    expectTypeOf<Labels['name']>().toEqualTypeOf<string>();
  });
});
