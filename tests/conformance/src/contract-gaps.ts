/**
 * The last places where a reasonable route, handler or client meets a surprise, each checked
 * over real HTTP: the headers a handler set do not leak into an unexpected 500, metadata cannot
 * change after registration, dot segments route alike on both adapters, a security function sees
 * the request, the client reports a transport failure apart from a pre-flight one, calls one
 * route per item of a stream, and the document keeps its promises (WWW-Authenticate, handlers,
 * response constraints in development, an errorHandler's undeclared body).
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, readReply } from './raw-socket.js';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

class Conflict extends Error {}

const item = codec.object({ id: codec.string(), name: codec.string().refine(validate.minLength(3)) });

/** Sets a header and a cookie through the context, then throws what `?fail=` says. */
const leaky = rest.route({ method: 'GET', path: '/g/leaky', query: { fail: codec.string() }, response: codec.object({ ok: codec.boolean() }), errors: [rest.errorStatus(Conflict, 409)] });
/** Secured by a requirement whose array the caller empties after registration. */
const securityArray = [{ bearerAuth: [] as string[] }];
const tags = ['stable'];
const guarded = rest.newRoute('GET', '/g/guarded', codec.empty<object>(), codec.object({ ok: codec.boolean() }), rest.routeMeta({ operationId: 'guarded', security: securityArray, tags }));
/** What the security function saw of the request. */
const seen = rest.route({ method: 'GET', path: '/g/seen', response: codec.object({ method: codec.string(), path: codec.string(), forwarded: codec.string() }), security: [{ bearerAuth: [] }] });
const getItem = rest.route({ method: 'GET', path: '/g/items/{id}', pathParams: { id: codec.string() }, query: { tag: codec.optional(codec.string()) }, response: item });
/** Answers a body that breaks its documented constraint (`name` shorter than 3). */
const shortName = rest.route({ method: 'GET', path: '/g/short', response: item });

