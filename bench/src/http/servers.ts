/**
 * The same three endpoints served six ways, each written as its library's documentation shows:
 *
 * - `POST /users`, a JSON body `{ name (1–100 characters), email }`, answers 201 with the created
 *   user (400 for an invalid body);
 * - `GET /users/:id`, a uuid path parameter, answers 200 with the user (404 for an unknown id);
 * - `GET /users` answers 200 with a list of 200 users.
 *
 * Each `start*` listens on 127.0.0.1, port 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as honoAdapter from '@lib/router-adapter';
import * as validate from '@lib/validate';
import Fastify from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import express from 'express';
import * as z from 'zod';
import { createdUser, EMAIL_RE, LIST, seedStore, UUID_RE, type ServerKind, type Started } from './shared.js';

class UserNotFoundError extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`no user with id ${id}`);
    this.id = id;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

// ---------------------------------------------------------------------------------------------
// @lib/rest + @lib/node-http (as examples/users-api declares it)
// ---------------------------------------------------------------------------------------------

/** The users API as examples/users-api declares it: its builder, routes registered with their handlers. */
export function libUsersApi(): rest.Server {
  const userId = codec.string().refine(validate.uuid);
  const user = codec
    .object({
      id: userId,
      name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
      email: codec.string().refine(validate.email),
      createdAt: codec.time(),
    })
    .withName('User');
  const newUser = codec
    .object({ name: codec.string().refine(validate.minLength(1), validate.maxLength(100)), email: codec.string().refine(validate.email) })
    .withName('NewUser');
  const notFound = codec.object({ error: codec.string(), id: codec.string() }).withName('UserNotFound');
  interface UserRef {
    id: string;
  }
  const createUser = rest.newRoute('POST', '/users', newUser, user, rest.routeMeta({ operationId: 'createUser' }));
  const getUser = rest.newRoute(
    'GET',
    '/users/{id}',
    codec.empty<UserRef>(),
    user,
    rest.routeMeta({ operationId: 'getUser' }),
    rest.newPathParam('id', userId, (r) => r.id, (r, v) => {
      r.id = v;
    }),
    rest.errorPattern(UserNotFoundError, 404, notFound, (e) => ({ error: e.message, id: e.id })),
  );
  const listUsers = rest.newRoute('GET', '/users', codec.empty(), codec.array(user), rest.routeMeta({ operationId: 'listUsers' }));

  const store = seedStore();
  const api = rest.newServer({ title: 'bench', version: '1.0.0' }, rest.withPathConstraints(validate.httpPath));
  createUser.withHandler((_ctx, req) => createdUser(req)).register(api);
  getUser
    .withHandler((_ctx, req) => {
      const u = store.get(req.id.toLowerCase());
      if (u === undefined) throw new UserNotFoundError(req.id);
      return u;
    })
    .register(api);
  listUsers.withHandler(() => LIST).register(api);
  return api;
}

/** The users API on `transport`. */
function serveLib(transport: nodeHttp.NodeServerTransport | honoAdapter.HonoServerTransport): Promise<Started> {
  return serveOn(libUsersApi(), transport);
}

/** Serves `api` on `transport` (one with an address); `close` stops it and waits for it to drain. */
export async function serveOn(api: rest.Server, transport: nodeHttp.NodeServerTransport | honoAdapter.HonoServerTransport): Promise<Started> {
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  const { port } = await transport.listening();
  return {
    port,
    close: async () => {
      stop.abort();
      await done;
    },
  };
}

function startLib(): Promise<Started> {
  return serveLib(nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }));
}

function startLibHono(): Promise<Started> {
  return serveLib(honoAdapter.newServerTransport({ router: new Hono(), addr: '127.0.0.1:0' }));
}

// ---------------------------------------------------------------------------------------------
// node:http with hand-written routing and validation: the ceiling
// ---------------------------------------------------------------------------------------------

const MAX_BODY = 1024 * 1024;

function send(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readJson(req: IncomingMessage, res: ServerResponse, then: (value: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= MAX_BODY) chunks.push(c);
  });
  req.on('end', () => {
    if (size > MAX_BODY) return send(res, 413, { error: 'request body too large' });
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'invalid JSON' });
    }
    then(value);
  });
}

