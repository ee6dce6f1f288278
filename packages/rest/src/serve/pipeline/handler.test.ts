import { describe, expect, it } from 'vitest';
import { NotModified } from '../../declare/not-modified.js';
import { Redirect } from '../../declare/redirect.js';
import { notModifiedAnswer, notModifiedResponse, redirectResponse, validatorsOf } from './handler.js';

describe('handler: redirects and 304', () => {
  it('puts the base path in front of a same-origin Location, not of another origin', () => {
    const set = new Headers({ 'x-kept': '1' });
    expect(redirectResponse(new Redirect(303, '/users/1'), '/api', set)).toEqual({ status: 303, headers: [['location', '/api/users/1'], ['x-kept', '1']], body: undefined });
    expect(redirectResponse(new Redirect(307, '//cdn.example/a'), '/api', undefined).headers).toEqual([['location', '//cdn.example/a']]);
    expect(redirectResponse(new Redirect(302, 'https://example.com/'), '/api', undefined).headers).toEqual([['location', 'https://example.com/']]);
  });

  it('keeps only the headers a cache needs on a 304, and ends a started stream', async () => {
    let ended = false;
    const stream: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: true, value: undefined }),
        return: () => {
          ended = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const res = await notModifiedResponse([['ETag', '"v1"'], ['content-type', 'application/json'], ['cache-control', 'max-age=60'], ['x-other', 'no']], stream);
    expect(res).toEqual({ status: 304, headers: [['ETag', '"v1"'], ['cache-control', 'max-age=60']], body: undefined });
    expect(ended).toBe(true);
  });

  it("answers a handler's NotModified with the validators it names", async () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const res = await notModifiedAnswer(new NotModified({ etag: '"v2"', lastModified: at }), new Headers({ 'cache-control': 'no-cache' }));
    expect(res.headers).toEqual([['etag', '"v2"'], ['last-modified', at.toUTCString()], ['cache-control', 'no-cache']]);
  });

  it('reads ETag and Last-Modified from header lines, whatever their case', () => {
    expect(validatorsOf([['ETag', '"a"'], ['Last-Modified', 'Fri, 02 Jan 2026 03:04:05 GMT']])).toEqual({ etag: '"a"', lastModified: new Date('2026-01-02T03:04:05Z') });
    expect(validatorsOf([['last-modified', 'not a date']])).toEqual({ etag: undefined, lastModified: undefined });
  });
});
