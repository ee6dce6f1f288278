import { describe, expect, expectTypeOf, it } from 'vitest';
import * as codec from './index.js';

const user = codec
  .object({
    id: codec.string(),
    name: codec.string(),
    age: codec.optional(codec.int()),
    role: codec.defaulted(codec.string(), 'member'),
  })
  .withWireNames({ name: 'full_name' })
  .strict()
  .withName('User');

describe('object helpers', () => {
  it('partial: every field may be absent, no default is applied, wire names and strictness stay', () => {
    const patch = user.omit('id').partial();
    expect(patch.decode({})).toEqual({});
    expect(patch.decode({ full_name: 'Ada' })).toEqual({ name: 'Ada' });
    expect(() => patch.decode({ id: 'x' })).toThrow(/id: is not a known field/);
    expect(patch.schema).toEqual({
      type: 'object',
      properties: { full_name: { type: 'string' }, age: expect.objectContaining({ type: 'integer' }), role: expect.objectContaining({ type: 'string' }) },
      additionalProperties: false,
    });
    expect(patch.meta.name).toBeUndefined();
    // A partial update assumes nothing for an absent field: no `default` in the schema.
    expect(patch.schema.properties?.role).toEqual({ type: 'string' });
    const described = codec.object({ done: codec.defaulted(codec.boolean(), false).withDescription('Done yet') }).partial();
    expect(described.schema).toEqual({ type: 'object', properties: { done: { type: 'boolean', description: 'Done yet' } } });
    expect(described.decode({})).toEqual({});
    expectTypeOf<codec.Infer<typeof patch>>().toEqualTypeOf<{ name?: string | undefined; age?: number | undefined; role?: string | undefined }>();
  });

  it('pick and omit keep exactly the named fields', () => {
    const ref = user.pick('id', 'name');
    expect(ref.decode({ id: '1', full_name: 'Ada' })).toEqual({ id: '1', name: 'Ada' });
    expect(Object.keys(ref.schema.properties ?? {})).toEqual(['id', 'full_name']);
    expect(ref.schema.required).toEqual(['id', 'full_name']);
    expectTypeOf<codec.Infer<typeof ref>>().toEqualTypeOf<{ id: string; name: string }>();
    const noId = user.omit('id');
    expect(Object.keys(noId.schema.properties ?? {})).toEqual(['full_name', 'age', 'role']);
    expectTypeOf<codec.Infer<typeof noId>>().toEqualTypeOf<{ name: string; role: string; age?: number | undefined }>();
    // @ts-expect-error not a field
    user.pick('nope');
  });

  it('extend adds and replaces fields; merge brings the other object’s wire names', () => {
    const withEmail = user.extend({ email: codec.string(), name: codec.int() });
    expect(withEmail.decode({ id: '1', name: 5, email: 'a@b' })).toEqual({ id: '1', name: 5, email: 'a@b', role: 'member' });
    expectTypeOf<codec.Infer<typeof withEmail>>().toEqualTypeOf<{ id: string; name: number; role: string; email: string; age?: number | undefined }>();
    const audit = codec.object({ createdAt: codec.string() }).withWireNames({ createdAt: 'created_at' });
    const merged = user.pick('id').merge(audit);
    expect(merged.decode({ id: '1', created_at: 'now' })).toEqual({ id: '1', createdAt: 'now' });
    expect(merged.encode({ id: '1', createdAt: 'now' })).toEqual({ id: '1', created_at: 'now' });
  });

  it('derived codecs render inline, and as components only when named', () => {
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    expect(gen.schema(user.partial())).toHaveProperty('type', 'object');
    expect(gen.schema(user.partial().withName('UserPatch'))).toEqual({ $ref: '#/components/schemas/UserPatch' });
  });
});
