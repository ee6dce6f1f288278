import * as codec from '@lib/codec';
import { BodyLimitError, json, type Format } from '@lib/format';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError } from '../../declare/errors.js';
import type { RouteHandle } from '../../declare/route.js';
import type { PipelineRequest } from './exchange.js';
import { bodyReader } from './body-limit.js';

const asJson = json(codec.object({ name: codec.string() })) as Format<unknown>;

/** The limits of a handle, as `bodyReader` reads them. */
function limits(limit: number, from?: string): RouteHandle<unknown, unknown> {
  return { bodyLimit: () => limit, bodyLimitFrom: () => from } as unknown as RouteHandle<unknown, unknown>;
}

/** A request whose body is `size` bytes, read as the adapters read it: past the limit is a 413. */
function requestOf(size: number, seen: number[]): PipelineRequest {
  return {
    method: 'POST',
    pathParams: {},
    rawQuery: '',
    header: () => undefined,
    readBody: (limit) => {
      seen.push(limit);
      return size > limit ? Promise.reject(new BodyTooLargeError(limit)) : Promise.resolve(new Uint8Array(size));
    },
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

/** The `DecodeError` `decode` throws. */
function decodeErrorOf(decode: () => unknown): codec.DecodeError {
  try {
    decode();
  } catch (err) {
    if (err instanceof codec.DecodeError) return err;
  }
  throw new Error('no DecodeError');
}

describe('body limit (413)', () => {
  it("reads the body with its format's limit", async () => {
    const seen: number[] = [];
    const read = bodyReader(limits(10), [asJson]);
    expect(await read(requestOf(10, seen), asJson, 'application/json')).toHaveLength(10);
    expect(seen).toEqual([10]);
    await expect(read(requestOf(11, seen), asJson, 'application/json')).rejects.toThrow(BodyTooLargeError);
  });

  it('names the part limits a derived limit comes from in the 413', async () => {
    const read = bodyReader(limits(10, '2 parts of at most 5 bytes'), [asJson]);
    await expect(read(requestOf(11, []), asJson, 'application/json')).rejects.toThrow('request body exceeds 10 bytes: 2 parts of at most 5 bytes');
  });

  it("turns a streamed format's BodyLimitError into a 413, and keeps a body it refuses for the 400", async () => {
    const streamed = (fail: Error): Format<unknown> => ({ ...asJson, unmarshalStream: () => Promise.reject(fail) }) as Format<unknown>;
    const tooLarge = streamed(new BodyLimitError('part', 10));
    await expect(bodyReader(limits(10), [tooLarge])(requestOf(1, []), tooLarge, 'multipart/form-data')).rejects.toThrow(BodyTooLargeError);
    const decodeError = decodeErrorOf(() => codec.int().decode('x'));
    const refused = streamed(decodeError);
    expect(await bodyReader(limits(10), [refused])(requestOf(1, []), refused, 'multipart/form-data')).toEqual({ error: decodeError });
  });
});
