import type * as rest from '@lib/rest';
import { expectTypeOf, test } from 'vitest';
import { createTodo, deleteTodo, getTodo, listTodos, putTodo, todoClient } from './todos.js';

type Todo = { id: string; title: string; done: boolean; tags: string[] };

test('the todo routes infer their request, caller input, response and typed errors', () => {
  type GetReq = typeof getTodo extends rest.Route<infer Req, infer _R, infer _P, infer _I, infer _E> ? Req : never;
  expectTypeOf<GetReq>().toEqualTypeOf<{ id: string; tenantId: string; session?: string | undefined }>();
  const client = todoClient('http://127.0.0.1:1');
  expectTypeOf(client.call(getTodo, { id: 'x', tenantId: 't' })).resolves.toEqualTypeOf<Todo & { etag: string } extends infer T ? { [K in keyof T]: T[K] } : never>();
  expectTypeOf(client.call(listTodos, { tenantId: 't' })).resolves.toEqualTypeOf<{ items: Todo[]; total: number }>();
  expectTypeOf(client.call(deleteTodo, { id: 'x', tenantId: 't' })).resolves.toEqualTypeOf<void>();
  // done and tags have defaults: a caller may leave them out
  void client.call(createTodo, { tenantId: 't', title: 'a' });
  // @ts-expect-error title is required
  void client.call(createTodo, { tenantId: 't' });
  // @ts-expect-error the tenant header is required on every route
  void client.call(listTodos, {});
  // @ts-expect-error limit is a number
  void client.call(listTodos, { tenantId: 't', limit: '10' });
  void (async () => {
    const r = await client.safeCall(getTodo, { id: 'x', tenantId: 't' });
    if (!r.ok && r.status === 404) expectTypeOf(r.error).toEqualTypeOf<rest.ProblemDetails>();
    // @ts-expect-error 409 is not a status getTodo declares
    if (!r.ok && r.status === 409) return;
    const up = await client.safeCall(putTodo, { id: 'x', tenantId: 't', title: 'a' });
    if (up.ok) expectTypeOf(up.status).toEqualTypeOf<200 | 201>();
    const held = await client.call(getTodo, { id: 'x', tenantId: 't' }, { ifNoneMatch: '"e"' });
    if (!(held instanceof Object && 'etag' in held && 'title' in held)) expectTypeOf(held).toEqualTypeOf<rest.NotModified>();
  })();
});
