import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { z } from 'zod';

/** The routes the HTTP tests serve: a small users API. */
export class NotFoundError extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`user ${id} not found`);
    this.name = 'NotFoundError';
    this.id = id;
  }
}
export class ConflictError extends Error {
  constructor(readonly email: string) {
    super(`email ${email} is taken`);
    this.name = 'ConflictError';
  }
}
export class TeapotError extends Error {}

export const user = codec
  .object({
    id: codec.string().refine(validate.uuid),
    name: codec.string().refine(validate.minLength(1)),
    email: codec.string().refine(validate.email),
  })
  .withName('User');
export type User = codec.Infer<typeof user>;

export const notFound = codec.object({ error: codec.string(), id: codec.string() }).withName('NotFound');

export interface CreateReq {
  name: string;
  email: string;
}
export interface GetReq {
  id: string;
}
export interface ListReq {
  limit?: number;
  requestId: string;
}
export interface ListResp {
  items: User[];
  total: number;
  requestId?: string | undefined;
}

export const createUser = rest.newRoute(
  'POST',
  '/users',
  codec.object({ name: codec.string().refine(validate.minLength(1)), email: codec.string().refine(validate.email) }),
  user,
  rest.routeMeta({ operationId: 'createUser' }),
  rest.errorPattern(ConflictError, 409, codec.object({ error: codec.string() }), (e) => ({ error: e.message })),
);

export const getUser = rest.newRoute(
  'GET',
  '/users/{id}',
  codec.empty<GetReq>(),
  user,
  rest.routeMeta({ operationId: 'getUser' }),
  rest.newPathParam('id', codec.string().refine(validate.uuid), (r) => r.id, (r, v) => {
    r.id = v;
  }),
  rest.errorPattern(NotFoundError, 404, notFound, (e) => ({ error: e.message, id: e.id })),
  rest.errorStatus(TeapotError, 418),
);

export const listUsers = rest.newRoute(
  'GET',
  '/users',
  codec.empty<ListReq>(),
  codec.object({ items: codec.array(user), total: codec.int(), requestId: codec.optional(codec.string()) }),
  rest.newOptionalQueryParam('limit', codec.intString().refine(validate.min(1), validate.max(100)), (r) => r.limit, (r, v) => {
    r.limit = v;
  }),
  rest.newRequiredHeaderParam('X-Request-ID', codec.string().refine(validate.minLength(3)), (r) => r.requestId, (r, v) => {
    r.requestId = v;
  }),
  rest.newOptionalResponseHeaderParam('X-Total-Count', codec.intString(), (r: ListResp) => r.total, (r, v) => {
    r.total = v;
  }),
);

export const boom = rest.newRoute('DELETE', '/boom', codec.empty<object>(), codec.empty<object>());

export interface Echo {
  out: string;
  token?: string | undefined;
  session?: string | undefined;
}
export interface EchoReq {
  say: string;
  session?: string;
}

/** A route with request cookies, response headers and response cookies. */
export const echo = rest.newRoute(
  'GET',
  '/echo',
  codec.empty<EchoReq>(),
  codec.object({ out: codec.string() }) as codec.Codec<Echo>,
  rest.newRequiredQueryParam('say', codec.string().refine(validate.minLength(1)), (r) => r.say, (r, v) => {
    r.say = v;
  }),
  rest.newOptionalCookieParam('session', codec.string().refine(validate.minLength(4)), (r) => r.session, (r, v) => {
    r.session = v;
  }),
  rest.newOptionalResponseHeaderParam('X-Token', codec.string().refine(validate.minLength(2)), (r) => r.token, (r, v) => {
    r.token = v;
  }),
  rest.newOptionalResponseCookieParam('session', codec.string(), (r) => r.session, (r, v) => {
    r.session = v;
  }),
);

export class HandledError extends Error {}
/** A route whose errors go through the errorHandler (ErrorHandle action). */
export const handled = rest
  .newRoute('GET', '/handled', codec.empty<object>(), codec.empty<object>(), rest.errorPattern(HandledError, 422, codec.object({ error: codec.string() }), (e) => ({ error: e.message })).withAction(rest.ErrorHandle))
  .withOptions({ errorHandler: (_ctx, err, status) => ({ body: { problem: (err as Error).message, status } }) });

/** A route whose handler may return nothing (its response is optional): 503 when it does. */
export const silent = rest.newRoute('GET', '/silent', codec.empty<object>(), codec.optional(codec.object({ x: codec.int() })));

/** A body codec that comes from zod 4 through Standard Schema (issue 3). */
export const zodWidget = codec
  .fromStandardSchema(z.object({ name: z.string().min(2), size: z.number().int().positive(), tags: z.array(z.string()).optional() }))
  .withName('Widget');
export const createWidget = rest.newRoute('POST', '/widgets', zodWidget, zodWidget, rest.routeMeta({ operationId: 'createWidget' }));
