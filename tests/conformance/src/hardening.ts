/**
 * Hardening: what a hostile or broken peer, a broken handler or a shutdown must never do to a
 * server — crash it, hang it, make it send a body its codec refuses, or leak an error's text.
 * One test per defect found by attacking the server; adapter-agnostic, like {@link conformance}.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { responseHeadersKey } from '@lib/rest/pipeline';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, readReply } from './raw-socket.js';
import type { AdapterUnderTest } from './suite.js';

/** An error asking the errorHandler for a status of its choosing (valid or not). */
class StatusWish extends Error {
  constructor(readonly wish: unknown) {
    super('wish');
  }
}

interface Ref {
  ref: string;
}
const refParam = rest.newRequiredQueryParam('ref', codec.string(), (r: Ref) => r.ref, (r, v) => {
  r.ref = v;
});
const nBody = codec.object({ n: codec.int(), s: codec.string(), when: codec.optional(codec.time()) });
type NBody = codec.Infer<typeof nBody>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function hardeningRoutes(api: rest.Server): void {
  // Copies client input into a response header and a cookie: the crash of the attack report.
  rest
    .newRoute('GET', '/h/echo-header', codec.empty<Ref>(), codec.object({ ok: codec.boolean() }) as codec.Codec<{ ok: boolean; ref?: string }>,
      refParam,
      rest.newOptionalResponseHeaderParam('X-Ref', codec.string(), (r: { ref?: string }) => r.ref, (r, v) => {
        r.ref = v;
      }),
    )
    .withHandler((ctx, req) => {
      ctx.get(responseHeadersKey)?.set('x-handler', 'set-by-handler');
      return { ok: true, ref: req.ref };
    })
    .register(api);
  rest
    .newRoute('GET', '/h/echo-cookie', codec.empty<Ref>(), codec.object({ ok: codec.boolean() }) as codec.Codec<{ ok: boolean; ref?: string }>,
      refParam,
      rest
        .newOptionalResponseCookieParam('ref', codec.string(), (r: { ref?: string }) => r.ref, (r, v) => {
          r.ref = v;
        })
        .withAttributes((r) => ({ domain: r.ref === 'bad-domain' ? 'exa mple.com\r\nx' : 'example.com' })),
    )
    .withHandler((_ctx, req) => ({ ok: true, ref: req.ref }))
    .register(api);
  // Bodies that break their codec's shape.
  rest
    .newRoute('GET', '/h/shape', codec.empty<Ref>(), nBody, refParam)
    .withHandler((_ctx, req): NBody => {
      const bad: Record<string, unknown> = {
        nan: { n: NaN, s: 'x' },
        infinity: { n: Infinity, s: 'x' },
        fraction: { n: 1.5, s: 'x' },
        unsafe: { n: 2 ** 60, s: 'x' },
        type: { n: 1, s: 42 },
        missing: { n: 1 },
        date: { n: 1, s: 'x', when: new Date('nope') },
        ok: { n: 1, s: 'x' },
      };
      return bad[req.ref] as NBody;
    })
    .register(api);
  // Constraints on responses: checked only with validateResponses (on by default in development, as here).
  const short = codec.object({ s: codec.string().refine(validate.minLength(5)) });
  rest.newRoute('GET', '/h/lenient', codec.empty<object>(), short).withOptions({ validateResponses: false }).withHandler(() => ({ s: 'ab' })).register(api);
  rest.newRoute('GET', '/h/strict', codec.empty<object>(), short).withOptions({ validateResponses: true }).withHandler(() => ({ s: 'ab' })).register(api);
  // errorHandler statuses and bodies.
  rest
    .newRoute('GET', '/h/status', codec.empty<Ref>(), codec.empty<object>(), refParam, rest.errorStatus(StatusWish, 422))
    .withOptions({ errorHandler: (_ctx, err) => ({ status: (err as StatusWish).wish as number, body: { error: 'wished' } }) })
    .withHandler((_ctx, req) => {
      const wishes: Record<string, unknown> = { '99': 99, '1000': 1000, nan: NaN, str: '503', '200': 200, '503': 503, '409': 409, '450.5': 450.5 };
      throw new StatusWish(wishes[req.ref]);
    })
    .register(api);
  rest
    .newRoute('GET', '/h/bad-envelope', codec.empty<object>(), codec.empty<object>())
    .withOptions({ errorHandler: () => ({ body: { error: 10n } }) })
    .withHandler(() => {
      throw new Error('x');
    })
    .register(api);
  rest
    .newRoute('GET', '/h/throwing-handler', codec.empty<object>(), codec.empty<object>())
    .withOptions({
      errorHandler: () => {
        throw new Error('the error handler is broken: secret');
      },
    })
    .withHandler(() => {
      throw new Error('x');
    })
    .register(api);
  rest
    .newRoute('GET', '/h/throwing-map', codec.empty<object>(), codec.empty<object>(),
      rest.errorPattern(StatusWish, 409, codec.object({ error: codec.string() }), () => {
        throw new Error('mapFn is broken: secret');
      }),
    )
    .withHandler(() => {
      throw new StatusWish(1);
    })
    .register(api);
  rest
    .newRoute('GET', '/h/bad-pattern-body', codec.empty<object>(), codec.empty<object>(),
      rest.errorPattern(StatusWish, 409, codec.object({ error: codec.string() }), () => ({ error: 42 as unknown as string })),
    )
    .withHandler(() => {
      throw new StatusWish(1);
    })
    .register(api);
  // Built-in statuses by class, never by name.
  rest
    .newRoute('GET', '/h/middleware-name', codec.empty<object>(), codec.empty<object>())
    .withHandler(() => {
      const e = new Error('secret token sk-123 leaked');
      e.name = 'MiddlewareError';
      throw e;
    })
    .register(api);
  rest
    .newRoute('GET', '/h/middleware-class', codec.empty<object>(), codec.empty<object>())
    .withHandler(() => {
      throw new rest.MiddlewareError('auth', new Error('token expired'));
    })
    .register(api);
  // Early replies to uploads.
  rest.newRoute('POST', '/h/upload', codec.object({ a: codec.string() }), codec.object({ a: codec.string() })).withHandler((_ctx, req) => req).register(api);
}

