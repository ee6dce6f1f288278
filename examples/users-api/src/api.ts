/**
 * The users API, declared once. Server, client, URL building and OpenAPI all read these values.
 * Routes are declared in the object form (`rest.route({...})`, types inferred); one,
 * `findUserByEmail`, shows the merge-parameter form (`rest.newRoute` with getters and setters).
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { jwt } from './auth.js';

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

export const userPage = codec
  .object({
    items: codec.array(user),
    total: codec.int().refine(validate.min(0)),
    limit: codec.int(),
    offset: codec.int(),
  })
  .withName('UserPage');
export type UserPage = codec.Infer<typeof userPage>;

/** 404 with the typed `UserNotFound` body; shared by the routes that take a user id. */
export const notFoundPattern = rest.errorPattern(UserNotFoundError, 404, notFound, (e) => ({ error: e.message, id: e.id })).withDescription('No user has this id.');

/** 409 with the typed `EmailTaken` body. */
export const emailTakenPattern = rest.errorPattern(EmailTakenError, 409, emailTaken, (e) => ({ error: e.message, email: e.email })).withDescription('The e-mail address is taken.');

export const createUser = rest.route({
  method: 'POST',
  path: '/users',
  body: newUser,
  response: user,
  errors: [emailTakenPattern],
  security: [{ bearerAuth: [] }],
  meta: { operationId: 'createUser', summary: 'Register a user', tags: ['users'] },
});

/** A user as a reader sees it: a signed-in reader also learns whether it is themselves. */
export const userView = user
  .extend({ isSelf: codec.optional(codec.boolean().withDescription('Whether the user is the signed-in reader; absent for an anonymous reader.')) })
  .withName('UserView');

/** Public, and personal for a signed-in reader: sign-in is optional (`{}` among the alternatives), a sent token is checked. */
export const getUser = rest.route({
  method: 'GET',
  path: '/users/{id}',
  pathParams: { id: userId },
  response: userView,
  errors: [notFoundPattern],
  security: [{ bearerAuth: [] }, {}],
  meta: { operationId: 'getUser', summary: 'Get a user', tags: ['users'] },
});

export const listUsers = rest.route({
  method: 'GET',
  path: '/users',
  query: {
    limit: rest.named('limit', codec.defaulted(codec.intString().refine(validate.min(1), validate.max(100)), 20)).withDescription('Page size, 1 to 100.'),
    offset: rest.named('offset', codec.defaulted(codec.intString().refine(validate.min(0)), 0)).withDescription('Users to skip.'),
  },
  response: userPage,
  meta: { operationId: 'listUsers', summary: 'List users, oldest first', tags: ['users'] },
});

interface RequestIdIn {
  id?: string | undefined;
}
interface RequestIdOut {
  id: string;
}

/**
 * A middleware for every route (`api.use`): reads the caller's `X-Request-ID` (8 to 64
 * characters), makes one up when there is none, and echoes it as the `X-Request-ID` response
 * header. Handlers read it with `requestId.output(ctx)`.
 */
export const requestId = rest
  .newMiddleware(
    rest.declaration('requestId', codec.object({ id: codec.optional(codec.string()) }), codec.object({ id: codec.string() }).withName('RequestId')),
  )
  .withRequestHeader(
    rest
      .newOptionalHeaderParam('X-Request-ID', codec.string().refine(validate.minLength(8), validate.maxLength(64)), (i: RequestIdIn) => i.id, (i, v) => {
        i.id = v;
      })
      .withDescription('A caller-chosen id for this request; the response echoes it.'),
  )
  .withResponseHeader(
    rest
      .newRequiredResponseHeaderParam('X-Request-ID', codec.string(), (o: RequestIdOut) => o.id, (o, v) => {
        o.id = v;
      })
      .withDescription('The request id: the caller’s, or one the server made up.'),
  )
  .withReceive((_ctx, input) => ({ id: input.id ?? crypto.randomUUID() }));

export const deleteUser = rest.route({
  method: 'DELETE',
  path: '/users/{id}',
  pathParams: { id: userId },
  errors: [notFoundPattern],
  security: [{ bearerAuth: [] }],
  meta: { operationId: 'deleteUser', summary: 'Delete a user', tags: ['users'], respStatus: 204, respDescription: 'The user was deleted.' },
});

/** What happened to a user: created (with the user) or deleted (with the id). */
export const userEvent = codec
  .taggedUnion('kind', {
    created: codec.object({ user }),
    deleted: codec.object({ id: userId }),
  })
  .withName('UserEvent')
  .withDescription('A change to the users: `created` carries the new user, `deleted` the id.');
export type UserEvent = codec.Infer<typeof userEvent>;

