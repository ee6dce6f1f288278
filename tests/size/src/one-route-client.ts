// The smallest useful browser client: one route, called through the fetch transport.
import * as codec from '@lib/codec';
import { newClientTransport } from '@lib/node-http/client';
import * as rest from '@lib/rest';

const getUser = rest.route({
  method: 'GET',
  path: '/users/{id}',
  pathParams: { id: codec.string() },
  response: codec.object({ id: codec.string(), name: codec.string() }),
});

const client = rest.newClient();
client.attach(newClientTransport({ baseURL: 'https://api.example.com' }));

export function loadUser(id: string): Promise<{ id: string; name: string }> {
  return client.call(getUser, { id });
}
