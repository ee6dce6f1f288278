import * as codec from '@lib/codec';
import { expectTypeOf, test } from 'vitest';
import type { SecurityRequirement } from '@lib/openapi';
import * as rest from '../index.js';

const principal = rest.principalKey<{ userId: string }>('principal');
const plain = rest.contextKey<{ tenant: string }>('tenant');
const me = codec.object({ userId: codec.string() });

test('a route whose every alternative requires credentials reads its principal without undefined', () => {
  rest.route({ method: 'GET', path: '/me', response: me, security: [{ bearerAuth: [] }] }).withHandler((ctx) => {
    expectTypeOf(ctx).toEqualTypeOf<rest.SignedInContext>();
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string }>();
    // Other keys stay optional: only securityFunc's principal is guaranteed.
    expectTypeOf(ctx.get(plain)).toEqualTypeOf<{ tenant: string } | undefined>();
    return { userId: ctx.get(principal).userId };
  });
  rest.route({ method: 'GET', path: '/both', response: me, security: [{ bearerAuth: [] }, { apiKey: [], session: [] }] }).withHandler((ctx) => {
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string }>();
    return ctx.get(principal);
  });
});

test('optional sign-in, a public route and a route without its own security read it as possibly absent', () => {
  rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: codec.string() }, response: me, security: [{ bearerAuth: [] }, {}] }).withHandler((ctx) => {
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string } | undefined>();
    return { userId: ctx.get(principal)?.userId ?? 'anonymous' };
  });
  rest.route({ method: 'GET', path: '/health', response: me, security: [] }).withHandler((ctx) => {
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string } | undefined>();
    return { userId: '' };
  });
  rest.route({ method: 'GET', path: '/global', response: me }).withHandler((ctx) => {
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string } | undefined>();
    return { userId: '' };
  });
  // A list typed wide says nothing of its alternatives.
  const wide: readonly SecurityRequirement[] = [{ bearerAuth: [] }];
  rest.route({ method: 'GET', path: '/wide', response: me, security: wide }).withHandler((ctx) => {
    expectTypeOf(ctx.get(principal)).toEqualTypeOf<{ userId: string } | undefined>();
    return { userId: '' };
  });
});

test('the signed-in context survives the route copies', () => {
  const r = rest.route({ method: 'GET', path: '/me', response: me, security: [{ bearerAuth: [] }] }).withOptions({}).clientMW(rest.bearerScheme(), () => 'token');
  r.withHandler((ctx) => ({ userId: ctx.get(principal).userId }));
});
