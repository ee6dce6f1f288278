// oRPC's equivalent of ../ten-routes-client.ts.
import { createORPCClient } from '@orpc/client';
import { oc, type ContractRouterClient } from '@orpc/contract';
import { RequestValidationPlugin, ResponseValidationPlugin } from '@orpc/contract/plugins';
import { OpenAPILink } from '@orpc/openapi-client/fetch';
import * as v from 'valibot';
import { address, byId, user, userInput } from './orpc-user-api.js';

const page = { limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(100))), offset: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0))) };

export const contract = {
  listUsers: oc.route({ method: 'GET', path: '/users' }).input(v.object(page)).output(v.array(user)),
  searchUsers: oc.route({ method: 'GET', path: '/users/search' }).input(v.object({ q: v.pipe(v.string(), v.minLength(1)), ...page })).output(v.array(user)),
  countUsers: oc.route({ method: 'GET', path: '/users/count' }).output(v.object({ count: v.pipe(v.number(), v.integer(), v.minValue(0)) })),
  getUser: oc.route({ method: 'GET', path: '/users/{id}' }).input(byId).output(user),
  createUser: oc.route({ method: 'POST', path: '/users', inputStructure: 'compact' }).input(userInput).output(user),
  replaceUser: oc.route({ method: 'PUT', path: '/users/{id}', inputStructure: 'detailed' }).input(v.object({ params: byId, body: userInput })).output(user),
  updateUser: oc.route({ method: 'PATCH', path: '/users/{id}', inputStructure: 'detailed' }).input(v.object({ params: byId, body: v.partial(userInput) })).output(user),
  deleteUser: oc.route({ method: 'DELETE', path: '/users/{id}', successStatus: 204 }).input(byId),
  getAddress: oc.route({ method: 'GET', path: '/users/{id}/address' }).input(byId).output(address),
  listTags: oc.route({ method: 'GET', path: '/users/{id}/tags' }).input(byId).output(v.array(v.string())),
};

const link = new OpenAPILink(contract, { url: 'https://api.example.com', plugins: [new RequestValidationPlugin(contract), new ResponseValidationPlugin(contract)] });
export const client: ContractRouterClient<typeof contract> = createORPCClient(link);
