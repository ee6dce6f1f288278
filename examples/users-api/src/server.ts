import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { randomBytes } from 'node:crypto';
import { createSession, createUser, deleteUser, findUserByEmail, getMe, getUser, listUsers, SessionExpiredError } from './api.js';
import { UserStore } from './store.js';

/** The builder with every route registered and served from `store`. */
export function buildApi(store: UserStore = new UserStore()): rest.Server {
  const api = rest.newServer(
    { title: 'Users API', version: '1.0.0', description: 'A users service: the @lib main example.' },
    rest.withPathConstraints(validate.httpPath),
  );
  api.addServer('local', { url: 'http://127.0.0.1:8080' });
  createUser.withHandler((_ctx, req) => store.create(req)).register(api);
  getUser.withHandler((_ctx, req) => store.get(req.id)).register(api);
  listUsers
    .withHandler((_ctx, req) => {
      const limit = req.limit ?? 20;
      const offset = req.offset ?? 0;
      return { ...store.list(offset, limit), limit, offset, requestId: req.requestId };
    })
    .register(api);
  deleteUser
    .withHandler((_ctx, req) => {
      store.delete(req.id);
      return {};
    })
    .register(api);
  findUserByEmail.withHandler((_ctx, req) => rest.redirect(303, getUser, { id: store.byEmail(req.email).id })).register(api);
  // Sessions: token → user id, in memory.
  const sessions = new Map<string, string>();
  createSession
    .withHandler((_ctx, req) => {
      const u = store.byEmail(req.email);
      const session = randomBytes(16).toString('hex');
      sessions.set(session, u.id);
      return { userId: u.id, session };
    })
    .register(api);
  getMe
    .withHandler((_ctx, req) => {
      const id = sessions.get(req.session);
      if (id === undefined) throw new SessionExpiredError();
      return store.get(id);
    })
    .register(api);
  return api;
}

/** Starts the service on `addr` (`host:port`, port 0 for a free one); resolves with its address and a promise that settles after `signal` aborts. */
export async function startServer(addr: string, signal: AbortSignal): Promise<{ address: nodeHttp.Address; done: Promise<void> }> {
  const api = buildApi();
  const transport = nodeHttp.newServerTransport({ addr });
  api.attach(transport);
  const done = api.serve({ signal });
  const address = await Promise.race([transport.listening(), done.then(() => Promise.reject(new Error('server stopped before listening')))]);
  return { address, done };
}
