/**
 * Response headers on an error response (`errorPattern(...).withHeaders(entries, headersOf)`, as
 * a 429 with `Retry-After` and `RateLimit`) over real HTTP: the server writes them with the typed
 * body; the typed client decodes them (`safeCall`'s `headers`, `ErrorPatternResponse.headers`);
 * a gateway that rethrows a client's `ErrorPatternResponse` passes them on; a required header the
 * server leaves out is its own contract broken (500); the document lists them under the status,
 * required only where every answer of the status sends them.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

class RateLimited extends Error {
  constructor(
    readonly seconds: number,
    readonly policy?: string,
  ) {
    super('Too many requests');
  }
}
class Invalid extends Error {}
const problem = codec.object({ title: codec.string(), status: codec.int() }).withName('EhProblem');
const tooMany = rest
  .errorPattern(RateLimited, 429, problem, (e) => ({ title: e.message, status: 429 }))
  .withHeaders({ retryAfter: rest.named('Retry-After', codec.intString()), rateLimit: rest.named('RateLimit', codec.optional(codec.string())).withDescription('The quota policy: limit, remaining, reset.') }, (e) => ({ retryAfter: e.seconds, ...(e.policy !== undefined && { rateLimit: e.policy }) }));
const invalid = rest.errorPattern(Invalid, 400, problem, (e) => ({ title: e.message, status: 400 })).withHeaders({ rateLimit: rest.named('RateLimit', codec.string()) }, () => ({ rateLimit: 'limit=10, remaining=9, reset=10' }));
const item = codec.object({ name: codec.string() });
const getItem = rest.route({ method: 'GET', path: '/items/{name}', pathParams: { name: codec.string() }, query: { page: codec.optional(codec.intString()) }, response: item, errors: [tooMany, invalid], meta: { operationId: 'ehGetItem' } });
// The same contract, served by a gateway that calls the first server and rethrows what it gets.
const proxied = rest.route({ method: 'GET', path: '/proxied/{name}', pathParams: { name: codec.string() }, response: item, errors: [tooMany], meta: { operationId: 'ehProxied' } });

export function errorHeaders(adapter: AdapterUnderTest): void {
  describe(`error headers: ${adapter.name}`, () => {
    let base = '';
    let gatewayBase = '';
    const stops: (() => Promise<void>)[] = [];
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Limits', version: '1' });
      getItem
        .withHandler((_ctx, req) => {
          if (req.name === 'busy') throw new RateLimited(120, 'limit=10, remaining=0, reset=120');
          if (req.name === 'quiet') throw new RateLimited(5);
          if (req.name === 'bad') throw new Invalid('Bad name');
          // A required header its error cannot give: the server's own contract broken.
          if (req.name === 'broken') throw new RateLimited(Number.NaN);
          return { name: req.name };
        })
        .register(api);
      const served = await adapter.serve(api);
      base = served.baseURL;
      stops.push(served.stop);
      client.attach(clientTransport({ baseURL: base }));
      const gateway = rest.newServer({ title: 'Gateway', version: '1' });
      proxied.withHandler((_ctx, req) => client.call(getItem, { name: req.name })).register(gateway);
      const g = await adapter.serve(gateway);
      gatewayBase = g.baseURL;
      stops.push(g.stop);
    });
    afterAll(async () => {
      for (const stop of stops) await stop();
    });

    it('writes the headers with the typed body', async () => {
      const res = await fetch(`${base}/items/busy`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('120');
      expect(res.headers.get('ratelimit')).toBe('limit=10, remaining=0, reset=120');
      expect(await res.json()).toEqual({ title: 'Too many requests', status: 429 });
      const quiet = await fetch(`${base}/items/quiet`);
      expect(quiet.status).toBe(429);
      expect(quiet.headers.get('retry-after')).toBe('5');
      expect(quiet.headers.has('ratelimit')).toBe(false);
    });

    it('gives them to the typed client beside the body', async () => {
      const r = await client.safeCall(getItem, { name: 'busy' });
      if (r.ok || r.status !== 429) throw new Error(`expected the declared 429, got ${JSON.stringify(r)}`);
      expect(r.error).toEqual({ title: 'Too many requests', status: 429 });
      expect(r.headers).toEqual({ retryAfter: 120, rateLimit: 'limit=10, remaining=0, reset=120' });
      const err = await client.call(getItem, { name: 'quiet' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(rest.ErrorPatternResponse);
      expect((err as rest.ErrorPatternResponse).headers).toEqual({ retryAfter: 5 });
      // A status whose pattern declares no headers has none in the result.
      const ok = await client.safeCall(getItem, { name: 'fine' });
      expect(ok).toEqual({ ok: true, status: 200, value: { name: 'fine' } });
    });

    it('passes them on where a gateway rethrows the response it got', async () => {
      const res = await fetch(`${gatewayBase}/proxied/busy`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('120');
      expect(res.headers.get('ratelimit')).toBe('limit=10, remaining=0, reset=120');
      expect(await res.json()).toEqual({ title: 'Too many requests', status: 429 });
    });

    it('answers 500 where the server leaves out a required header', async () => {
      const res = await fetch(`${base}/items/broken`);
      expect(res.status).toBe(500);
      expect(res.headers.has('retry-after')).toBe(false);
    });

    it('documents them under the status, required only where every answer sends them', () => {
      type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { required?: boolean; schema?: unknown; description?: string }> }> }>> };
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as Doc;
      const responses = doc.paths['/items/{name}']?.get?.responses ?? {};
      expect(responses['429']?.headers).toEqual({
        'Retry-After': { required: true, schema: { type: 'integer', format: 'double-int' } },
        RateLimit: { description: 'The quota policy: limit, remaining, reset.', schema: { type: 'string' } },
      });
      // The pipeline's own 400 (a query that does not decode) joins the rule's and sends no RateLimit.
      expect(responses['400']?.headers?.['RateLimit']?.required).not.toBe(true);
      expect(responses['200']?.headers).toBeUndefined();
    });

    it('leaves out the headers of a 400 the pipeline answers', async () => {
      const res = await fetch(`${base}/items/x?page=nope`);
      expect(res.status).toBe(400);
      expect(res.headers.has('ratelimit')).toBe(false);
      const bad = await fetch(`${base}/items/bad`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get('ratelimit')).toBe('limit=10, remaining=9, reset=10');
    });
  });
}
