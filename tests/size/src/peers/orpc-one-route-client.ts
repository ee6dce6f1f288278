// oRPC's equivalent of ../one-route-client.ts: a contract, the REST (OpenAPI) link, request and
// response checked by the contract's plugins.
import { createORPCClient } from '@orpc/client';
import { oc, type ContractRouterClient } from '@orpc/contract';
import { RequestValidationPlugin, ResponseValidationPlugin } from '@orpc/contract/plugins';
import { OpenAPILink } from '@orpc/openapi-client/fetch';
import { byId, user } from './orpc-user-api.js';

const contract = { getUser: oc.route({ method: 'GET', path: '/users/{id}' }).input(byId).output(user) };

const link = new OpenAPILink(contract, { url: 'https://api.example.com', plugins: [new RequestValidationPlugin(contract), new ResponseValidationPlugin(contract)] });
const client: ContractRouterClient<typeof contract> = createORPCClient(link);

export function loadUser(id: string): ReturnType<typeof client.getUser> {
  return client.getUser({ id });
}