async function startRaw(): Promise<Started> {
  const store = seedStore();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path === '/users' && req.method === 'POST') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, { error: 'unsupported media type' });
      return readJson(req, res, (body) => {
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return send(res, 400, { error: 'expected an object' });
        const { name, email } = body as Record<string, unknown>;
        if (typeof name !== 'string' || name.length < 1 || name.length > 100) return send(res, 400, { error: 'name: must have 1 to 100 characters' });
        if (typeof email !== 'string' || email.length > 254 || !EMAIL_RE.test(email)) return send(res, 400, { error: 'email: must be an e-mail address' });
        send(res, 201, createdUser({ name, email }));
      });
    }
    if (path === '/users' && req.method === 'GET') return send(res, 200, LIST);
    // The client benchmark's upload: the body is read and dropped, its size answered.
    if (path === '/uploads' && req.method === 'PUT') {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      req.on('end', () => send(res, 200, { bytes }));
      req.on('error', () => res.destroy());
      return;
    }
    if (path.startsWith('/users/') && req.method === 'GET') {
      const id = decodeURIComponent(path.slice('/users/'.length));
      if (!UUID_RE.test(id)) return send(res, 400, { error: 'id: must be a UUID' });
      const u = store.get(id.toLowerCase());
      return u === undefined ? send(res, 404, { error: `no user with id ${id}`, id }) : send(res, 200, u);
    }
    send(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

// ---------------------------------------------------------------------------------------------
// fastify 5 with TypeBox schemas (request validation by fastify's Ajv, responses by fast-json-stringify)
// ---------------------------------------------------------------------------------------------

async function startFastify(): Promise<Started> {
  const User = Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.String({ format: 'email' }),
    createdAt: Type.String({ format: 'date-time' }),
  });
  const NewUser = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), email: Type.String({ format: 'email' }) });
  const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
  const NotFound = Type.Object({ error: Type.String(), id: Type.String() });

  const store = seedStore();
  const app = Fastify({ logger: false });
  app.post<{ Body: Static<typeof NewUser> }>('/users', { schema: { body: NewUser, response: { 201: User } } }, async (req, reply) => {
    reply.code(201);
    return createdUser(req.body);
  });
  app.get<{ Params: Static<typeof IdParams> }>('/users/:id', { schema: { params: IdParams, response: { 200: User, 404: NotFound } } }, async (req, reply) => {
    const u = store.get(req.params.id.toLowerCase());
    if (u === undefined) {
      reply.code(404);
      return { error: `no user with id ${req.params.id}`, id: req.params.id };
    }
    return u;
  });
  app.get('/users', { schema: { response: { 200: Type.Array(User) } } }, async () => LIST);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

// ---------------------------------------------------------------------------------------------
// hono 4 on @hono/node-server with @hono/zod-validator
// ---------------------------------------------------------------------------------------------

async function startHono(): Promise<Started> {
  const newUser = z.object({ name: z.string().min(1).max(100), email: z.email() });
  const idParams = z.object({ id: z.uuid() });

  const store = seedStore();
  const app = new Hono();
  app.post('/users', zValidator('json', newUser), (c) => c.json(createdUser(c.req.valid('json')), 201));
  app.get('/users', (c) => c.json(LIST));
  app.get('/users/:id', zValidator('param', idParams), (c) => {
    const { id } = c.req.valid('param');
    const u = store.get(id.toLowerCase());
    return u === undefined ? c.json({ error: `no user with id ${id}`, id }, 404) : c.json(u);
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      resolve({ port: info.port, close: () => closeServer(server as Server) });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// express 5 with express.json() and zod
// ---------------------------------------------------------------------------------------------

async function startExpress(): Promise<Started> {
  const newUser = z.object({ name: z.string().min(1).max(100), email: z.email() });
  const idParams = z.object({ id: z.uuid() });

  const store = seedStore();
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.post('/users', express.json(), (req, res) => {
    const body = newUser.safeParse(req.body);
    if (!body.success) return void res.status(400).json({ error: 'invalid body', issues: body.error.issues });
    res.status(201).json(createdUser(body.data));
  });
  app.get('/users', (_req, res) => {
    res.json(LIST);
  });
  app.get('/users/:id', (req, res) => {
    const params = idParams.safeParse(req.params);
    if (!params.success) return void res.status(400).json({ error: 'invalid id', issues: params.error.issues });
    const u = store.get(params.data.id.toLowerCase());
    if (u === undefined) return void res.status(404).json({ error: `no user with id ${params.data.id}`, id: params.data.id });
    res.json(u);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

export const START: Record<ServerKind, () => Promise<Started>> = {
  lib: startLib,
  libHono: startLibHono,
  raw: startRaw,
  fastify: startFastify,
  hono: startHono,
  express: startExpress,
};
