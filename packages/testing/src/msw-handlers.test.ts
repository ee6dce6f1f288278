/**
 * `mswHandlers` (`@lib/testing/msw`) against the users API of examples/users-api: Mock Service Worker
 * intercepts `fetch` (`setupServer` from `msw/node`), and the typed client of `@lib/rest` calls
 * every route through `@lib/node-http`'s fetch transport, decoding each answer with the route's
 * own codecs. No server of ours listens: what answers is the real pipeline behind `router.fetch`.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, expectTypeOf, it } from 'vitest';
// The example is imported by path: it depends on @lib/testing itself, so a workspace dependency
// on it would make a circle of packages.
import { createSession, createUser, deleteUser, getMe, getUser, listUsers, routes, sessionToken, user, userEvent, userEvents, userPage } from '../../../examples/users-api/src/api.js';
import { CALLS, clientOf as clientAt, EMAIL, ID } from '../test/users-api.js';
import { mswHandlers } from './msw.js';

const ORIGIN = 'http://users.test';

function clientOf(baseURL = ORIGIN): rest.Client {
  return clientAt(baseURL);
}

/** Runs `fn` with `handlers` intercepting `fetch`; a request no handler takes fails the test. */
async function withMsw<T>(handlers: readonly HttpHandler[], fn: () => Promise<T>): Promise<T> {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    return await fn();
  } finally {
    server.close();
  }
}

const thing = codec.object({ id: codec.string().refine(validate.uuid), n: codec.int().refine(validate.min(0)) }).withName('Thing');

/** A middleware whose function must never run in the mock: its output is generated. */
const trace = rest
  .newMiddleware(rest.declaration('trace', codec.object({}), codec.object({ traceId: codec.string() })))
  .withResponseHeader(rest.newRequiredResponseHeaderParam('X-Trace', codec.string().refine(validate.minLength(1)), (o: { traceId: string }) => o.traceId, (o, v) => void (o.traceId = v)))
  .withReceive(() => {
    throw new Error('the mock ran a middleware function');
  });

/** What the users API does not show: response headers of other codecs, two response formats, another success, a middleware, a plain header. */
const putThing = rest
  .route({
    method: 'PUT',
    path: '/things/{id}',
    pathParams: { id: codec.string().refine(validate.uuid) },
    body: thing,
    response: thing,
    responseHeaders: { etag: rest.named('ETag', codec.string()), count: rest.named('X-Count', codec.intString().refine(validate.min(1))) },
    successes: { 201: thing },
    formats: [format.json(thing), format.yaml(thing)],
    meta: { operationId: 'putThing' },
  })
  .use(trace);
const getPlain = rest.newRoute('GET', '/plain', codec.empty<object>(), codec.array(codec.boolean()), rest.responseHeaderParam({ name: 'X-Plain', required: true }).withCodec(codec.string().refine(validate.uuid)));

