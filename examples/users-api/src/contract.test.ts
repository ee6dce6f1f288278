// The users service keeps its contract: @lib/testing sends generated valid and invalid requests to
// every route, on both server transports, and checks every answer against the declarations. The
// secured routes are also called without the bearer token and with a tampered one (401 each), and
// getUser, where sign-in is optional, anonymously too. Every route reaches a success: createSession
// signs in with an e-mail createUser registered, and getMe reads with the session cookie it set.
import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';
import * as honoAdapter from '@lib/router-adapter';
import * as testing from '@lib/testing';
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signToken } from './auth.js';
import { buildApi } from './server.js';

const secret = randomBytes(32).toString('hex');

async function served(api: rest.Server, adapter: 'node-http' | 'router-adapter'): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const transport = adapter === 'node-http' ? nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }) : honoAdapter.newServerTransport({ router: new Hono(), addr: '127.0.0.1:0' });
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  const { host, port } = await transport.listening();
  return { baseURL: `http://${host}:${port}`, stop: () => (stop.abort(), done) };
}

describe('users-api keeps its contract', () => {
  for (const adapter of ['node-http', 'router-adapter'] as const) {
    it(`on ${adapter}`, async () => {
      const api = buildApi(secret);
      const server = await served(api, adapter);
      try {
        // Rejects on a broken contract, or on a route that never answered a valid request with a success.
        const report = await testing.assertServer({
          api,
          baseURL: server.baseURL,
          runs: 40,
          seed: 1,
          credentials: { headers: { authorization: `Bearer ${signToken({ sub: 'admin', exp: Math.floor(Date.now() / 1000) + 600 }, secret)}` } },
        });
        console.log(`users-api on ${adapter}:\n${testing.formatReport(report)}`);
        expect(report.reach.map((r) => r.operationId).sort()).toEqual(['createSession', 'createUser', 'deleteUser', 'findUserByEmail', 'getMe', 'getUser', 'listUsers', 'userEvents']);
        // The session getMe read with came from the API's own answers: no credential for it was given.
        expect(report.reach.find((r) => r.operationId === 'getMe')?.statuses['200']).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    }, 60_000);
  }
});
