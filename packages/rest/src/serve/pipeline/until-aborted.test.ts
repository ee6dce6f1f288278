import { EventEmitter, on } from 'node:events';
import { describe, expect, it } from 'vitest';
import { untilAborted } from './until-aborted.js';

describe('untilAborted', () => {
  it('passes items and the end through while the signal holds', async () => {
    const out: number[] = [];
    for await (const n of untilAborted((async function* () {
      yield 1;
      yield 2;
    })(), new AbortController().signal)) out.push(n);
    expect(out).toEqual([1, 2]);
  });

  it('ends a pending next() at the abort and returns an iterator source at once', async () => {
    const emitter = new EventEmitter();
    const c = new AbortController();
    const it = untilAborted(on(emitter, 'x') as AsyncIterable<unknown>, c.signal)[Symbol.asyncIterator]();
    const pending = it.next();
    expect(emitter.listenerCount('x')).toBe(1);
    c.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    await new Promise((r) => setTimeout(r, 0));
    expect(emitter.listenerCount('x')).toBe(0);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it('keeps a failure of the source before the abort, and drops one after it', async () => {
    const boom = new Error('boom');
    const failing = untilAborted((async function* () {
      yield 1;
      throw boom;
    })(), new AbortController().signal)[Symbol.asyncIterator]();
    await failing.next();
    await expect(failing.next()).rejects.toBe(boom);
    const c = new AbortController();
    let reject: (e: unknown) => void = () => undefined;
    const late = untilAborted<number>({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<number>>((_, r) => (reject = r)) }) }, c.signal)[Symbol.asyncIterator]();
    const pending = late.next();
    c.abort();
    reject(boom);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