describe('mswHandlers', () => {
  it('gives one handler per route, on any origin, the most specific path first', () => {
    const handlers = mswHandlers([...routes, userEvents], { seed: 1 });
    expect(handlers).toHaveLength(routes.length + 1);
    const paths = handlers.map((h) => `${String(h.info.method)} ${String(h.info.path)}`);
    expect(paths).toContain('GET */users/:id');
    expect(paths.indexOf('GET */users/events')).toBeLessThan(paths.indexOf('GET */users/:id'));
  });

  it('answers every route of the users API with values its typed client decodes', async () => {
    expect(Object.keys(CALLS).sort()).toEqual(routes.map((r) => r.meta.operationId).sort());
    const client = clientOf();
    await withMsw(mswHandlers(routes), async () => {
      for (const call of Object.values(CALLS)) for (let i = 0; i < 25; i++) await call(client);
    });
  });

  it('answers with the declared status, headers and cookies', async () => {
    await withMsw(mswHandlers(routes, { seed: 2 }), async () => {
      const created = await fetch(`${ORIGIN}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', email: EMAIL }) });
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toBe('application/json');
      user.decode(await created.json());

      const deleted = await fetch(`${ORIGIN}/users/${ID}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe('');

      const found = await fetch(`${ORIGIN}/users/by-email/${EMAIL}`, { redirect: 'manual' });
      expect(found.status).toBe(303);
      expect(found.headers.get('location')).toMatch(/^\//);

      const session = await fetch(`${ORIGIN}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL }) });
      expect(session.status).toBe(201);
      const [cookie] = session.headers.getSetCookie();
      expect(cookie).toMatch(/^session=[0-9a-f]{32}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict$/);
    });
  });

  it('refuses an invalid request as the server does: 400 with the error envelope', async () => {
    await withMsw(mswHandlers(routes, { seed: 3 }), async () => {
      const badId = await fetch(`${ORIGIN}/users/not-a-uuid`);
      expect(badId.status).toBe(400);
      expect(badId.headers.get('content-type')).toBe('application/json');
      expect(rest.errorEnvelope.decode(await badId.json()).error).toContain('id');

      const badBody = await fetch(`${ORIGIN}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: '', email: 'nobody' }) });
      expect(badBody.status).toBe(400);
      rest.errorEnvelope.decode(await badBody.json());

      const badQuery = await fetch(`${ORIGIN}/users?limit=1000`);
      expect(badQuery.status).toBe(400);
      rest.errorEnvelope.decode(await badQuery.json());

      const badType = await fetch(`${ORIGIN}/users`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Ada' });
      expect(badType.status).toBe(415);

      // The typed client says the same.
      await expect(clientOf().call(getUser, { id: 'not-a-uuid' } as never)).rejects.toThrow();
    });
  });

  it('accepts any credentials, or none, on routes with security requirements', async () => {
    await withMsw(mswHandlers(routes, { seed: 4 }), async () => {
      for (const authorization of [undefined, 'Bearer not-a-jwt', 'Basic Zm9vOmJhcg==']) {
        const res = await fetch(`${ORIGIN}/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) },
          body: JSON.stringify({ name: 'Ada', email: EMAIL }),
        });
        expect(res.status).toBe(201);
      }
      const me = await fetch(`${ORIGIN}/me`, { headers: { cookie: 'session=nonsense' } });
      expect(me.status).toBe(200);
    });
  });

  it('answers under a base path, on any origin', async () => {
    await withMsw(mswHandlers(routes, { seed: 5 }), async () => {
      for (const base of ['https://api.example.com/v1', 'http://localhost:8080/api/users-service']) {
        user.validate(await clientOf(base).call(getUser, { id: ID }));
        userPage.validate(await clientOf(base).call(listUsers, { limit: 5 }));
      }
    });
  });

  it('streams generated events on an SSE route', async () => {
    await withMsw(mswHandlers([userEvents], { seed: 6 }), async () => {
      for (let i = 0; i < 5; i++) {
        const events = [];
        for await (const ev of await clientOf().call(userEvents, {})) events.push(ev);
        expect(events.length).toBeGreaterThanOrEqual(1);
        expect(events.length).toBeLessThanOrEqual(3);
        for (const ev of events) userEvent.validate(ev.data);
      }
    });
  });

  it('answers a declared error status for an override, which safeCall narrows', async () => {
    const handlers = mswHandlers(routes, { seed: 7, overrides: { getUser: { status: 404 }, getMe: { status: 401 }, createUser: { status: 409 }, deleteUser: { status: 401 } } });
    await withMsw(handlers, async () => {
      const client = clientOf();
      const missing = await client.safeCall(getUser, { id: ID });
      expect(missing.ok).toBe(false);
      if (missing.ok || missing.status !== 404) throw new Error(`expected the declared 404, got ${JSON.stringify(missing)}`);
      expectTypeOf(missing.error).toEqualTypeOf<{ error: string; id: string }>();
      expect(typeof missing.error.id).toBe('string');

      const expired = await client.safeCall(getMe, {});
      if (expired.ok || expired.status !== 401) throw new Error(`expected the declared 401, got ${JSON.stringify(expired)}`);
      expectTypeOf(expired.error).toEqualTypeOf<{ error: string }>();
      expect(typeof expired.error.error).toBe('string');

      const taken = await client.safeCall(createUser, { name: 'Ada', email: EMAIL });
      if (taken.ok || taken.status !== 409) throw new Error(`expected the declared 409, got ${JSON.stringify(taken)}`);
      expect(typeof taken.error.email).toBe('string');

      // A 401 of the route's security requirement: the error envelope.
      const refused = await fetch(`${ORIGIN}/users/${ID}`, { method: 'DELETE' });
      expect(refused.status).toBe(401);
      rest.errorEnvelope.decode(await refused.json());

      // An invalid request is still refused, override or not.
      expect((await fetch(`${ORIGIN}/users/not-a-uuid`)).status).toBe(400);
      // Routes without an override answer their success.
      sessionToken.decode((await client.call(createSession, { email: EMAIL })).session);
      userPage.validate(await client.call(listUsers, {}));
    });
  });

  it('throws a TypeError for an override of an undeclared status or of no route', () => {
    expect(() => mswHandlers(routes, { overrides: { getUser: { status: 418 } } })).toThrow(TypeError);
    expect(() => mswHandlers(routes, { overrides: { getUser: { status: 418 } } })).toThrow(/GET \/users\/\{id\} does not declare status 418 \(it declares 200, 404, /);
    expect(() => mswHandlers(routes, { overrides: { getUsers: { status: 404 } } })).toThrow(TypeError);
    expect(() => mswHandlers(routes, { overrides: { getUsers: { status: 404 } } })).toThrow(/names no route/);
    // Another declared success, by operation `METHOD /path` where no operationId is given.
    const plain = rest.route({ method: 'PUT', path: '/things/{id}', pathParams: { id: codec.string() }, response: codec.object({ id: codec.string() }), successes: { 201: codec.object({ id: codec.string() }) } });
    expect(() => mswHandlers([plain], { overrides: { 'PUT /things/{id}': { status: 201 } } })).not.toThrow();
    expect(() => mswHandlers([plain], { overrides: { 'PUT /things/{id}': { status: 202 } } })).toThrow(TypeError);
  });

  it('answers headers of any codec, the negotiated format, another success, middleware output and plain headers', async () => {
    const body = { id: ID, n: 3 };
    await withMsw(mswHandlers([putThing, getPlain], { seed: 8 }), async () => {
      const client = clientOf();
      for (let i = 0; i < 20; i++) {
        const put = await client.call(putThing, body);
        thing.validate({ id: put.id, n: put.n });
        expect(typeof put.etag).toBe('string');
        expect(Number.isInteger(put.count) && put.count >= 1).toBe(true);
        const raw = await fetch(`${ORIGIN}/things/${ID}`, { method: 'PUT', headers: { 'content-type': 'application/json', accept: 'application/yaml' }, body: JSON.stringify(body) });
        expect(raw.status).toBe(200);
        expect(raw.headers.get('content-type')).toContain('yaml');
        expect(raw.headers.get('x-trace')).toMatch(/^\S/);
        format.yaml(thing).unmarshal(new Uint8Array(await raw.arrayBuffer()));
        const plain = await fetch(`${ORIGIN}/plain`);
        expect(plain.status).toBe(200);
        codec.string().refine(validate.uuid).decode(plain.headers.get('x-plain'));
        codec.array(codec.boolean()).decode(await plain.json());
      }
      expect((await fetch(`${ORIGIN}/things/${ID}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"id":"x"}' })).status).toBe(400);
      expect((await fetch(`${ORIGIN}/things/${ID}`, { method: 'PUT', headers: { 'content-type': 'application/json', accept: 'text/csv' }, body: JSON.stringify(body) })).status).toBe(406);
    });
    await withMsw(mswHandlers([putThing], { seed: 9, overrides: { putThing: { status: 201 } } }), async () => {
      const created = await clientOf().safeCall(putThing, body);
      if (!created.ok || created.status !== 201) throw new Error(`expected the declared 201, got ${JSON.stringify(created)}`);
      thing.validate({ id: created.value.id, n: created.value.n });
    });
  });

  it('gives the same answers for the same seed, and others for another', async () => {
    const answers = async (seed: number): Promise<string[]> =>
      withMsw(mswHandlers(routes, { seed }), async () => {
        const out: string[] = [];
        for (let i = 0; i < 4; i++) {
          for (const path of [`/users/${ID}`, '/users?limit=3', '/me']) {
            const res = await fetch(`${ORIGIN}${path}`);
            out.push(`${res.status} ${await res.text()}`);
          }
          const session = await fetch(`${ORIGIN}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL }) });
          out.push(`${session.status} ${session.headers.getSetCookie().join()} ${await session.text()}`);
        }
        return out;
      });
    const first = await answers(42);
    expect(new Set(first).size).toBe(first.length);
    expect(await answers(42)).toEqual(first);
    expect(await answers(43)).not.toEqual(first);
  });
});
