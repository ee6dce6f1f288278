import { describe, expect, it } from 'vitest';
import { DecodeError, EncodeError, int, object, stream, string, time } from './index.js';

const item = object({ id: int(), at: time() });
type Wire = { at: unknown };
const items = stream(item);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('codec.stream', () => {
  it('decodes each item as it is read, from async and sync iterables', async () => {
    const at = '2026-01-02T03:04:05Z';
    async function* wire(): AsyncGenerator<unknown> {
      yield { id: 1, at };
    }
    expect(await collect(items.decode(wire()))).toEqual([{ id: 1, at: new Date(at) }]);
    expect(await collect(items.decode([{ id: 2, at }]))).toEqual([{ id: 2, at: new Date(at) }]);
  });

  it('refuses a value that is not iterable at once, and a bad item when it is reached, naming its index', async () => {
    expect(() => items.decode('not a stream')).toThrow(DecodeError);
    expect(() => items.decode(42)).toThrow(DecodeError);
    const it = items.decode([{ id: 1, at: '2026-01-02T03:04:05Z' }, { id: 'x', at: '2026-01-02T03:04:05Z' }])[Symbol.asyncIterator]();
    await it.next();
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).issues.map((i) => i.path)).toEqual([[1, 'id']]);
  });

  it('encodes lazily: structure errors surface per item with the index in the path', async () => {
    expect(() => items.encode(7 as never)).toThrow(EncodeError);
    const wire = items.encode([{ id: 1, at: new Date(0) }, { id: 1.5, at: new Date(0) }] as never) as AsyncIterable<unknown>;
    const it = wire[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ id: 1, at: (item.encode({ id: 1, at: new Date(0) }) as Wire).at });
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EncodeError);
    expect((err as EncodeError).issues[0]?.path).toEqual([1, 'id']);
  });

  it('describes itself as the sequence of its items', () => {
    expect(stream(string()).schema).toEqual({ type: 'array', items: { type: 'string' } });
    expect(items.kind).toBe('stream');
    expect(items.children()).toEqual([item]);
  });
});
