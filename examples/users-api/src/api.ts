/**
 * The users API, declared once. Server, client, URL building and OpenAPI all read these values.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';

/** Thrown by the store when no user has the id. */
export class UserNotFoundError extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`no user with id ${id}`);
    this.name = 'UserNotFoundError';
    this.id = id;
  }
}

/** Thrown by the store when the e-mail address is taken. */
export class EmailTakenError extends Error {
  readonly email: string;
  constructor(email: string) {
    super(`the e-mail address ${email} is already registered`);
    this.name = 'EmailTakenError';
    this.email = email;
  }
}

export const userId = codec.string().refine(validate.uuid).withDescription('The user id, a UUID.').withExample('5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c11');

export const user = codec
  .object({
    id: userId,
    name: codec.string().refine(validate.minLength(1), validate.maxLength(100)).withDescription('Display name.'),
    email: codec.string().refine(validate.email).withDescription('Unique e-mail address.'),
    createdAt: codec.time().withDescription('When the user was created (RFC 3339).'),
  })
  .withName('User')
  .withDescription('A registered user.');
export type User = codec.Infer<typeof user>;

export const newUser = codec
  .object({
    name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
    email: codec.string().refine(validate.email),
  })
  .withName('NewUser');
export type NewUser = codec.Infer<typeof newUser>;

export const notFound = codec.object({ error: codec.string(), id: codec.string() }).withName('UserNotFound');
export const emailTaken = codec.object({ error: codec.string(), email: codec.string() }).withName('EmailTaken');

export interface UserRef {
  id: string;
}

export interface ListUsersReq {
  limit?: number;
  offset?: number;
  requestId: string;
}

export const userPage = codec
  .object({
    items: codec.array(user),
    total: codec.int().refine(validate.min(0)),
    limit: codec.int(),
    offset: codec.int(),
  })
  .withName('UserPage');
export type UserPage = codec.Infer<typeof userPage> & { requestId?: string };

const idParam = rest.newPathParam('id', userId, (r: UserRef) => r.id, (r, v) => {
  r.id = v;
});
const notFoundPattern = rest.errorPattern(UserNotFoundError, 404, notFound, (e) => ({ error: e.message, id: e.id })).withDescription('No user has this id.');

export const createUser = rest.newRoute(
  'POST',
  '/users',
  newUser,
  user,
  rest.routeMeta({ operationId: 'createUser', summary: 'Register a user', tags: ['users'] }),
  rest.errorPattern(EmailTakenError, 409, emailTaken, (e) => ({ error: e.message, email: e.email })).withDescription('The e-mail address is taken.'),
);

export const getUser = rest.newRoute(
  'GET',
  '/users/{id}',
  codec.empty<UserRef>(),
  user,
  rest.routeMeta({ operationId: 'getUser', summary: 'Get a user', tags: ['users'] }),
  idParam,
  notFoundPattern,
);

export const listUsers = rest.newRoute(
  'GET',
  '/users',
  codec.empty<ListUsersReq>(),
  userPage as codec.Codec<UserPage>,
  rest.routeMeta({ operationId: 'listUsers', summary: 'List users, oldest first', tags: ['users'] }),
  rest
    .newOptionalQueryParam('limit', codec.intString().refine(validate.min(1), validate.max(100)), (r: ListUsersReq) => r.limit, (r, v) => {
      r.limit = v;
    })
    .withDescription('Page size, 1 to 100 (default 20).'),
  rest
    .newOptionalQueryParam('offset', codec.intString().refine(validate.min(0)), (r: ListUsersReq) => r.offset, (r, v) => {
      r.offset = v;
    })
    .withDescription('Users to skip (default 0).'),
  rest
    .newRequiredHeaderParam('X-Request-ID', codec.string().refine(validate.minLength(8), validate.maxLength(64)), (r: ListUsersReq) => r.requestId, (r, v) => {
      r.requestId = v;
    })
    .withDescription('A caller-chosen id that the response echoes.'),
  rest
    .newOptionalResponseHeaderParam('X-Request-ID', codec.string(), (r: UserPage) => r.requestId, (r, v) => {
      r.requestId = v;
    })
    .withDescription('The request id that was sent.'),
);

export const deleteUser = rest.newRoute(
  'DELETE',
  '/users/{id}',
  codec.empty<UserRef>(),
  codec.empty<Record<string, never>>(),
  rest.routeMeta({ operationId: 'deleteUser', summary: 'Delete a user', tags: ['users'], respStatus: 204, respDescription: 'The user was deleted.' }),
  idParam,
  notFoundPattern,
);

/** Every route of the API. */
export const routes = [createUser, getUser, listUsers, deleteUser] as const;
