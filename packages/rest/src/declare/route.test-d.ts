import * as codec from '@lib/codec';
import { expectTypeOf, test } from 'vitest';
import * as rest from '../index.js';

interface GetReq {
  id: string;
  limit?: number;
}

test('newRoute infers Req and Resp from the codecs, and merge-parameter callbacks from the route', () => {
  const user = codec.object({ id: codec.string(), age: codec.int() });
  const route = rest.newRoute(
    'GET',
    '/users/{id}',
    codec.empty<GetReq>(),
    user,
    rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
      expectTypeOf(r).toEqualTypeOf<GetReq>();
      expectTypeOf(v).toEqualTypeOf<string>();
      r.id = v;
    }),
    rest.newOptionalQueryParam('limit', codec.intString(), (r) => r.limit, (r, v) => {
      expectTypeOf(v).toEqualTypeOf<number>();
      r.limit = v;
    }),
    rest.newRequiredResponseHeaderParam('X-Age', codec.intString(), (r) => r.age, (r, v) => {
      expectTypeOf(r).toEqualTypeOf<{ id: string; age: number }>();
      r.age = v;
    }),
  );
  expectTypeOf(route).toEqualTypeOf<rest.Route<GetReq, { id: string; age: number }, '/users/{id}', GetReq, never>>();
  expectTypeOf(route.path).toEqualTypeOf<'/users/{id}'>();
  const client = rest.newClient();
  expectTypeOf(client.call(route, { id: 'x' })).toEqualTypeOf<Promise<{ id: string; age: number }>>();
  route.withHandler((ctx, req) => {
    expectTypeOf(ctx).toEqualTypeOf<rest.Context>();
    expectTypeOf(req).toEqualTypeOf<GetReq>();
    return { id: req.id, age: 1 };
  });
  // @ts-expect-error the handler must return the response type
  route.withHandler(() => ({ id: 'x' }));
  // @ts-expect-error the request must be a GetReq
  void client.call(route, { nope: 1 });
  // @ts-expect-error a getter for another request type is rejected
  rest.newRoute('GET', '/x/{id}', codec.empty<GetReq>(), user, rest.newPathParam('id', codec.string(), (r: { other: string }) => r.other, () => {}));
});

test('redirect checks the target route\'s path variables', () => {
  const post = rest.newRoute('GET', '/users/{id}/posts/{postId}', codec.empty<object>(), codec.empty<object>());
  expectTypeOf<rest.PathVars<'/users/{id}/posts/{postId}'>>().toEqualTypeOf<'id' | 'postId'>();
  expectTypeOf<rest.PathVars<'/health'>>().toEqualTypeOf<never>();
  expectTypeOf<rest.PathVars<string>>().toEqualTypeOf<string>();
  expectTypeOf(rest.redirect(303, post, { id: 'a', postId: 'b' })).toEqualTypeOf<rest.Redirect>();
  // @ts-expect-error postId is missing
  rest.redirect(303, post, { id: 'a' });
  // @ts-expect-error userId is not a variable of the target
  rest.redirect(303, post, { id: 'a', postId: 'b', userId: 'c' });
  // @ts-expect-error 304 is not a redirect
  rest.redirect(304, post, { id: 'a', postId: 'b' });
});

test('clientMW takes a security scheme: the credential is typed by its codec, the request by the route', () => {
  const num = rest.apiKeyScheme('X-N', 'header').withCodec(codec.intString());
  const r = rest.newRoute('GET', '/x', codec.empty<{ id: string }>(), codec.empty<object>());
  r.clientMW(num, (req) => {
    expectTypeOf(req).toEqualTypeOf<{ id: string }>();
    return 1;
  });
  r.clientMW(rest.bearerScheme(), async () => undefined);
  // @ts-expect-error the credential of this scheme is a number
  r.clientMW(num, () => 'x');
});
