// A browser client of one route: GET /users/{id}, the user object checked on the way in.
import { newClientTransport } from '@lib/node-http/client';
import * as rest from '@lib/rest';
import { user, userId, type User } from './user-api.js';

const getUser = rest.route({ method: 'GET', path: '/users/{id}', pathParams: { id: userId }, response: user });

const client = rest.newClient();
client.attach(newClientTransport({ baseURL: 'https://api.example.com' }));

export function loadUser(id: string): Promise<User> {
  return client.call(getUser, { id });
}
