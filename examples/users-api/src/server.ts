import * as nodeHttp from '@lib/node-http';
import { serveDocs } from '@lib/openapi-ui';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { randomBytes } from 'node:crypto';
import { verifyToken } from './auth.js';
import { bearerAuth, requestId, createSession, createUser, deleteUser, findUserByEmail, getMe, getUser, listUsers, principal, sessionCookie, SessionExpiredError, UserNotFoundError, userEvents } from './api.js';
import { UserStore } from './store.js';

/** The browser origins of the example's front end (a Vite dev server). */
export const BROWSER_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/**
 * The builder with every route registered and served from `store`. Bearer tokens are verified
 * with `tokenSecret` (HS256); sessions live in memory.
 */
export function buildApi(tokenSecret: string, store: UserStore = new UserStore()): rest.Server {
  // Sessions: token → user id, in memory.
  const sessions = new Map<string, string>();
  const api = rest.newServer(
    {
      title: 'Users API',
      version: '1.0.0',
      summary: 'Users, sessions and lookups by e-mail.',
      description: 'A users service: the @lib main example.',
      contact: { name: 'The @lib maintainers', url: 'https://example.com/lib' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    rest.withPathConstraints(validate.httpPath),
    rest.cors({ origin: BROWSER_ORIGINS, credentials: true, maxAge: 600 }),
    rest.withDefaultOptions({
      // Runs after the scheme's codec accepted the credential, before the body is read.
      securityFunc: (ctx) => {
        const token = bearerAuth.credential(ctx);
        if (token !== undefined) {
          ctx.set(principal, verifyToken(token, tokenSecret).sub);
          return;
        }
        const session = sessionCookie.credential(ctx);
        const userId = session === undefined ? undefined : sessions.get(session);
        if (userId === undefined) throw new SessionExpiredError();
        ctx.set(principal, userId);
      },
    }),
  );
  api.addSecurityScheme('bearerAuth', bearerAuth).addSecurityScheme('sessionCookie', sessionCookie);
  api.use(requestId);
  api.addTag('users', { description: 'Registered users: create, read, list, delete, find by e-mail.' });
  api.addTag('sessions', { description: 'Signing in with a session cookie, and the signed-in user.' });
  api.addServer('local', { url: 'http://127.0.0.1:8080' });
  createUser.withHandler((_ctx, req) => store.create(req)).register(api);
  getUser
    .withHandler((ctx, req) => {
      const u = store.get(req.id);
      // A signed-in reader (its token checked by securityFunc) sees one more field; an anonymous one does not.
      const reader = ctx.get(principal);
      return reader === undefined ? u : { ...u, isSelf: reader === u.id };
    })
    .register(api);
  listUsers.withHandler((_ctx, { limit, offset }) => ({ ...store.list(offset, limit), limit, offset })).register(api);
  deleteUser
    .withHandler((_ctx, req) => {
      store.delete(req.id);
      // A deleted user's sessions go with it.
      for (const [token, userId] of sessions) if (userId === req.id.toLowerCase()) sessions.delete(token);
    })
    .register(api);
  findUserByEmail.withHandler((_ctx, req) => rest.redirect(303, getUser, { id: store.byEmail(req.email).id })).register(api);
  createSession
    .withHandler((_ctx, req) => {
      const u = store.byEmail(req.email);
      const session = randomBytes(16).toString('hex');
      sessions.set(session, u.id);
      return { userId: u.id, session };
    })
    .register(api);
  getMe
    .withHandler((ctx) => {
      try {
        return store.get(ctx.get(principal));
      } catch (err) {
        // A credential that speaks for no user (a bearer token of a deleted one) signs nobody in: 401, as declared.
        if (err instanceof UserNotFoundError) throw new SessionExpiredError();
        throw err;
      }
    })
    .register(api);
  userEvents
    .withHandler(async function* (ctx, req) {
      const after = req.lastEventId === undefined || !/^\d+$/.test(req.lastEventId) ? undefined : Number(req.lastEventId);
      for await (const { seq, event } of store.changes(after, ctx.signal)) yield { data: event, id: String(seq), event: event.kind };
    })
    .register(api);
  // GET /openapi.json (YAML by Accept), /openapi.yaml and the Swagger UI page at /docs, whose
  // "Try it out" calls this server whatever port it listens on.
  serveDocs(api, { sameOrigin: true });
  return api;
}

/** Starts the service on `addr` (`host:port`, port 0 for a free one); resolves with its address and a promise that settles after `signal` aborts. */
export async function startServer(addr: string, signal: AbortSignal, tokenSecret: string): Promise<{ address: nodeHttp.Address; done: Promise<void> }> {
  const api = buildApi(tokenSecret);
  const transport = nodeHttp.newServerTransport({ addr });
  api.attach(transport);
  const done = api.serve({ signal });
  const address = await Promise.race([transport.listening(), done.then(() => Promise.reject(new Error('server stopped before listening')))]);
  return { address, done };
}
