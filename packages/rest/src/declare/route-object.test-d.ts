import * as codec from '@lib/codec';
import { expectTypeOf, test } from 'vitest';
import * as rest from '../index.js';

class TodoNotFound extends Error {}
class Forbidden extends Error {}
const todo = codec.object({ id: codec.string(), title: codec.string(), done: codec.defaulted(codec.boolean(), false) });
type Todo = codec.Infer<typeof todo>;
const notFound = codec.object({ code: codec.literal('not_found'), id: codec.string() });
const forbidden = codec.object({ code: codec.literal('forbidden') });

test('rest.route infers the request from the parameters and the response from its codec and fields', () => {
  const getTodo = rest.route({
    method: 'GET',
    path: '/todos/{id}',
    pathParams: { id: codec.string() },
    query: { limit: codec.optional(codec.intString()), tag: codec.optional(codec.array(codec.string())), page: codec.defaulted(codec.intString(), 1) },
    headers: { tenantId: rest.named('X-Tenant-ID', codec.string()).withDescription('the tenant') },
    cookies: { session: codec.string() },
    response: todo,
    responseHeaders: { etag: rest.named('ETag', codec.string()) },
    responseCookies: { session: rest.responseCookie(codec.optional(codec.string()), { maxAge: 3600 }) },
    errors: [rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })).withDescription('no such todo'), rest.errorStatus(Forbidden, 403)],
    meta: { operationId: 'getTodo' },
  });
  type Req = { id: string; tenantId: string; session: string; page: number; limit?: number | undefined; tag?: string[] | undefined };
  getTodo.withHandler((_ctx, req) => {
    expectTypeOf(req).toEqualTypeOf<Req>();
    return { id: req.id, title: 't', done: false, etag: '"1"' };
  });
  expectTypeOf(getTodo.path).toEqualTypeOf<'/todos/{id}'>();
  const client = rest.newClient();
  // defaulted fields may be left out by callers
  expectTypeOf(client.call(getTodo, { id: 'a', tenantId: 't', session: 's' })).toEqualTypeOf<Promise<Todo & { etag: string; session?: string | undefined } extends infer T ? { [K in keyof T]: T[K] } : never>>();
  // @ts-expect-error tenantId is required
  void client.call(getTodo, { id: 'a', session: 's' });
  // @ts-expect-error the handler must return the ETag field
  getTodo.withHandler(() => ({ id: 'a', title: 't', done: false }));
});

test('client.safeCall narrows the error body by the declared status', async () => {
  const r = rest.route({
    method: 'DELETE',
    path: '/todos/{id}',
    pathParams: { id: codec.string() },
    errors: [rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })), rest.errorPattern(Forbidden, 403, forbidden, () => ({ code: 'forbidden' as const }))],
  });
  const result = await rest.newClient().safeCall(r, { id: 'x' });
  if (result.ok) {
    expectTypeOf(result.value).toEqualTypeOf<void>();
    expectTypeOf(result.status).toEqualTypeOf<200>();
  } else if (result.status === 404) {
    expectTypeOf(result.error).toEqualTypeOf<{ code: 'not_found'; id: string }>();
  } else if (result.status === 403) {
    expectTypeOf(result.error).toEqualTypeOf<{ code: 'forbidden' }>();
  } else {
    expectTypeOf(result.status).toEqualTypeOf<undefined>();
    expectTypeOf(result.error).toEqualTypeOf<Error>();
  }
  // newRoute types its error patterns the same way, and still types parameter callbacks by the request.
  type ByID = { id: string };
  const byID = rest.newRoute(
    'GET',
    '/todos/{id}',
    codec.empty<ByID>(),
    todo,
    rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
      expectTypeOf(r).toEqualTypeOf<ByID>();
      r.id = v;
    }),
    rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })),
    rest.errorStatus(TypeError, 400),
    rest.errorPattern(Forbidden, 403, forbidden, () => ({ code: 'forbidden' as const })),
  );
  const n = await rest.newClient().safeCall(byID, { id: 'x' });
  if (n.ok) expectTypeOf(n.value).toEqualTypeOf<Todo>();
  else if (n.status === 404) expectTypeOf(n.error).toEqualTypeOf<{ code: 'not_found'; id: string }>();
  else if (n.status !== undefined) {
    expectTypeOf(n.status).toEqualTypeOf<403>();
    expectTypeOf(n.error).toEqualTypeOf<{ code: 'forbidden' }>();
  } else expectTypeOf(n.error).toEqualTypeOf<Error>();
  // newSSERoute types them too: an error before the stream opens is a typed response.
  const feed = rest.newSSERoute('GET', '/todos/{id}/events', codec.empty<ByID>(), todo,
    rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
      r.id = v;
    }),
    rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })),
  );
  const f = await rest.newClient().safeCall(feed, { id: 'x' });
  if (!f.ok && f.status === 404) expectTypeOf(f.error).toEqualTypeOf<{ code: 'not_found'; id: string }>();
  // Without error patterns a newRoute has no typed error body: only the undecoded failure remains.
  const plain = rest.newRoute('GET', '/x', codec.empty<object>(), codec.string());
  const o = await rest.newClient().safeCall(plain, {});
  if (!o.ok) {
    expectTypeOf(o.status).toEqualTypeOf<undefined>();
    expectTypeOf(o.error).toEqualTypeOf<Error>();
  }
  // An error pattern past the sixteenth option is refused, not silently untyped.
  const meta = rest.routeMeta({ summary: 's' });
  rest.newRoute(
    'GET',
    '/y',
    codec.empty<object>(),
    codec.string(),
    meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta, meta,
    // @ts-expect-error declare error patterns among the first sixteen options
    rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })),
  );
});

