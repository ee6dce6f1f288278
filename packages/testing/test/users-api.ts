/**
 * The users API of examples/users-api, as the mock tests call it: one typed call per operation,
 * each answer checked against its codec, constraints included. The example is imported by path:
 * it depends on @lib/testing itself, so a workspace dependency on it would make a circle of packages.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { expect } from 'vitest';
import { createSession, createUser, deleteUser, findUserByEmail, getMe, getUser, listUsers, sessionToken, user, userPage } from '../../../examples/users-api/src/api.js';

export const ID = '5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c11';
export const EMAIL = 'ada@example.com';

/** A client of `baseURL` over `@lib/node-http`'s fetch transport. */
export function clientOf(baseURL: string): rest.Client {
  const client = rest.newClient();
  client.attach(nodeHttp.newClientTransport({ baseURL }));
  return client;
}

/** One typed call per operation of the users API, by operationId; each checks what it got. */
export const CALLS: Readonly<Record<string, (client: rest.Client) => Promise<unknown>>> = {
  createUser: async (client) => {
    const u = await client.call(createUser, { name: 'Ada', email: EMAIL });
    user.validate(u);
    expect(u.createdAt).toBeInstanceOf(Date);
    return u;
  },
  getUser: async (client) => {
    const u = await client.call(getUser, { id: ID });
    user.validate(u);
    return u;
  },
  listUsers: async (client) => {
    const page = await client.call(listUsers, {});
    userPage.validate(page);
    return page;
  },
  deleteUser: async (client) => client.call(deleteUser, { id: ID }),
  findUserByEmail: async (client) => {
    const found = await client.call(findUserByEmail, { email: EMAIL });
    codec.string().refine(validate.httpPath).decode(found.location);
    return found;
  },
  createSession: async (client) => {
    const session = await client.call(createSession, { email: EMAIL });
    sessionToken.decode(session.session);
    codec.string().refine(validate.uuid).decode(session.userId);
    return session;
  },
  getMe: async (client) => {
    const me = await client.call(getMe, {});
    user.validate(me);
    return me;
  },
};

