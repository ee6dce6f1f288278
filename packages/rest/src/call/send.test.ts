import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import { sendRequest } from './send.js';

const request = (signal?: AbortSignal): rest.ClientExchange => ({ method: 'GET', path: '/s', query: [], headers: [], body: undefined, signal });
const whole: rest.ClientReply = { status: 200, headers: new Headers(), body: new Uint8Array([1]) };
async function* chunks(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([2]);
}

/** A transport that records which of its two methods was called. */
function transport(streams: boolean): rest.ClientTransport & { used: string[] } {
  const used: string[] = [];
  return {
    adapter: 'fake',
    paramKinds: rest.HTTP_PARAM_KINDS,
    capabilities: new Map(),
    used,
    exchange: () => (used.push('exchange'), Promise.resolve(whole)),
    ...(streams && { exchangeStream: () => (used.push('exchangeStream'), Promise.resolve({ status: 200, headers: new Headers(), body: chunks() })) }),
  };
}

describe('sendRequest', () => {
  it('reads a whole body unless the response formats stream', async () => {
    const t = transport(true);
    expect(await sendRequest(t, request(), false)).toBe(whole);
    expect(t.used).toEqual(['exchange']);
  });

  it('streams the body where the formats stream and the transport can', async () => {
    const t = transport(true);
    const reply = await sendRequest(t, request(), true);
    expect(t.used).toEqual(['exchangeStream']);
    expect(reply.body).not.toBeInstanceOf(Uint8Array);
    const plain = transport(false);
    expect(await sendRequest(plain, request(), true)).toBe(whole);
    expect(plain.used).toEqual(['exchange']);
  });

  it('sends nothing for a call aborted before sending', async () => {
    const t = transport(true);
    const abort = new AbortController();
    abort.abort(new Error('stop'));
    const err = await sendRequest(t, request(abort.signal), false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(rest.RequestBuildError);
    expect((err as Error).message).toBe('the call was aborted before sending: stop');
    expect(t.used).toEqual([]);
  });
});
