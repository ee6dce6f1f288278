// The users service keeps its contract: @lib/testing sends generated valid and invalid requests to
// every route, on both server transports, and checks every answer against the declarations.
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
        const report = await testing.checkServer({
          api,
          baseURL: server.baseURL,
          runs: 40,
          seed: 1,
          credentials: { headers: { authorization: `Bearer ${signToken({ sub: 'admin', exp: Math.floor(Date.now() / 1000) + 600 }, secret)}` } },
        });
        expect(testing.formatReport(report)).toContain('0 places');
      } finally {
        await server.stop();
      }
    }, 60_000);
  }
});
