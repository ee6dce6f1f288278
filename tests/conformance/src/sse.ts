/**
 * Server-sent events over real HTTP: typed events with ids, types and retry; `Last-Event-ID`
 * and client reconnection; heartbeats; errors before the stream opens (status and body) and
 * after (a final `event: error`); disconnect cleanup over 1000 streams; security on an SSE
 * route; client-side validation of events.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

const userEvent = codec.taggedUnion('kind', {
  created: codec.object({ id: codec.string(), name: codec.string() }),
  deleted: codec.object({ id: codec.string() }),
});
type UserEvent = codec.Infer<typeof userEvent>;

class NoSuchTopic extends Error {
  constructor(readonly topic: string) {
    super(`no topic ${topic}`);
  }
}
const noSuchTopic = codec.object({ error: codec.string(), topic: codec.string() });

interface FeedReq {
  topic: string;
  count?: number;
  failAfter?: number;
  wait?: number;
}
const feedParams = [
  rest.newPathParam('topic', codec.string(), (r: FeedReq) => r.topic, (r, v) => {
    r.topic = v;
  }),
  rest.newOptionalQueryParam('count', codec.intString(), (r: FeedReq) => r.count, (r, v) => {
    r.count = v;
  }),
  rest.newOptionalQueryParam('failAfter', codec.intString(), (r: FeedReq) => r.failAfter, (r, v) => {
    r.failAfter = v;
  }),
  rest.newOptionalQueryParam('wait', codec.intString(), (r: FeedReq) => r.wait, (r, v) => {
    r.wait = v;
  }),
] as const;

/** Events 1..count of a topic, from after `lastEventId`; `failAfter` throws once that many were sent; `wait` idles first (ms). */
const feed = rest.newSSERoute(
  'GET',
  '/sse/{topic}',
  codec.empty<FeedReq>(),
  userEvent,
  ...feedParams,
  rest.errorPattern(NoSuchTopic, 404, noSuchTopic, (e) => ({ error: e.message, topic: e.topic })),
  rest.formats(
    format.sse(userEvent, {
      heartbeatMs: 40,
      openAfterMs: 100,
      errorEvent: { codec: codec.object({ error: codec.string(), retryable: codec.boolean() }), map: (err) => ({ error: err instanceof NoSuchTopic ? err.message : 'the feed failed', retryable: true }) },
    }),
  ),
);
/** The same feed, read with a stricter event codec: a `created` event must have a non-empty name of at most 3 characters. */
const strictFeed = rest.newSSERoute(
  'GET',
  '/sse/{topic}',
  codec.empty<FeedReq>(),
  codec.taggedUnion('kind', {
    created: codec.object({ id: codec.string(), name: codec.string().refine({ name: 'short', test: (s: string) => s.length <= 3, message: () => 'must be short', params: {} } as unknown as codec.Constraint<string>) }),
    deleted: codec.object({ id: codec.string() }),
  }),
  ...feedParams,
);

const token = rest.bearerScheme('opaque');
const secured = rest.newSSERoute('GET', '/sse-secured', codec.empty<object>(), codec.object({ user: codec.string() }), rest.routeMeta({ security: [{ bearerAuth: [] }] }));