test('bodies: an object body merges with the parameters, any other body is the body field', () => {
  const input = todo.omit('id');
  const create = rest.route({
    method: 'POST',
    path: '/todos',
    headers: { tenantId: rest.named('X-Tenant-ID', codec.string()) },
    body: input,
    response: todo,
  });
  create.withHandler((_ctx, req) => {
    expectTypeOf(req).toEqualTypeOf<{ title: string; done: boolean; tenantId: string }>();
    return { id: '1', ...req };
  });
  void rest.newClient().call(create, { title: 'a', tenantId: 't' });
  const upload = rest.route({ method: 'PUT', path: '/files/{name}', pathParams: { name: codec.string() }, body: codec.bytes(), response: codec.array(codec.string()) });
  upload.withHandler((_ctx, req) => {
    expectTypeOf(req).toEqualTypeOf<{ body: Uint8Array; name: string }>();
    return [req.name];
  });
  const list = rest.route({ method: 'GET', path: '/files', response: codec.array(codec.string()), responseHeaders: { total: rest.named('X-Total', codec.intString()) } });
  list.withHandler(() => ({ body: ['a'], total: 1 }));
  const plain = rest.route({ method: 'GET', path: '/names', response: codec.array(codec.string()) });
  plain.withHandler(() => ['a']);
});

test('mistakes that must not compile', () => {
  // @ts-expect-error the template's variable id has no path parameter
  rest.route({ method: 'GET', path: '/todos/{id}', response: todo });
  // @ts-expect-error todoId is not a variable of the template
  rest.route({ method: 'GET', path: '/todos/{id}', pathParams: { id: codec.string(), todoId: codec.string() } });
  // @ts-expect-error the template has no variable at all
  rest.route({ method: 'GET', path: '/todos', pathParams: { id: codec.string() } });
  // @ts-expect-error router syntax is refused: write {id}
  rest.route({ method: 'GET', path: '/todos/:id' });
  // @ts-expect-error a GET request carries no body
  rest.route({ method: 'GET', path: '/todos', body: todo });
  const upsert = rest.route({ method: 'PUT', path: '/todos', body: todo, response: todo, successes: { 201: todo, 202: null } });
  upsert.withHandler((_ctx, req, respond) => (req.id === '' ? respond(201, req) : req.id === 'later' ? respond(202) : req));
  // @ts-expect-error 204 is not a success response of this route
  upsert.withHandler((_ctx, req, respond) => respond(204, req));
  // @ts-expect-error the 201 value must be a Todo
  upsert.withHandler((_ctx, _req, respond) => respond(201, { id: 'x' }));
  // @ts-expect-error TodoNotFound has none of the body's fields: without a map function it would be a 500
  rest.errorPattern(TodoNotFound, 404, notFound);
  class Teapot extends Error {
    readonly code = 'not_found' as const;
    readonly id = 'pot';
  }
  // An error that is its own body needs no map function.
  rest.errorPattern(Teapot, 418, notFound);
  // @ts-expect-error a format of another type than the body
  rest.route({ method: 'POST', path: '/todos', body: todo, requestFormats: [rest.route] });
});

test('inference survives chained with* calls on entries and patterns', async () => {
  const r = rest.route({
    method: 'GET',
    path: '/t',
    query: { q: rest.named('search', codec.optional(codec.string())).withDescription('the search') },
    errors: [rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' })).withAction(rest.ErrorRespond).withDescription('missing')],
  });
  r.withHandler((_ctx, req) => {
    expectTypeOf(req).toEqualTypeOf<{ q?: string | undefined }>();
  });
  const res = await rest.newClient().safeCall(r.withOptions({}).withHandler(() => undefined), {});
  if (!res.ok && res.status === 404) expectTypeOf(res.error).toEqualTypeOf<{ code: 'not_found'; id: string }>();
});

test('an error pattern\'s headers are typed on safeCall\'s result for its status only', async () => {
  class RateLimited extends Error {
    constructor(readonly seconds: number) {
      super('slow down');
    }
  }
  const limited = rest
    .errorPattern(RateLimited, 429, forbidden, () => ({ code: 'forbidden' as const }))
    .withHeaders({ retryAfter: rest.named('Retry-After', codec.intString()), policy: codec.optional(codec.string()) }, (e) => ({ retryAfter: e.seconds }));
  // @ts-expect-error a required header must be given
  limited.withHeaders({ retryAfter: codec.intString() }, () => ({}));
  // @ts-expect-error a header of the wrong type
  limited.withHeaders({ retryAfter: codec.intString() }, () => ({ retryAfter: 'soon' }));
  const r = rest.route({ method: 'GET', path: '/todos/{id}', pathParams: { id: codec.string() }, response: todo, errors: [limited, rest.errorPattern(TodoNotFound, 404, notFound, () => ({ code: 'not_found' as const, id: 'x' }))] });
  const result = await rest.newClient().safeCall(r, { id: 'x' });
  if (!result.ok && result.status === 429) {
    expectTypeOf(result.headers).toEqualTypeOf<{ retryAfter: number; policy?: string | undefined }>();
    expectTypeOf(result.error).toEqualTypeOf<{ code: 'forbidden' }>();
  }
  if (!result.ok && result.status === 404) {
    // @ts-expect-error no headers declared for 404
    void result.headers;
  }
});