export function hardening(adapter: AdapterUnderTest): void {
  describe(`hardening: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    const unhandled: unknown[] = [];
    const record = (e: unknown): void => {
      unhandled.push(e);
    };

    beforeAll(async () => {
      process.on('unhandledRejection', record);
      process.on('uncaughtException', record);
      const api = rest.newServer({ title: 'Hardening', version: '1.0.0' });
      hardeningRoutes(api);
      rest.newRoute('GET', '/h/health', codec.empty<object>(), codec.object({ ok: codec.boolean() })).withHandler(() => ({ ok: true })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(async () => {
      await stop();
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    });

    const healthy = async (): Promise<void> => {
      const res = await fetch(`${base}/h/health`);
      expect(res.status).toBe(200);
    };

    describe('response headers and cookies copied from input', () => {
      for (const [label, value] of [
        ['a character above U+00FF', '%E2%98%83'],
        ['CR LF', 'a%0D%0AInjected:%201'],
        ['a control character', '%01'],
        ['a NUL', 'a%00b'],
        ['a leading space', '%20a'],
      ] as const) {
        it(`answers 500 for ${label} in a response header, drops the handler's headers, and stays up`, async () => {
          const res = await fetch(`${base}/h/echo-header?ref=${value}`);
          expect(res.status).toBe(500);
          expect(await res.json()).toEqual({ error: 'internal server error' });
          expect(res.headers.get('x-ref')).toBeNull();
          expect(res.headers.get('injected')).toBeNull();
          expect(res.headers.get('x-handler')).toBeNull();
          await healthy();
        });
      }

      it('sends a valid value, with the handler-set headers', async () => {
        const res = await fetch(`${base}/h/echo-header?ref=ok%20value`);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ref')).toBe('ok value');
        expect(res.headers.get('x-handler')).toBe('set-by-handler');
      });

      it('percent-encodes any cookie value, and answers 500 for an attribute the cookie grammar refuses', async () => {
        const res = await fetch(`${base}/h/echo-cookie?ref=%E2%98%83%0D%0A;%20x=1`);
        expect(res.status).toBe(200);
        expect(res.headers.getSetCookie()).toEqual(['ref=%E2%98%83%0D%0A%3B%20x%3D1; Domain=example.com; Path=/; HttpOnly; Secure; SameSite=Strict']);
        const bad = await fetch(`${base}/h/echo-cookie?ref=bad-domain`);
        expect(bad.status).toBe(500);
        expect(bad.headers.getSetCookie()).toEqual([]);
        await healthy();
      });
    });

    describe('response bodies that break their codec', () => {
      for (const kind of ['nan', 'infinity', 'fraction', 'unsafe', 'type', 'missing', 'date']) {
        it(`answers 500, never an altered body, for ${kind}`, async () => {
          const res = await fetch(`${base}/h/shape?ref=${kind}`);
          expect(res.status).toBe(500);
          expect(await res.json()).toEqual({ error: 'internal server error' });
        });
      }

      it('sends a valid body unchanged', async () => {
        const res = await fetch(`${base}/h/shape?ref=ok`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ n: 1, s: 'x' });
      });

      it('checks response constraints only with validateResponses', async () => {
        const lenient = await fetch(`${base}/h/lenient`);
        expect(lenient.status).toBe(200);
        expect(await lenient.json()).toEqual({ s: 'ab' });
        const strict = await fetch(`${base}/h/strict`);
        expect(strict.status).toBe(500);
        expect(await strict.json()).toEqual({ error: 'internal server error' });
      });
    });

    describe('error handlers and patterns that misbehave', () => {
      for (const [wish, expected] of [
        ['99', 422],
        ['1000', 422],
        ['nan', 422],
        ['str', 422],
        ['200', 422],
        ['450.5', 422],
        ['503', 503],
        ['409', 409],
      ] as const) {
        it(`uses an errorHandler status ${wish} only when it is an integer 400–599 (→ ${expected})`, async () => {
          const res = await fetch(`${base}/h/status?ref=${wish}`);
          expect(res.status).toBe(expected);
          expect(await res.json()).toEqual({ error: 'wished' });
        });
      }

      for (const path of ['/h/bad-envelope', '/h/throwing-handler', '/h/throwing-map', '/h/bad-pattern-body']) {
        it(`answers the default 500 envelope for ${path}`, async () => {
          const res = await fetch(`${base}${path}`);
          expect(res.status).toBe(500);
          const text = await res.text();
          expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
          expect(text).not.toMatch(/secret/);
        });
      }
    });

    describe('built-in statuses', () => {
      it('maps by class, so an error merely named MiddlewareError is a hidden 500', async () => {
        const res = await fetch(`${base}/h/middleware-name`);
        expect(res.status).toBe(500);
        const text = await res.text();
        expect(JSON.parse(text)).toEqual({ error: 'internal server error' });
        expect(text).not.toMatch(/secret|sk-123/);
      });

      it('answers 400 with the message for a real MiddlewareError', async () => {
        const res = await fetch(`${base}/h/middleware-class`);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: 'middleware "auth": token expired' });
      });
    });

    describe('early replies to uploads', () => {
      const GiB = 1024 ** 3;
      for (const [label, head, status] of [
        ['404', `POST /h/nowhere HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${GiB}\r\n\r\n`, 404],
        ['405', `PUT /h/upload HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${GiB}\r\n\r\n`, 405],
        ['406', `POST /h/upload HTTP/1.1\r\nHost: t\r\nAccept: application/xml\r\nContent-Type: application/json\r\nContent-Length: ${GiB}\r\n\r\n`, 406],
        ['415', `POST /h/upload HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: ${GiB}\r\n\r\n`, 415],
        ['415, chunked', `POST /h/upload HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n10000\r\n`, 415],
      ] as const) {
        it(`answers ${label} with Connection: close and closes without reading the upload`, async () => {
          const socket = await open(base);
          socket.on('error', () => undefined);
          const reply = readReply(socket, 3000, true);
          socket.write(head);
          socket.write(Buffer.alloc(64 * 1024, 0x61));
          const r = await reply;
          socket.destroy();
          expect(r.status).toBe(status);
          expect(r.headers.connection).toBe('close');
          expect(JSON.parse(r.body)).toHaveProperty('error');
          expect(r.closedByServer).toBe(true);
        });
      }

      it('keeps the connection open after a reply to a request without a body', async () => {
        const socket = await open(base);
        const first = readReply(socket);
        socket.write('GET /h/nowhere HTTP/1.1\r\nHost: t\r\n\r\n');
        expect((await first).status).toBe(404);
        const second = readReply(socket);
        socket.write('GET /h/health HTTP/1.1\r\nHost: t\r\n\r\n');
        expect((await second).status).toBe(200);
        socket.destroy();
      });
    });

    it('saw no unhandled rejection or uncaught exception', () => {
      expect(unhandled).toEqual([]);
    });
  });

  describe(`graceful shutdown: ${adapter.name}`, () => {
    it('answers 20 in-flight requests and closes a stalled half-request, well within the deadline', async () => {
      let started = 0;
      const api = rest.newServer({ title: 'Shutdown', version: '1.0.0' });
      rest
        .newRoute('GET', '/slow/{i}', codec.empty<{ i: number }>(), codec.object({ i: codec.int() }),
          rest.newPathParam('i', codec.intString(), (r) => r.i, (r, v) => {
            r.i = v;
          }),
        )
        .withHandler(async (_ctx, req) => {
          started++;
          await sleep(400);
          return { i: req.i };
        })
        .register(api);
      const served = await adapter.serve(api, { shutdownTimeout: 5000 });
      const calls = Array.from({ length: 20 }, (_, i) => fetch(`${served.baseURL}/slow/${i}`).then(async (r) => [r.status, await r.json()] as const));
      const stalled = await open(served.baseURL);
      stalled.on('error', () => undefined);
      const stalledClosed = new Promise<void>((r) => stalled.once('close', () => r()));
      stalled.write('GET /slow/1 HTTP/1.1\r\nHost: t\r\nX-Half: ');
      while (started < 20) await sleep(10);
      const t0 = performance.now();
      await served.stop();
      const took = performance.now() - t0;
      const results = await Promise.all(calls);
      expect(results).toEqual(Array.from({ length: 20 }, (_, i) => [200, { i }]));
      await stalledClosed;
      expect(took).toBeLessThan(3000);
    });

    it('destroys what is still open at the deadline, aborting ctx.signal, and always resolves', async () => {
      let running = false;
      let aborted = false;
      const api = rest.newServer({ title: 'Shutdown', version: '1.0.0' });
      rest
        .newRoute('GET', '/hang', codec.empty<object>(), codec.object({ ok: codec.boolean() }))
        .withHandler(async (ctx) => {
          running = true;
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
          aborted = true;
          return { ok: false };
        })
        .register(api);
      const served = await adapter.serve(api, { shutdownTimeout: 300 });
      const call = fetch(`${served.baseURL}/hang`).then(
        (r) => r.status,
        () => 'connection closed',
      );
      while (!running) await sleep(10);
      const t0 = performance.now();
      await served.stop();
      const took = performance.now() - t0;
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(2000);
      expect(await call).toBe('connection closed');
      await sleep(20);
      expect(aborted).toBe(true);
    });
  });
}
