// The files service keeps its contract: @lib/testing sends generated valid and invalid requests to
// every route (raw and multipart uploads included), on both server transports, and checks each
// answer against the declarations. Every route reaches a success; getReport's only report is a
// fixture no route creates, so the run starts knowing its id.
import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';
import * as honoAdapter from '@lib/router-adapter';
import * as testing from '@lib/testing';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { buildApi, Q3_REPORT } from './server.js';

async function served(api: rest.Server, adapter: 'node-http' | 'router-adapter'): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const transport = adapter === 'node-http' ? nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }) : honoAdapter.newServerTransport({ router: new Hono(), addr: '127.0.0.1:0' });
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  const { host, port } = await transport.listening();
  return { baseURL: `http://${host}:${port}`, stop: () => (stop.abort(), done) };
}

describe('files-api keeps its contract', () => {
  for (const adapter of ['node-http', 'router-adapter'] as const) {
    it(`on ${adapter}`, async () => {
      const api = buildApi();
      const server = await served(api, adapter);
      try {
        // Rejects on a broken contract, or on a route that never answered a valid request with a success.
        const report = await testing.assertServer({ api, baseURL: server.baseURL, runs: 30, seed: 1, records: [{ id: Q3_REPORT.id }] });
        console.log(`files-api on ${adapter}:\n${testing.formatReport(report)}`);
        expect(report.reach.map((r) => r.operationId)).toEqual(['postAvatarForm', 'putAvatar', 'getAvatar', 'getReport', 'exportRows']);
      } finally {
        await server.stop();
      }
    }, 90_000);
  }
});
