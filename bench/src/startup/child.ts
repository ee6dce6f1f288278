/**
 * One startup measurement, in a fresh process: `child.ts <kind> <routes>` declares `routes`
 * routes `GET /r{i}/users/{id}` (a uuid path parameter, a validated JSON response), listens on
 * 127.0.0.1 port 0, and answers its last route once; then it sends the milliseconds that took
 * (after its modules were loaded) and the milliseconds since the process started, and exits.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as honoAdapter from '@lib/router-adapter';
import * as validate from '@lib/validate';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { Type } from '@sinclair/typebox';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import * as z from 'zod';
import { serveOn } from '../http/servers.js';
import { SEED_ID, STARTUP_KINDS, type StartupKind } from '../http/shared.js';


const USER = { id: SEED_ID, name: 'Ada Lovelace', email: 'ada@example.com' };

type Start = (routes: number) => Promise<{ port: number; close(): Promise<void> }>;

function libStart(adapter: 'node' | 'hono'): Start {
  return async (routes) => {
    const userId = codec.string().refine(validate.uuid);
    const user = codec.object({ id: userId, name: codec.string().refine(validate.minLength(1)), email: codec.string().refine(validate.email) });
    const api = rest.newServer({ title: 'startup', version: '1.0.0' });
    for (let i = 0; i < routes; i++) {
      rest
        .route({ method: 'GET', path: `/r${i}/users/{id}`, pathParams: { id: userId }, response: user })
        .withHandler((_ctx, req) => ({ ...USER, id: req.id }))
        .register(api);
    }
    const transport =
      adapter === 'node' ? nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }) : honoAdapter.newServerTransport({ router: new Hono(), addr: '127.0.0.1:0' });
    return serveOn(api, transport);
  };
}

const START: Record<StartupKind, Start> = {
  lib: libStart('node'),
  libHono: libStart('hono'),
  fastify: async (routes) => {
    const User = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String({ minLength: 1 }), email: Type.String({ format: 'email' }) });
    const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });
    const app = Fastify({ logger: false });
    for (let i = 0; i < routes; i++) {
      app.get<{ Params: { id: string } }>(`/r${i}/users/:id`, { schema: { params: Params, response: { 200: User } } }, async (req) => ({ ...USER, id: req.params.id }));
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  },
  hono: async (routes) => {
    const params = z.object({ id: z.uuid() });
    const app = new Hono();
    for (let i = 0; i < routes; i++) app.get(`/r${i}/users/:id`, zValidator('param', params), (c) => c.json({ ...USER, id: c.req.valid('param').id }));
    return new Promise((resolve) => {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
        resolve({ port: info.port, close: () => new Promise<void>((done) => (server as Server).close(() => done())) });
      });
    });
  },
  express: async (routes) => {
    const params = z.object({ id: z.uuid() });
    const app = express();
    for (let i = 0; i < routes; i++) {
      app.get(`/r${i}/users/:id`, (req, res) => {
        const p = params.safeParse(req.params);
        if (!p.success) return void res.status(400).json({ error: 'invalid id' });
        res.json({ ...USER, id: p.data.id });
      });
    }
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((done) => server.close(() => done())) };
  },
};

const [kind, count] = [process.argv[2] as StartupKind, Number(process.argv[3])];
try {
  if (!STARTUP_KINDS.includes(kind) || !Number.isInteger(count) || count < 1) throw new Error(`usage: child.ts <${STARTUP_KINDS.join('|')}> <routes>`);
  const t0 = performance.now();
  const server = await START[kind](count);
  const res = await fetch(`http://127.0.0.1:${server.port}/r${count - 1}/users/${SEED_ID}`, { headers: { connection: 'close' } });
  const body = (await res.json()) as { id?: string };
  if (res.status !== 200 || body.id !== SEED_ID) throw new Error(`${kind}: the last route answered ${res.status}`);
  const t1 = performance.now();
  process.send?.({ ok: true, ready: t1 - t0, sinceStart: t1 });
  await server.close();
  process.exit(0);
} catch (err) {
  process.send?.({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}
