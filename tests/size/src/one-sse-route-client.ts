// A browser client of one event-stream route: GET /users/events, each event a user, checked on
// the way in. Its stream reader loads when it opens the stream.
import * as codec from '@lib/codec';
import { newClientTransport } from '@lib/node-http/client';
import * as rest from '@lib/rest';
import { user, type User } from './user-api.js';

const userEvents = rest.newSSERoute('GET', '/users/events', codec.empty<object>(), codec.object({ user }));

const client = rest.newClient();
client.attach(newClientTransport({ baseURL: 'https://api.example.com' }));

export async function* followUsers(): AsyncGenerator<User> {
  for await (const ev of await client.call(userEvents, {}, { reconnect: 3 })) yield ev.data.user;
}
