/** What every server of the HTTP benchmark shares: the seeded user, the request bodies, the IPC messages. */

/** The one user `GET /users/:id` finds. */
export const SEED_ID = '5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c11';

export interface BenchUser {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
}

/** A store holding the seeded user. POSTed users are answered but not stored (memory stays flat). */
export function seedStore(): Map<string, BenchUser> {
  return new Map([[SEED_ID, { id: SEED_ID, name: 'Ada Lovelace', email: 'ada@example.com', createdAt: new Date('2024-02-29T12:00:00.000Z') }]]);
}

/** What `GET /users` answers: 200 users, each as `GET /users/:id` gives one. */
export const LIST: BenchUser[] = Array.from({ length: 200 }, (_, i) => ({
  id: `${SEED_ID.slice(0, -3)}${String(i).padStart(3, '0')}`,
  name: `User number ${i}`,
  email: `user${i}@example.com`,
  createdAt: new Date(Date.UTC(2024, 1, 1 + (i % 28), 12, i % 60)),
}));

/** What `POST /users` answers for a valid body. */
export function createdUser(input: { name: string; email: string }): BenchUser {
  return { id: crypto.randomUUID(), name: input.name, email: input.email, createdAt: new Date() };
}

/** The POST body every load generator sends. */
export const POST_BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' });

/** A POST body every server refuses with 400: an empty name and an address that is not one. */
export const INVALID_BODY = JSON.stringify({ name: '', email: 'not an address' });

/** The headers @lib's own client sends for these routes; every server gets the same. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json' } as const;
export const GET_HEADERS = { accept: 'application/json' } as const;

/** The ajv-formats e-mail and uuid checks (the raw server's hand validation uses them). */
export const EMAIL_RE =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The servers, by the name the child process is started with. */
export const SERVER_KINDS = ['lib', 'libHono', 'raw', 'fastify', 'hono', 'express'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** The servers of the startup benchmark (raw node:http has no route declarations to time). */
export const STARTUP_KINDS = ['lib', 'libHono', 'fastify', 'hono', 'express'] as const;
export type StartupKind = (typeof STARTUP_KINDS)[number];

export const SERVER_LABELS: Record<ServerKind, string> = {
  lib: '@lib/rest + @lib/node-http',
  libHono: '@lib/rest + @lib/router-adapter (on hono)',
  raw: 'node:http, hand validation (ceiling)',
  fastify: 'fastify 5 + TypeBox schemas',
  hono: 'hono 4 + @hono/zod-validator',
  express: 'express 5 + zod',
};

/** A started server. */
export interface Started {
  readonly port: number;
  close(): Promise<void>;
}

/** Child → parent. */
export type ChildMessage =
  | { readonly type: 'ready'; readonly port: number }
  | {
      readonly type: 'usage';
      /** `process.memoryUsage()`: resident set and V8 heap in use, bytes. */
      readonly rss: number;
      readonly heapUsed: number;
      /** Peak resident set so far (`process.resourceUsage().maxRSS`), bytes. */
      readonly maxRss: number;
      /** `process.cpuUsage()`: user + system CPU time of the process so far, microseconds. */
      readonly cpu: number;
      /** V8 heap in use right after a full garbage collection (what the process retains), bytes. */
      readonly heapAfterGc?: number;
    }
  | { readonly type: 'error'; readonly message: string };

/** Parent → child. */
export type ParentMessage = { readonly type: 'usage'; readonly gc?: boolean } | { readonly type: 'stop' };
