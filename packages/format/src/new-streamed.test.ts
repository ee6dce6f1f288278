import * as codec from '@lib/codec';
import { describe, expect, it, vi } from 'vitest';
import { lines, newStreamed, type StreamWriter } from './index.js';
import { thrown } from '../test/helpers.js';

const row = codec.object({ id: codec.int(), name: codec.string() });
type Row = codec.Infer<typeof row>;
const rows = codec.stream(row);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const ndjson = newStreamed(
  rows,
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(row.encode(r))}\n`);
  },
  async function* (body) {
    for await (const line of lines(body)) if (line !== '') yield JSON.parse(line) as Row;
  },
  'application/x-ndjson',
);

async function* from<T>(items: readonly T[]): AsyncGenerator<T, void, undefined> {
  for (const x of items) yield x;
}
async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array, void, undefined> {
  const bytes = encoder.encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
const info = { contentType: 'application/x-ndjson', signal: new AbortController().signal };

describe('format.newStreamed', () => {
  it('writes chunk by chunk and reads back lazily, in any chunking', async () => {
    const written = await collect(ndjson.marshalStream(from([{ id: 1, name: 'a' }, { id: 2, name: 'b' }])));
    expect(written.map((c) => decoder.decode(c))).toEqual(['{"id":1,"name":"a"}\n', '{"id":2,"name":"b"}\n']);
    for (const size of [1, 3, 7, 100]) {
      const back = await ndjson.unmarshalStream(chunks('{"id":1,"name":"a"}\r\n{"id":2,"name":"é"}', size), info);
      expect(await collect(back)).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'é' }]);
    }
  });

  it('checks the value before the first byte and each item as it is read', async () => {
    expect(thrown(() => ndjson.marshalStream(42 as unknown as AsyncIterable<Row>))).toBeInstanceOf(codec.EncodeError);
    const back = await ndjson.unmarshalStream(chunks('{"id":1,"name":"a"}\n{"id":"2","name":"b"}\n', 5), info);
    const it = back[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ id: 1, name: 'a' });
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.DecodeError).issues[0]?.path).toEqual([1, 'id']);
  });

  it('gives backpressure: a write resolves only when the reader pulls the next chunk', async () => {
    let written = 0;
    const f = newStreamed(
      codec.any(),
      async (_v, w) => {
        for (let i = 0; i < 100; i++) {
          await w.write('x');
          written++;
        }
      },
      () => undefined,
      'text/plain',
    );
    const it = f.marshalStream(null)[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    await new Promise((r) => setTimeout(r, 20));
    expect(written).toBe(1);
  });

  it('aborts the writer and settles its pending write when the reader stops or the signal aborts', async () => {
    for (const how of ['return', 'abort'] as const) {
      let writer: StreamWriter | undefined;
      let ended: unknown;
      const f = newStreamed(
        codec.any(),
        async (_v, w) => {
          writer = w;
          try {
            for (;;) await w.write('tick');
          } catch (err) {
            ended = err;
          }
        },
        () => undefined,
        'text/plain',
      );
      const controller = new AbortController();
      const it = f.marshalStream(null, controller.signal)[Symbol.asyncIterator]();
      await it.next();
      if (how === 'return') await it.return?.();
      else {
        controller.abort(new Error('client gone'));
        await it.next().catch(() => undefined);
      }
      await vi.waitFor(() => {
        expect(writer?.signal.aborted, how).toBe(true);
        expect(ended, how).toBeInstanceOf(Error);
      });
    }
  });

  it('throws the producer failure from the iteration, after the chunks already written', async () => {
    const f = newStreamed(
      codec.any(),
      async (_v, w) => {
        await w.write('one');
        throw new Error('disk gone');
      },
      () => undefined,
      'text/plain',
    );
    const it = f.marshalStream(null)[Symbol.asyncIterator]();
    expect(decoder.decode((await it.next()).value as Uint8Array)).toBe('one');
    await expect(it.next()).rejects.toThrow('disk gone');
  });

  it('turns a reader failure into a syntax DecodeError without its message, and keeps its own DecodeError', async () => {
    const broken = newStreamed(codec.any(), () => undefined, () => Promise.reject(new Error('/etc/secret at line 3')), 'text/plain');
    const err = await broken.unmarshalStream(chunks('x', 1), info).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect((err as codec.DecodeError).issues[0]).toMatchObject({ constraint: 'syntax', message: 'body is not valid text/plain: it could not be parsed' });
    const own = new codec.DecodeError([codec.makeIssue([], 'line 1: bad', 'syntax', undefined)]);
    const mine = newStreamed(codec.any(), () => undefined, () => Promise.reject(own), 'text/plain');
    expect(await mine.unmarshalStream(chunks('x', 1), info).catch((e: unknown) => e)).toBe(own);
  });

  it('has no synchronous marshal, reads whole bodies when the reader is synchronous, documents the item codec', () => {
    expect(thrown(() => ndjson.marshal(from([])))).toBeInstanceOf(TypeError);
    const asyncReader = newStreamed(codec.string(), () => undefined, () => Promise.resolve('text'), 'text/plain');
    expect(thrown(() => asyncReader.unmarshal(encoder.encode('x')))).toBeInstanceOf(TypeError);
    const sync = newStreamed(codec.string(), () => undefined, () => 'text', 'text/plain');
    expect(sync.unmarshal(encoder.encode('x'))).toBe('text');
    expect(ndjson.itemCodec).toBe(row);
    expect(sync.itemCodec).toBeUndefined();
    expect(thrown(() => newStreamed(codec.any(), () => undefined, () => undefined, 'ndjson'))).toBeInstanceOf(TypeError);
  });

  it('splits lines across chunk boundaries, and refuses invalid UTF-8', async () => {
    expect(await collect(lines(chunks('a\nbc\r\n\nd', 1)))).toEqual(['a', 'bc', '', 'd']);
    const bad = (async function* () {
      yield new Uint8Array([0x61, 0xff, 0x0a]);
    })();
    await expect(collect(lines(bad))).rejects.toBeInstanceOf(codec.DecodeError);
  });
});