export function contractGaps(adapter: AdapterUnderTest): void {
  describe(`contract gaps: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let doc: { paths: Record<string, Record<string, { tags?: string[]; security?: unknown; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }> }>> } = { paths: {} };
    const requests: { method: string; path: string; forwarded: string }[] = [];

    beforeAll(async () => {
      const api = rest.newServer(
        { title: 'Gaps', version: '1.0.0' },
        rest.withDefaultOptions({
          securityFunc: (ctx, request) => {
            if (rest.bearerScheme().credential(ctx) === undefined && request === undefined) throw new Error('no credential');
            const url = request === undefined ? undefined : new URL(request.url);
            requests.push({ method: request?.method ?? '', path: url?.pathname ?? '', forwarded: request?.headers.get('x-forwarded-for') ?? '' });
          },
        }),
      );
      api.addSecurityScheme('bearerAuth', rest.bearerScheme());
      leaky
        .withHandler((ctx, req) => {
          rest.responseHeadersFromContext(ctx)?.set('location', '/somewhere');
          nodeHttp.withResponseCookies(ctx, { name: 'session', value: 'secret-session' });
          if (req.fail === 'conflict') throw new Conflict('taken');
          if (req.fail === 'crash') throw new Error('database password leaked');
          return { ok: true };
        })
        .register(api);
      guarded.withHandler(() => ({ ok: true })).register(api);
      seen
        .withHandler(() => {
          const r = requests.at(-1) as { method: string; path: string; forwarded: string };
          return { method: r.method, path: r.path, forwarded: r.forwarded };
        })
        .register(api);
      getItem.withHandler((_ctx, r) => ({ id: r.id, name: `item ${r.id}${r.tag === undefined ? '' : ` #${r.tag}`}` })).register(api);
      shortName.withHandler(() => ({ id: 'x', name: 'ab' })).register(api);
      // Registered: what the caller does with its arrays from now on changes nothing.
      securityArray.length = 0;
      tags.push('mutated');
      doc = JSON.parse(api.openAPISpec().marshalJSON()) as typeof doc;
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(() => stop());

    it('drops the headers and cookies a handler set from a response it did not produce', async () => {
      const crash = await fetch(`${base}/g/leaky?fail=crash`, { redirect: 'manual' });
      expect(crash.status).toBe(500);
      expect(crash.headers.get('location')).toBeNull();
      expect(crash.headers.getSetCookie()).toEqual([]);
      // An error the route declares is the handler's answer: what it set goes with it.
      const conflict = await fetch(`${base}/g/leaky?fail=conflict`, { redirect: 'manual' });
      expect(conflict.status).toBe(409);
      expect(conflict.headers.get('location')).toBe('/somewhere');
      expect(conflict.headers.getSetCookie()).toHaveLength(1);
    });

    it('enforces and documents the security and tags as registered, whatever the caller does with its arrays after', async () => {
      expect((await fetch(`${base}/g/guarded`)).status).toBe(401);
      expect(doc.paths['/g/guarded']?.get?.security).toEqual([{ bearerAuth: [] }]);
      expect(doc.paths['/g/guarded']?.get?.tags).toEqual(['stable']);
    });

    it('documents the WWW-Authenticate header of a 401 for an HTTP scheme', () => {
      expect(Object.keys(doc.paths['/g/guarded']?.get?.responses['401']?.headers ?? {})).toEqual(['WWW-Authenticate']);
    });

    it('routes a path with dot segments as its normal form, alike on both adapters', async () => {
      for (const target of ['/g/x/../items/a1', '/g/items/./a1', '/g/items/%2e/a1', '/x/y/../../g/items/a1']) {
        const s = await open(base);
        s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        const reply = await readReply(s, 5000);
        s.destroy();
        expect([target, reply.status, reply.body]).toEqual([target, 200, '{"id":"a1","name":"item a1"}']);
      }
    });

    it('gives securityFunc the request: method, URL and headers', async () => {
      const res = await fetch(`${base}/g/seen`, { headers: { authorization: 'Bearer t', 'x-forwarded-for': '203.0.113.7' } });
      expect(await res.json()).toEqual({ method: 'GET', path: '/g/seen', forwarded: '203.0.113.7' });
    });

    it('answers a response that breaks a documented constraint with 500 in development', async () => {
      expect(process.env.NODE_ENV).not.toBe('production');
      const res = await fetch(`${base}/g/short`);
      expect(res.status).toBe(500);
    });

    describe('the client', () => {
      const client = rest.newClient();
      beforeAll(() => client.attach(clientTransport({ baseURL: base })));

      it('calls a route once per item of an async iterable, from each item or from fixed variables', async () => {
        async function* ids(): AsyncGenerator<{ id: string; tag?: string }> {
          yield { id: 'a' };
          yield { id: 'b', tag: 'new' };
        }
        const out: string[] = [];
        for await (const r of client.callEach(getItem, ids())) out.push(r.name);
        expect(out).toEqual(['item a', 'item b #new']);
        const fixed: string[] = [];
        for await (const r of client.callEach(getItem, [{ id: 'ignored' }, { id: 'ignored too' }], { vars: { id: 'z', tag: 't' } })) fixed.push(r.name);
        expect(fixed).toEqual(['item z #t', 'item z #t']);
        // A fixed value a parameter's codec refuses fails as a call would, before sending.
        const refused = await (async () => {
          for await (const _ of client.callEach(getItem, [{ id: 'a' }], { vars: { id: '' } })) return 'sent';
          return 'none';
        })().catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(rest.PathParamError);
      });

      it('reports a call that was sent and got no response as onRequestError, and status 0 only for one never sent', async () => {
        const responses: number[] = [];
        const failures: unknown[] = [];
        const observer: rest.Observer = { onResponse: (i) => responses.push(i.status), onRequestError: (i) => failures.push(i.error) };
        const dead = rest.newClient({ observer });
        dead.attach(clientTransport({ baseURL: 'http://127.0.0.1:1' }));
        await expect(dead.call(getItem, { id: 'a' })).rejects.toBeInstanceOf(nodeHttp.RequestError);
        expect(responses).toEqual([]);
        expect(failures).toHaveLength(1);
        await expect(dead.call(getItem, { id: '' })).rejects.toBeInstanceOf(rest.PathParamError);
        expect(responses).toEqual([0]);
      });
    });

    describe('serving what the document promises', () => {
      it('refuses to serve a route registered without a handler, naming it', async () => {
        const api = rest.newServer({ title: 'Half', version: '1.0.0' });
        getItem.withHandler((_ctx, r) => ({ id: r.id, name: 'abc' })).register(api);
        shortName.register(api);
        await expect(adapter.serve(api)).rejects.toThrow(/GET \/g\/short.*registered without a handler/);
      });

      it('sends a body that breaks a constraint in production, where the check is off', async () => {
        const saved = process.env.NODE_ENV;
        process.env.NODE_ENV = 'production';
        try {
          const api = rest.newServer({ title: 'Prod', version: '1.0.0' });
          shortName.withHandler(() => ({ id: 'x', name: 'ab' })).register(api);
          const one = await adapter.serve(api);
          try {
            const res = await fetch(`${one.baseURL}/g/short`);
            expect([res.status, await res.json()]).toEqual([200, { id: 'x', name: 'ab' }]);
          } finally {
            await one.stop();
          }
        } finally {
          if (saved === undefined) delete process.env.NODE_ENV;
          else process.env.NODE_ENV = saved;
        }
      });

      it('documents the error responses of an errorHandler without errorBody with no schema of its own', () => {
        const api = rest.newServer({ title: 'Custom', version: '1.0.0' }, rest.withDefaultOptions({ errorHandler: (_ctx, err, status) => ({ body: { problem: String(err), status } }) }));
        getItem.withHandler((_ctx, r) => ({ id: r.id, name: 'abc' })).register(api);
        const custom = JSON.parse(api.openAPISpec().marshalJSON()) as typeof doc;
        const responses = custom.paths['/g/items/{id}']?.get?.responses ?? {};
        const schema = responses['406']?.content?.['application/json']?.schema;
        expect(schema).toEqual({ description: expect.stringMatching(/not declared/) });
        // Only the 500 also names the default envelope: what goes out when the errorHandler itself fails.
        expect(JSON.stringify(responses['500'])).toContain('ErrorEnvelope');
      });
    });
  });
}
