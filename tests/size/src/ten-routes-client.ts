// A browser client of ten routes over the user object: list, search, count, read, create,
// replace, update, delete, and two sub-resources; requests and responses checked.
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { newClientTransport } from '@lib/node-http/client';
import * as rest from '@lib/rest';
import { address, user, userId, userInput } from './user-api.js';

const page = { limit: codec.optional(codec.intString().refine(validate.min(1), validate.max(100))), offset: codec.optional(codec.intString().refine(validate.min(0))) };
const byId = { id: userId };

export const routes = {
  listUsers: rest.route({ method: 'GET', path: '/users', query: page, response: codec.array(user) }),
  searchUsers: rest.route({ method: 'GET', path: '/users/search', query: { q: codec.string().refine(validate.minLength(1)), ...page }, response: codec.array(user) }),
  countUsers: rest.route({ method: 'GET', path: '/users/count', response: codec.object({ count: codec.int().refine(validate.min(0)) }) }),
  getUser: rest.route({ method: 'GET', path: '/users/{id}', pathParams: byId, response: user }),
  createUser: rest.route({ method: 'POST', path: '/users', body: userInput, response: user }),
  replaceUser: rest.route({ method: 'PUT', path: '/users/{id}', pathParams: byId, body: userInput, response: user }),
  updateUser: rest.route({ method: 'PATCH', path: '/users/{id}', pathParams: byId, body: userInput.partial(), response: user }),
  deleteUser: rest.route({ method: 'DELETE', path: '/users/{id}', pathParams: byId, response: codec.empty<void>() }),
  getAddress: rest.route({ method: 'GET', path: '/users/{id}/address', pathParams: byId, response: address }),
  listTags: rest.route({ method: 'GET', path: '/users/{id}/tags', pathParams: byId, response: codec.array(codec.string()) }),
};

export const client = rest.newClient();
client.attach(newClientTransport({ baseURL: 'https://api.example.com' }));
