import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import type { ErrorRule } from '../declare/error-rules.js';
import { responsePlan, routePlan } from './plan.js';
import { readReply } from './reply.js';
import type { Reply } from './send.js';

class Gone extends Error {}
class Invalid extends Error {}
const item = codec.object({ name: codec.string() });
const problem = codec.object({ detail: codec.string() });
const gone = rest.errorPattern(Gone, 410, problem, (e) => ({ detail: e.message }));
const invalid = rest.errorPattern(Invalid, 422, problem, (e) => ({ detail: e.message }));
const r = rest.route({
  method: 'GET',
  path: '/i',
  response: item,
  responseHeaders: { etag: rest.named('ETag', codec.optional(codec.string())) },
  successes: { 203: problem, 204: null },
  errors: [gone],
});
const moved = rest.route({ method: 'GET', path: '/moved', response: codec.empty<void>(), meta: { respStatus: 303 } });

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const jsonHeaders = (more: Record<string, string> = {}): Headers => new Headers({ 'content-type': 'application/json', ...more });

/** Step three alone: the value of `reply` to a GET of `route` that sent `sent` header lines, through a transport that answers it. */
function read(route: { clientHandle(): unknown }, reply: Reply, sent: readonly (readonly [string, string])[] = [], shared: readonly ErrorRule[] = [], out = { status: 0 }): Promise<unknown> {
  const handle = route.clientHandle() as rest.RouteHandle<unknown, unknown>;
  const request: rest.ClientExchange = { method: 'GET', path: '/i', query: [], headers: sent, body: undefined, signal: undefined };
  const transport: rest.ClientTransport = { adapter: 'fake', paramKinds: rest.HTTP_PARAM_KINDS, capabilities: new Map(), exchange: () => Promise.resolve(reply as rest.ClientReply) };
  return readReply(routePlan(handle), responsePlan(handle.responseFormats as never), transport, Promise.resolve(request), {}, shared, out);
}

describe('readReply', () => {
  it('decodes a success body, sets its response headers on it, and gives its status', async () => {
    const out = { status: 0 };
    expect(await read(r, { status: 200, headers: jsonHeaders({ etag: '"1"' }), body: text('{"name":"a"}') }, [], [], out)).toEqual({ name: 'a', etag: '"1"' });
    expect(out.status).toBe(200);
  });

  it('rejects as the request does when it could not be built, and sends nothing', async () => {
    const handle = r.clientHandle() as rest.RouteHandle<unknown, unknown>;
    let sent = 0;
    const transport: rest.ClientTransport = { adapter: 'fake', paramKinds: rest.HTTP_PARAM_KINDS, capabilities: new Map(), exchange: () => (sent++, Promise.reject(new Error('sent'))) };
    const refused = new rest.RequestBuildError('refused');
    await expect(readReply(routePlan(handle), responsePlan(handle.responseFormats as never), transport, Promise.reject(refused), {}, [], { status: 0 })).rejects.toBe(refused);
    expect(sent).toBe(0);
  });

  it('decodes another declared success with its own codec', async () => {
    expect(await read(r, { status: 203, headers: jsonHeaders(), body: text('{"detail":"d"}') })).toEqual({ detail: 'd' });
    expect(await read(r, { status: 204, headers: new Headers(), body: new Uint8Array() })).toEqual({});
  });

  it('reads a streamed body whole, and a failure to read it is a ResponseBodyError', async () => {
    async function* parts(): AsyncGenerator<Uint8Array> {
      yield text('{"name":');
      yield text('"b"}');
    }
    expect(await read(r, { status: 200, headers: jsonHeaders(), body: parts() })).toEqual({ name: 'b' });
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield text('{');
      throw new Error('reset');
    }
    const err = await read(r, { status: 200, headers: jsonHeaders(), body: broken() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(rest.ResponseBodyError);
    expect((err as Error).message).toMatch(/^the response body could not be read/);
  });

  it('refuses a body in no response format', async () => {
    await expect(read(r, { status: 200, headers: new Headers({ 'content-type': 'text/plain' }), body: text('a') })).rejects.toThrow('unexpected response Content-Type "text/plain"');
  });

  it('answers a 304 to a request with a validator as NotModified, and to any other as an unexpected status', async () => {
    const headers = new Headers({ etag: '"2"', 'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT' });
    const out = { status: 0 };
    const value = await read(r, { status: 304, headers, body: new Uint8Array() }, [['If-None-Match', '"1"']], [], out);
    expect(value).toBeInstanceOf(rest.NotModified);
    expect(out.status).toBe(304);
    expect(value).toMatchObject({ etag: '"2"', lastModified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) });
    await expect(read(r, { status: 304, headers, body: new Uint8Array() }, [['If-Match', '"1"']])).rejects.toBeInstanceOf(rest.UnexpectedStatusError);
  });

  it('takes a 3xx as a success only when it is the declared status', async () => {
    expect(await read(moved, { status: 303, headers: new Headers({ location: '/x' }), body: new Uint8Array() })).toEqual({});
    await expect(read(moved, { status: 302, headers: new Headers(), body: new Uint8Array() })).rejects.toBeInstanceOf(rest.UnexpectedStatusError);
    await expect(read(r, { status: 303, headers: new Headers(), body: new Uint8Array() })).rejects.toBeInstanceOf(rest.UnexpectedStatusError);
  });

  it('decodes an error response by the route’s pattern of its status, else by the shared rules', async () => {
    const own = await read(r, { status: 410, headers: jsonHeaders(), body: text('{"detail":"gone"}') }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(rest.ErrorPatternResponse);
    expect(own).toMatchObject({ statusCode: 410, value: { detail: 'gone' } });
    const shared = await read(r, { status: 422, headers: jsonHeaders(), body: text('{"detail":"bad"}') }, [], [invalid as ErrorRule]).catch((e: unknown) => e);
    expect(shared).toMatchObject({ statusCode: 422, value: { detail: 'bad' } });
    const out = { status: 0 };
    const none = await read(r, { status: 422, headers: jsonHeaders(), body: text('{"detail":"bad"}') }, [], [], out).catch((e: unknown) => e);
    expect(out.status).toBe(0);
    expect(none).toBeInstanceOf(rest.UnexpectedStatusError);
    expect(none).toMatchObject({ statusCode: 422, body: '{"detail":"bad"}' });
    expect('cause' in (none as Error)).toBe(false);
  });

  it('rejects an error body its pattern cannot decode as an unexpected status, with why', async () => {
    const err = await read(r, { status: 410, headers: jsonHeaders(), body: text('{"detail":1}') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(rest.UnexpectedStatusError);
    expect((err as Error).message).toBe('GET /i: unexpected status 410');
    expect((err as Error).cause).toBeInstanceOf(codec.DecodeError);
  });
});