/**
 * Server-sent events of user changes, as they happen. A reconnecting client sends the last id it
 * saw (`Last-Event-ID`) and gets what it missed first.
 */
export const userEvents = rest.newSSERoute(
  'GET',
  '/users/events',
  codec.empty<object>(),
  userEvent,
  rest.routeMeta({ operationId: 'userEvents', summary: 'Follow user changes as server-sent events', tags: ['users'] }),
);

/** Thrown when no user has the e-mail address. */
export class EmailUnknownError extends Error {
  readonly email: string;
  constructor(email: string) {
    super(`no user with e-mail ${email}`);
    this.name = 'EmailUnknownError';
    this.email = email;
  }
}

/** Thrown when a session cookie is missing, unknown or expired. */
export class SessionExpiredError extends Error {
  constructor() {
    super('the session is missing or has expired');
    this.name = 'SessionExpiredError';
  }
}

export const emailUnknown = codec.object({ error: codec.string(), email: codec.string() }).withName('EmailUnknown');
export const sessionExpired = codec.object({ error: codec.string() }).withName('SessionExpired');

export interface FindByEmailReq {
  email: string;
}
/** A redirect: the target is in `Location`, merged into `location` by the client. */
export interface UserLocation {
  location: string;
}

/**
 * A redirect route: answers 303 See Other with `Location: /users/{id}`. The handler returns
 * `rest.redirect(303, getUser, { id })`; the client does not follow it, it returns `{ location }`.
 * Declared in the merge-parameter form: hand-written request and response types, each
 * parameter a getter and a setter on them.
 */
export const findUserByEmail = rest.newRoute(
  'GET',
  '/users/by-email/{email}',
  codec.empty<FindByEmailReq>(),
  codec.empty<UserLocation>(),
  rest.routeMeta({ operationId: 'findUserByEmail', summary: 'Find a user by e-mail address', tags: ['users'], respStatus: 303, respDescription: 'See the user at Location.' }),
  rest.newPathParam('email', codec.string().refine(validate.email), (r) => r.email, (r, v) => {
    r.email = v;
  }),
  rest
    .newRequiredResponseHeaderParam('Location', codec.string().refine(validate.httpPath), (r: UserLocation) => r.location, (r, v) => {
      r.location = v;
    })
    .withDescription('The path of the user.'),
  rest.errorPattern(EmailUnknownError, 404, emailUnknown, (e) => ({ error: e.message, email: e.email })).withDescription('No user has this e-mail address.'),
);

/** The session cookie: 32 hexadecimal digits. */
export const sessionToken = codec.string().refine(validate.pattern(/^[0-9a-f]{32}$/)).withDescription('An opaque session token.');

/**
 * Signs a user in: the body says who (`{ userId }`), the `session` cookie (HttpOnly,
 * SameSite=Strict, one hour) carries the token; the client reads both into `{ userId, session }`.
 */
export const createSession = rest.route({
  method: 'POST',
  path: '/sessions',
  body: codec.object({ email: codec.string().refine(validate.email) }).withName('NewSession'),
  response: codec.object({ userId }).withName('SessionInfo'),
  // Plain-HTTP development server: no Secure attribute, so browsers on http://127.0.0.1 keep it.
  responseCookies: { session: rest.responseCookie(sessionToken, { maxAge: 3600, insecure: true }) },
  errors: [rest.errorPattern(EmailUnknownError, 404, emailUnknown, (e) => ({ error: e.message, email: e.email })).withDescription('No user has this e-mail address.')],
  meta: { operationId: 'createSession', summary: 'Sign in', tags: ['sessions'] },
});

/** The signed-in user, from the `session` cookie: an API key in a cookie (the `sessionCookie` scheme). */
export const getMe = rest.route({
  method: 'GET',
  path: '/me',
  response: user,
  errors: [rest.errorPattern(SessionExpiredError, 401, sessionExpired, (e) => ({ error: e.message })).withDescription('No valid session.')],
  security: [{ sessionCookie: [] }],
  meta: { operationId: 'getMe', summary: 'The signed-in user', tags: ['sessions'] },
});

/** Writes need a bearer token: a JWT signed with HS256 (see auth.ts). */
export const bearerAuth = rest.bearerScheme('JWT').withCodec(jwt).withDescription('A JWT signed with HS256 by the identity provider.');
/** The session cookie set by `createSession`, as an API key in a cookie. */
export const sessionCookie = rest.apiKeyScheme('session', 'cookie').withCodec(sessionToken).withDescription('The session cookie set by POST /sessions.');
/** Who the verified credential speaks for: the token's subject or the session's user id. Set by the securityFunc. */
export const principal = rest.principalKey<string>('principal');

/** Every route of the API. */
export const routes = [createUser, getUser, listUsers, deleteUser, findUserByEmail, createSession, getMe] as const;
