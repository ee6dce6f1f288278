/**
 * A todo service under `/api/v1`: create, get (ETag, 304 when unchanged), upsert (201 or 200),
 * list with filters, PATCH (declared preconditions: 412 on a stale If-Match) and delete, per tenant
 * (`X-Tenant-ID`), behind a session cookie, every error answered as RFC 9457 problem details, and
 * a typed client.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { createHash, randomUUID } from 'node:crypto';

// Codecs: the wire shapes, their checks, and their schemas.
const id = codec.string().refine(validate.uuid);
export const todo = codec
  .object({ id, title: codec.string().refine(validate.minLength(1)), done: codec.defaulted(codec.boolean(), false), tags: codec.defaulted(codec.array(codec.string()), []) })
  .withName('Todo');
const todoInput = todo.omit('id').withName('TodoInput');
const todoPatch = todo.omit('id').partial().withName('TodoPatch');

// Errors the handlers throw, and how they are answered: as problem details (RFC 9457), like
// every other error of the service, typed for the client.
export class TodoNotFound extends Error {}
export class NoSession extends Error {}
const notFound = rest.errorPattern(TodoNotFound, 404, rest.problemDetails, (e) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail: e.message }));
const unauthorized = rest.errorPattern(NoSession, 401, rest.problemDetails, () => ({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'sign in first' }));

// Every todo route reads the tenant header and the session cookie.
const tenant = { tenantId: rest.named('X-Tenant-ID', codec.string().refine(validate.minLength(1))) };
const session = { session: codec.optional(codec.string()) };
const etag = { etag: rest.named('ETag', codec.string()) };

export const signIn = rest.route({
  method: 'POST', path: '/sessions', body: codec.object({ user: codec.string() }),
  responseCookies: { session: rest.responseCookie(codec.string(), { maxAge: 3600, insecure: true }) },
  meta: { operationId: 'signIn', summary: 'Sign in', respStatus: 204 },
});
export const createTodo = rest.route({
  method: 'POST', path: '/todos', headers: tenant, cookies: session, body: todoInput, response: todo,
  errors: [unauthorized], meta: { operationId: 'createTodo', summary: 'Create a todo' },
});
export const getTodo = rest.route({
  method: 'GET', path: '/todos/{id}', pathParams: { id }, headers: tenant, cookies: session, response: todo,
  responseHeaders: etag, errors: [notFound, unauthorized], meta: { operationId: 'getTodo', summary: 'Get a todo' },
});
export const putTodo = rest.route({
  method: 'PUT', path: '/todos/{id}', pathParams: { id }, headers: tenant, cookies: session, body: todoInput, response: todo,
  successes: { 201: todo }, errors: [unauthorized], meta: { operationId: 'putTodo', summary: 'Create or replace a todo' },
});
export const listTodos = rest.route({
  method: 'GET', path: '/todos', headers: tenant, cookies: session,
  query: { done: codec.optional(codec.boolString()), tag: codec.optional(codec.array(codec.string())), limit: codec.defaulted(codec.intString().refine(validate.max(100)), 20) },
  response: codec.object({ items: codec.array(todo), total: codec.int() }), errors: [unauthorized], meta: { operationId: 'listTodos', summary: 'List todos' },
});
export const updateTodo = rest.route({
  method: 'PATCH', path: '/todos/{id}', pathParams: { id }, headers: tenant,
  cookies: session, body: todoPatch, response: todo, responseHeaders: etag, errors: [notFound, unauthorized, rest.preconditionFailed()],
  // The handler checks If-Match itself (rest.checkPreconditions): it never enters the request value.
  meta: { operationId: 'updateTodo', summary: 'Update a todo', preconditions: true },
});
export const deleteTodo = rest.route({
  method: 'DELETE', path: '/todos/{id}', pathParams: { id }, headers: tenant, cookies: session,
  errors: [notFound, unauthorized], meta: { operationId: 'deleteTodo', summary: 'Delete a todo', respStatus: 204 },
});

/** The service over an in-memory store: tenant → id → todo. */
export function buildApi(): rest.Server {
  const api = rest.newServer({ title: 'Todo API', version: '1.0.0' }, rest.withBasePath('/api/v1'), rest.withProblemDetails());
  const sessions = new Set<string>();
  const tenants = new Map<string, Map<string, codec.Infer<typeof todo>>>();
  const store = (req: { tenantId: string; session?: string | undefined }) => {
    if (req.session === undefined || !sessions.has(req.session)) throw new NoSession();
    let todos = tenants.get(req.tenantId);
    if (todos === undefined) tenants.set(req.tenantId, (todos = new Map()));
    return todos;
  };
  const find = (req: { tenantId: string; session?: string | undefined; id: string }) => {
    const t = store(req).get(req.id);
    if (t === undefined) throw new TodoNotFound(`no todo ${req.id}`);
    return t;
  };
  signIn.withHandler((_ctx, req) => {
    const s = `${req.user}.${randomUUID()}`;
    sessions.add(s);
    return { session: s };
  }).register(api);
  createTodo.withHandler((_ctx, { tenantId, session, ...input }) => {
    const t = { id: randomUUID(), ...input };
    store({ tenantId, session }).set(t.id, t);
    return t;
  }).register(api);
  const etagOf = (t: codec.Infer<typeof todo>) => `"${createHash('sha256').update(JSON.stringify(t)).digest('base64url').slice(0, 16)}"`;
  getTodo.withHandler((_ctx, req) => ({ ...find(req), etag: etagOf(find(req)) })).register(api);
  putTodo.withHandler((_ctx, { tenantId, session, id, ...input }, respond) => {
    const created = !store({ tenantId, session }).has(id);
    store({ tenantId, session }).set(id, { id, ...input });
    return created ? respond(201, { id, ...input }) : { id, ...input };
  }).register(api);
  listTodos.withHandler((_ctx, req) => {
    const all = [...store(req).values()].filter((t) => (req.done === undefined || t.done === req.done) && (req.tag ?? []).every((g) => t.tags.includes(g)));
    return { items: all.slice(0, req.limit), total: all.length };
  }).register(api);
  updateTodo.withHandler((ctx, req) => {
    const t = find(req);
    rest.checkPreconditions(ctx, { etag: etagOf(t) });
    const next = { id: t.id, title: req.title ?? t.title, done: req.done ?? t.done, tags: req.tags ?? t.tags };
    store(req).set(t.id, next);
    return { ...next, etag: etagOf(next) };
  }).register(api);
  deleteTodo.withHandler((_ctx, req) => void store(req).delete(find(req).id)).register(api);
  return api;
}

/** Serves the API on `addr` until `signal` aborts; resolves once it listens, with the API's base URL (`…/api/v1`). */
export async function serve(addr: string, signal: AbortSignal): Promise<{ baseURL: string; done: Promise<void> }> {
  const api = buildApi();
  const transport = nodeHttp.newServerTransport({ addr });
  api.attach(transport);
  const done = api.serve({ signal });
  const { host, port } = await transport.listening();
  return { baseURL: `http://${host}:${port}/api/v1`, done };
}

/** A typed client of the service at `baseURL`. */
export function todoClient(baseURL: string): rest.Client {
  const client = rest.newClient();
  client.attach(nodeHttp.newClientTransport({ baseURL }));
  return client;
}
