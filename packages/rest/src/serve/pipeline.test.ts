import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';
import { nativeRequestKey, prepareRoute, type PipelineRequest, type PipelineResponse } from '../pipeline.js';

function post(body: string, headers: Record<string, string> = {}): PipelineRequest {
  const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
  return {
    method: 'POST',
    pathParams: {},
    rawQuery: '',
    header: (name) => all[name],
    readBody: () => Promise.resolve(new TextEncoder().encode(body)),
    bodyStream: async function* () {},
    signal: new AbortController().signal,
    native: undefined,
  };
}

/** Registers `route` on a new server with `options` and returns its prepared pipeline. */
function prepared<Req, Resp>(route: rest.Route<Req, Resp>, options: rest.Options = {}): (req: PipelineRequest) => Promise<PipelineResponse> {
  const api = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions(options));
  route.register(api);
  const handle = api.handles()[0] as rest.RouteHandle<unknown, unknown>;
  return (req) => prepareRoute(handle).run(req);
}

const text = (res: PipelineResponse): string => (typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body as Uint8Array));
const frames = (err: unknown): number => ((err as Error).stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).length;

describe('pipeline: what a request allocates and what its errors carry', () => {
  const user = codec.object({ name: codec.string().refine(validate.minLength(1)), tag: codec.string().refine({
    name: 'buggy',
    // A constraint must not throw: this one has a bug.
    test: (s) => {
      if (s === 'boom') throw new TypeError('a bug in a custom codec');
      return true;
    },
    message: () => 'never',
  }) });

  it('builds the errors of an invalid body without stack frames, and restores Error.stackTraceLimit', async () => {
    const seen: unknown[] = [];
    const run = prepared(rest.newRoute('POST', '/u', user, codec.string()).withHandler(() => 'ok'), {
      errorHandler: (_ctx, err, status) => {
        seen.push(err);
        return { body: { error: (err as Error).message }, status };
      },
    });
    const limit = Error.stackTraceLimit;
    const res = await run(post('{"name":"","tag":"x"}'));
    expect([res.status, text(res)]).toEqual([400, '{"error":"invalid request body: name: must have at least 1 character"}']);
    // Every validation failure is one RequestValidationError, the body's error among its members.
    const failure = seen[0] as rest.RequestValidationError;
    expect(failure).toBeInstanceOf(rest.RequestValidationError);
    expect(frames(failure)).toBe(0);
    const err = failure.errors[0] as rest.RequestBodyError;
    expect(err).toBeInstanceOf(rest.RequestBodyError);
    expect(err.cause).toBeInstanceOf(codec.DecodeError);
    expect([frames(err), frames(err.cause)]).toEqual([0, 0]);
    expect(err.stack).toContain('RequestBodyError: invalid request body');
    expect(Error.stackTraceLimit).toBe(limit);
    // Malformed JSON: the same.
    const bad = await run(post('{"name":'));
    expect(bad.status).toBe(400);
    expect(frames(seen[1])).toBe(0);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('keeps the stack frames of an error that is not about the input (a bug in a custom codec)', async () => {
    const seen: unknown[] = [];
    const run = prepared(rest.newRoute('POST', '/u', user, codec.string()).withHandler(() => 'ok'), {
      errorHandler: (_ctx, err, status) => {
        seen.push(err);
        return { body: { error: 'x' }, status };
      },
    });
    const res = await run(post('{"name":"a","tag":"boom"}'));
    // Not the client's input: a 500, and the errorHandler gets the bug itself, not a 400's wrapper.
    expect(res.status).toBe(500);
    const cause = seen[0] as Error;
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.message).toBe('a bug in a custom codec');
    expect(frames(cause)).toBeGreaterThan(0);
    expect(cause.stack).toContain('pipeline.test.ts');
  });

  it('creates the response Headers only for a handler that asks, and still sends what it adds', async () => {
    const run = prepared(
      rest.newRoute('POST', '/u', user, codec.string()).withHandler((ctx, req) => {
        if (req.name === 'h') rest.responseHeadersFromContext(ctx)?.set('x-added', 'yes');
        return req.name;
      }),
    );
    const plain = await run(post('{"name":"p","tag":"x"}'));
    expect(plain.headers).toEqual([['content-type', 'application/json']]);
    const added = await run(post('{"name":"h","tag":"x"}'));
    expect(added.status).toBe(201);
    expect(added.headers).toEqual([['content-type', 'application/json'], ['x-added', 'yes']]);
    expect(text(added)).toBe('"h"');
  });

  it('keeps request-scoped values, the native request and the signal on the context', async () => {
    const key = rest.contextKey<string>('k');
    const native = { adapter: 'test' };
    const signal = new AbortController().signal;
    const seen: unknown[] = [];
    const run = prepared(
      rest.newRoute('POST', '/u', user, codec.string()).withHandler((ctx) => {
        seen.push(ctx.get(key));
        ctx.set(key, 'v');
        seen.push(ctx.get(key), ctx.get(nativeRequestKey), ctx.signal === signal);
        const replaced = { other: true };
        ctx.set(nativeRequestKey, replaced);
        seen.push(ctx.get(nativeRequestKey) === replaced);
        return 'ok';
      }),
    );
    await run({ ...post('{"name":"a","tag":"x"}'), native, signal });
    expect(seen).toEqual([undefined, 'v', native, true, true]);
  });

  it('answers a synchronous handler and an async one alike, the body as text for a text format', async () => {
    const sync = prepared(rest.newRoute('POST', '/u', user, codec.string()).withHandler((_ctx, req) => req.name));
    const later = prepared(rest.newRoute('POST', '/u', user, codec.string()).withHandler(async (_ctx, req) => req.name));
    for (const run of [sync, later]) {
      const res = await run(post('{"name":"é","tag":"x"}'));
      expect([res.status, res.body]).toEqual([201, '"é"']);
    }
  });
});
