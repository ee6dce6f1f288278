/**
 * `Observer.trace` around server requests and client calls: the client's tracer adds a header,
 * the server's reads it, both see the outcome, and handlers run inside the server's `trace`.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

class Gone extends Error {}
const getThing = rest.route({
  method: 'GET',
  path: '/t/things/{id}',
  pathParams: { id: codec.string() },
  response: codec.object({ id: codec.string(), trace: codec.string() }),
  errors: [rest.errorPattern(Gone, 410, codec.object({ error: codec.string() }), (e) => ({ error: e.message }))],
});

export function tracing(adapter: AdapterUnderTest): void {
  describe(`tracing: ${adapter.name}`, () => {
    let server: { baseURL: string; stop(): Promise<void> } | undefined;
    const scope = new AsyncLocalStorage<string>();
    const seen: { kind: string; route: string; path: string; header: string | undefined; status: number; error: boolean }[] = [];
    const tracer = (label: string): rest.Observer => ({
      async trace(start, run) {
        if (start.kind === 'client') start.setHeader('X-Trace-Id', `${label}-1`);
        const end = await scope.run(`${label}:${start.header('x-trace-id') ?? 'none'}`, run);
        seen.push({ kind: start.kind, route: start.route, path: start.path, header: start.header('x-trace-id'), status: end.status, error: end.error !== undefined });
      },
    });
    let client: rest.Client;

    beforeAll(async () => {
      const api = rest.newServer({ title: 'Tracing', version: '1' }, rest.withDefaultOptions({ observer: tracer('server') }));
      getThing
        .withHandler((_ctx, req) => {
          if (req.id === 'gone') throw new Gone('gone');
          return { id: req.id, trace: scope.getStore() ?? 'outside' };
        })
        .register(api);
      server = await adapter.serve(api);
      client = rest.newClient({ observer: tracer('client') });
      client.attach(clientTransport({ baseURL: server.baseURL }));
    });

    afterAll(async () => {
      await server?.stop();
    });

    it("carries the client tracer's header to the server tracer; the handler runs inside the server's trace", async () => {
      seen.length = 0;
      const got = await client.call(getThing, { id: 'a' });
      expect(got).toEqual({ id: 'a', trace: 'server:client-1' });
      expect(seen).toEqual([
        { kind: 'server', route: 'GET /t/things/{id}', path: '/t/things/{id}', header: 'client-1', status: 200, error: false },
        { kind: 'client', route: 'GET /t/things/{id}', path: '/t/things/{id}', header: undefined, status: 200, error: false },
      ]);
    });

    it('hands both tracers the error outcome', async () => {
      seen.length = 0;
      await expect(client.call(getThing, { id: 'gone' })).rejects.toBeInstanceOf(rest.ErrorPatternResponse);
      expect(seen.map((s) => [s.kind, s.status, s.error])).toEqual([
        ['server', 410, true],
        ['client', 410, true],
      ]);
    });

    it('answers as usual when a tracer throws or never runs the request', async () => {
      for (const broken of [{ trace: () => Promise.reject(new Error('down')) }, { trace: () => Promise.resolve() }] satisfies rest.Observer[]) {
        const api = rest.newServer({ title: 'Broken', version: '1' }, rest.withDefaultOptions({ observer: broken }));
        getThing.withHandler((_ctx, req) => ({ id: req.id, trace: 'none' })).register(api);
        const s = await adapter.serve(api);
        try {
          const res = await fetch(`${s.baseURL}/t/things/z`);
          expect(res.status).toBe(200);
          expect(await res.json()).toEqual({ id: 'z', trace: 'none' });
        } finally {
          await s.stop();
        }
      }
    });
  });
}
