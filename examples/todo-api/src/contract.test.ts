// The todo service keeps its contract: @lib/testing sends generated valid and invalid requests to
// every route, on both server transports, signed in with a session cookie, and checks each answer
// against the declarations. Every route reaches a success: a todo is read, replaced, updated and
// deleted in the tenant (X-Tenant-ID) it was created in, with the id its creation answered.
import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';
import * as honoAdapter from '@lib/router-adapter';
import * as testing from '@lib/testing';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { buildApi } from './todos.js';

async function served(api: rest.Server, adapter: 'node-http' | 'router-adapter'): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const transport = adapter === 'node-http' ? nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }) : honoAdapter.newServerTransport({ router: new Hono(), addr: '127.0.0.1:0' });
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  const { host, port } = await transport.listening();
  return { baseURL: `http://${host}:${port}`, stop: () => (stop.abort(), done) };
}

describe('todo-api keeps its contract', () => {
  for (const adapter of ['node-http', 'router-adapter'] as const) {
    it(`on ${adapter}`, async () => {
      const api = buildApi();
      const server = await served(api, adapter);
      // Signed in once: the session cookie goes with every request that does not generate its own.
      const signIn = async (): Promise<testing.RequestCredentials> => {
        const res = await fetch(`${server.baseURL}/api/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: 'checker' }) });
        const session = decodeURIComponent(/session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '');
        return { cookies: { session } };
      };
      try {
        // Rejects on a broken contract, or on a route that never answered a valid request with a success.
        const report = await testing.assertServer({ api, baseURL: server.baseURL, runs: 40, seed: 1, credentials: signIn });
        console.log(`todo-api on ${adapter}:\n${testing.formatReport(report)}`);
        expect(report.reach.map((r) => r.operationId)).toEqual(['signIn', 'createTodo', 'getTodo', 'putTodo', 'listTodos', 'updateTodo', 'deleteTodo']);
      } finally {
        await server.stop();
      }
    }, 60_000);
  }
});