export function sseSuite(adapter: AdapterUnderTest): void {
  describe(`sse: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    const client = rest.newClient();
    /** Event sources running now, and how many ended. */
    const sources = { running: 0, ended: 0, aborted: 0 };

    beforeAll(async () => {
      const api = rest.newServer(
        { title: 'SSE', version: '1.0.0' },
        rest.withDefaultOptions({
          securityFunc: (ctx) => {
            if (token.credential(ctx) !== 'let-me-in') throw new Error('bad token');
          },
        }),
      );
      api.addSecurityScheme('bearerAuth', token);
      feed
        .withHandler(async function* (ctx, req) {
          if (req.topic === 'missing') throw new NoSuchTopic(req.topic);
          sources.running++;
          try {
            if (req.wait !== undefined) await new Promise((r) => setTimeout(r, req.wait));
            const from = req.lastEventId === undefined ? 0 : Number(req.lastEventId);
            for (let i = from + 1; i <= (req.count ?? Infinity); i++) {
              if (req.failAfter !== undefined && i > req.failAfter) throw new Error('database gone: secret detail');
              if (ctx.signal.aborted) return;
              const ev: UserEvent = i % 2 === 1 ? { kind: 'created', id: `u${i}`, name: `user ${i}` } : { kind: 'deleted', id: `u${i - 1}` };
              yield { data: ev, id: String(i), event: ev.kind, ...(i === 1 && { retry: 50 }) };
              if (req.count === undefined) await new Promise((r) => setTimeout(r, 5));
            }
          } finally {
            sources.running--;
            sources.ended++;
            if (ctx.signal.aborted) sources.aborted++;
          }
        })
        .register(api);
      secured.withHandler(async function* () {
        yield { data: { user: 'in' } };
      }).register(api);
      const served = await adapter.serve(api);
      base = served.baseURL;
      stop = served.stop;
      client.attach(clientTransport({ baseURL: base }));
    });

    afterAll(() => stop());

    const take = async <E>(events: AsyncIterable<rest.SSEEvent<E>>, n: number): Promise<rest.SSEEvent<E>[]> => {
      const out: rest.SSEEvent<E>[] = [];
      for await (const ev of events) {
        out.push(ev);
        if (out.length === n) break;
      }
      return out;
    };

    it('streams typed events with their type, id and retry, framed as text/event-stream', async () => {
      const res = await fetch(`${base}/sse/news?count=2`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(
        'event: created\nid: 1\nretry: 50\ndata: {"kind":"created","id":"u1","name":"user 1"}\n\nevent: deleted\nid: 2\ndata: {"kind":"deleted","id":"u1"}\n\n',
      );
      const events = await client.call(feed, { topic: 'news', count: 4 });
      const all = await take(events, 10);
      expect(all.map((e) => [e.event, e.id, e.data.kind])).toEqual([
        ['created', '1', 'created'],
        ['deleted', '2', 'deleted'],
        ['created', '3', 'created'],
        ['deleted', '4', 'deleted'],
      ]);
      expect(all[0]).toEqual({ data: { kind: 'created', id: 'u1', name: 'user 1' }, event: 'created', id: '1', retry: 50 });
    });

    it('resumes after Last-Event-ID, as a header and as the typed request field', async () => {
      const res = await fetch(`${base}/sse/news?count=4`, { headers: { 'last-event-id': '3' } });
      expect(await res.text()).toContain('id: 4\n');
      const events = await take(await client.call(feed, { topic: 'news', count: 5, lastEventId: '2' }), 10);
      expect(events.map((e) => e.id)).toEqual(['3', '4', '5']);
    });

    it('sends a heartbeat comment while the source is idle', async () => {
      const controller = new AbortController();
      const res = await fetch(`${base}/sse/news?count=1&wait=250`, { signal: controller.signal });
      const text = await res.text();
      expect(text.startsWith(':\n\n')).toBe(true);
      expect(text.split(':\n\n').length - 1).toBeGreaterThanOrEqual(2);
      expect(text).toContain('id: 1\n');
    });

    it('answers an error before the stream opens with the route\'s status and body', async () => {
      const res = await fetch(`${base}/sse/missing`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ error: 'no topic missing', topic: 'missing' });
      const err = await client.call(feed, { topic: 'missing' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(rest.ErrorPatternResponse);
      expect((err as rest.ErrorPatternResponse).value).toEqual({ error: 'no topic missing', topic: 'missing' });
      // A source that fails before its first event: the same, a status (500, its text hidden).
      const early = await fetch(`${base}/sse/news?failAfter=0`);
      expect(early.status).toBe(500);
      expect(await early.json()).toEqual({ error: 'internal server error' });
    });

    it('ends the stream with the declared event: error after it opened; the client iteration throws it', async () => {
      const raw = await (await fetch(`${base}/sse/news?failAfter=2`)).text();
      expect(raw.endsWith('event: error\ndata: {"error":"the feed failed","retryable":true}\n\n')).toBe(true);
      expect(raw).not.toContain('secret');
      const got: string[] = [];
      const err = await (async () => {
        for await (const ev of await client.call(feed, { topic: 'news', failAfter: 2 })) got.push(ev.id ?? '');
      })().catch((e: unknown) => e);
      expect(got).toEqual(['1', '2']);
      expect(err).toBeInstanceOf(rest.SSEErrorEvent);
      expect((err as rest.SSEErrorEvent).data).toEqual({ error: 'the feed failed', retryable: true });
    });

    it('fails the client iteration on an event its codec refuses, naming the event', async () => {
      const got: string[] = [];
      const err = await (async () => {
        for await (const ev of await client.call(strictFeed, { topic: 'news', count: 3 })) got.push(ev.id ?? '');
      })().catch((e: unknown) => e);
      expect(got).toEqual([]);
      expect(err).toBeInstanceOf(codec.DecodeError);
      expect((err as codec.DecodeError).issues[0]?.path).toEqual([0, 'data', 'name']);
    });

    it('reconnects a broken stream with Last-Event-ID after the server\'s retry, when asked to', async () => {
      // A transport whose first response is cut after the second event, as a dropped connection would.
      let calls = 0;
      const lastIds: (string | null)[] = [];
      const flaky = rest.newClient();
      flaky.attach(
        nodeHttp.newClientTransport({
          baseURL: base,
          httpClient: async (input, init) => {
            calls++;
            lastIds.push(new Headers(init.headers).get('last-event-id'));
            const res = await fetch(input, init);
            if (calls > 1 || res.body === null) return res;
            const reader = res.body.getReader();
            let seen = '';
            const cut = new ReadableStream<Uint8Array>({
              async pull(c) {
                const next = await reader.read();
                if (next.done) return c.close();
                const before = seen.length;
                seen += new TextDecoder().decode(next.value);
                // Everything up to the end of event 2, then the connection drops.
                const end = seen.indexOf('\n\n', seen.indexOf('id: 2\n'));
                if (seen.includes('id: 2\n') && end !== -1) {
                  c.enqueue(new TextEncoder().encode(seen.slice(before, end + 2)));
                  await reader.cancel();
                  c.error(new Error('connection reset'));
                } else c.enqueue(next.value);
              },
            });
            return new Response(cut, { status: res.status, headers: res.headers });
          },
        }),
      );
      const broken = await flaky.call(feed, { topic: 'news', count: 5 }).then((evs) => take(evs, 10)).catch((e: unknown) => e);
      expect(broken).toBeInstanceOf(rest.ResponseBodyError);
      calls = 0;
      lastIds.length = 0;
      const events = await take(await flaky.call(feed, { topic: 'news', count: 5 }, { reconnect: 2 }), 10);
      expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
      expect(lastIds).toEqual([null, '2']);
    });

    it('stops the source when the client goes away: 1000 streams opened and dropped leave none running', async () => {
      const endedBefore = sources.ended;
      for (let batch = 0; batch < 10; batch++) {
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            const controller = new AbortController();
            const events = await client.call(feed, { topic: 'news' }, { signal: controller.signal });
            await take(events, 1);
            controller.abort();
          }),
        );
      }
      for (let i = 0; i < 100 && sources.running > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(sources.running).toBe(0);
      expect(sources.ended - endedBefore).toBe(1000);
      expect(sources.aborted).toBeGreaterThanOrEqual(1000);
    });

    it('applies security to an SSE route, and the client gives the credential', async () => {
      const refused = await fetch(`${base}/sse-secured`);
      expect(refused.status).toBe(401);
      const events = await take(await client.call(secured.clientMW(token, () => 'let-me-in'), {}), 5);
      expect(events).toEqual([{ data: { user: 'in' } }]);
    });
  });
}
