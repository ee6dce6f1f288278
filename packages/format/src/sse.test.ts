import * as codec from '@lib/codec';
import { describe, expect, it, vi } from 'vitest';
import { sse, SSEErrorEvent, type SSEEvent } from './index.js';

const ev = codec.object({ n: codec.int() });
const decoder = new TextDecoder();
const signal = new AbortController().signal;

async function text(it: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const c of it) out += decoder.decode(c);
  return out;
}
async function* from<T>(items: readonly T[], fail?: Error): AsyncGenerator<T> {
  for (const x of items) yield x;
  if (fail !== undefined) throw fail;
}
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('format.sse', () => {
  const f = sse(ev, { heartbeatMs: 0, openAfterMs: 0 });

  it('frames events with type, id, retry and one JSON data line, and reads them back in any chunking', async () => {
    const events: SSEEvent<{ n: number }>[] = [{ data: { n: 1 }, event: 'tick', id: '1', retry: 10 }, { data: { n: 2 } }];
    const body = await text(f.marshalStream(from(events), signal));
    expect(body).toBe('event: tick\nid: 1\nretry: 10\ndata: {"n":1}\n\ndata: {"n":2}\n\n');
    const bytes = new TextEncoder().encode(body);
    for (const size of [1, 5, 1000]) {
      const chunks = (async function* () {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
      })();
      expect(await collect(await f.unmarshalStream(chunks, { contentType: 'text/event-stream', signal }))).toEqual(events);
    }
  });

  it('refuses CR/LF in fields and the reserved type "error"', async () => {
    await expect(text(f.marshalStream(from([{ data: { n: 1 }, id: 'a\nb' }]), signal))).rejects.toThrow(TypeError);
    await expect(text(f.marshalStream(from([{ data: { n: 1 }, event: 'error' }]), signal))).rejects.toThrow(TypeError);
    await expect(text(f.marshalStream(from([{ data: { n: 1 }, retry: -1 }]), signal))).rejects.toThrow(TypeError);
    await expect(text(f.marshalStream(from([{ data: { n: 1.5 } }]), signal))).rejects.toThrow(codec.EncodeError);
    // The value's structure is checked at once, before anything is loaded or written.
    expect(() => f.marshalStream(42 as never, signal)).toThrow(codec.EncodeError);
  });

  it('throws a failure before the first event, and ends with event: error after it, without the failure text', async () => {
    await expect(text(f.marshalStream(from([], new Error('secret')), signal))).rejects.toThrow('secret');
    const late = sse(ev, { heartbeatMs: 0, openAfterMs: 10_000 });
    const body = await text(late.marshalStream(from([{ data: { n: 1 } }], new Error('secret')), signal));
    expect(body).toBe('data: {"n":1}\n\nevent: error\ndata: {"error":"internal server error"}\n\n');
    const read = await late.unmarshalStream(from([new TextEncoder().encode(body)]), { contentType: 'text/event-stream', signal });
    const it = read[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ data: { n: 1 } });
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SSEErrorEvent);
    expect((err as SSEErrorEvent).data).toEqual({ error: 'internal server error' });
  });

  it('sends heartbeats while the source is idle, and opens with one when the first event is slow', async () => {
    const slow = sse(ev, { heartbeatMs: 20, openAfterMs: 20 });
    const source = (async function* () {
      await new Promise((r) => setTimeout(r, 110));
      yield { data: { n: 1 } };
    })();
    const body = await text(slow.marshalStream(source, signal));
    expect(body.startsWith(':\n\n:\n\n')).toBe(true);
    expect(body.endsWith('data: {"n":1}\n\n')).toBe(true);
  });

  it('stops the source when the reader goes away', async () => {
    let returned = false;
    const source = (async function* () {
      try {
        for (let n = 0; ; n++) yield { data: { n } };
      } finally {
        returned = true;
      }
    })();
    const it = f.marshalStream(source, signal)[Symbol.asyncIterator]();
    await it.next();
    await it.return?.();
    await vi.waitFor(() => expect(returned).toBe(true));
  });

  it('fails the reading on invalid data and on an event longer than maxEventChars', async () => {
    const enc = new TextEncoder();
    const bad = await f.unmarshalStream(from([enc.encode('data: {"n":"x"}\n\n')]), { contentType: 'text/event-stream', signal });
    const e1 = await collect(bad).catch((e: unknown) => e);
    expect((e1 as codec.DecodeError).issues[0]?.path).toEqual([0, 'data', 'n']);
    const notJson = await f.unmarshalStream(from([enc.encode('data: nope\n\n')]), { contentType: 'text/event-stream', signal });
    expect(await collect(notJson).catch((e: unknown) => e)).toBeInstanceOf(codec.DecodeError);
    const small = sse(ev, { maxEventChars: 10 });
    const long = await small.unmarshalStream(from([enc.encode(`data: ${'1'.repeat(100)}\n\n`)]), { contentType: 'text/event-stream', signal });
    expect(await collect(long).catch((e: unknown) => e)).toBeInstanceOf(codec.DecodeError);
  });

  it('documents the body as text, with the event and error event schemas', () => {
    expect(f.itemCodec).toBe(ev);
    expect(f.bodySchema).toMatchObject({ type: 'string', 'x-errorEventSchema': { type: 'object', properties: { error: { type: 'string' } } } });
    expect(f.responseHeaders).toEqual([['cache-control', 'no-cache'], ['x-accel-buffering', 'no']]);
    expect(() => sse(ev, { heartbeatMs: -1 })).toThrow(TypeError);
  });
});
