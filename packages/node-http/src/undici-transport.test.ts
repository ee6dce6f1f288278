// What the undici client transport adds to the shared client contract (which the conformance
// suite runs on it in full): its own agent and a caller's, timeouts, repeated response fields,
// and a streamed body left early.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as rest from '@lib/rest';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import * as nodeHttp from './index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A raw node:http server on 127.0.0.1 answering with `handler`; resolves to its base URL. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const exchange = (path: string, signal?: AbortSignal): rest.ClientExchange => ({ method: 'GET', path, query: [['a', '1'], ['a', '2']], headers: [['x-one', '1'], ['x-one', '2']], body: undefined, signal });

describe('the undici client transport', () => {
  it('sends repeated query keys and header fields, and keeps repeated response fields apart', async () => {
    const base = await serve((req, res) => {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.end(JSON.stringify({ url: req.url, one: req.headersDistinct['x-one'] }));
    });
    const transport = nodeHttp.newUndiciClientTransport({ baseURL: `${base}/v1/` });
    const reply = await transport.exchange(exchange('/echo'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(reply.body))).toEqual({ url: '/v1/echo?a=1&a=2', one: ['1', '2'] });
    expect(reply.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    await transport.close();
    // Its own agent is closed: a call after close fails as a transport failure.
    await expect(transport.exchange(exchange('/echo'))).rejects.toBeInstanceOf(rest.RequestError);
  });

  it("leaves a caller's dispatcher open on close", async () => {
    const base = await serve((_req, res) => res.end('ok'));
    const agent = new Agent();
    const transport = nodeHttp.newUndiciClientTransport({ baseURL: base, dispatcher: agent });
    await transport.exchange(exchange('/'));
    await transport.close();
    expect((await transport.exchange(exchange('/'))).status).toBe(200);
    await agent.close();
  });

  it('fails a response head that does not come within headersTimeout with RequestError, and a bad base URL with RequestBuildError', async () => {
    const base = await serve(() => undefined);
    const transport = nodeHttp.newUndiciClientTransport({ baseURL: base, headersTimeout: 100 });
    await expect(transport.exchange(exchange('/'))).rejects.toBeInstanceOf(rest.RequestError);
    await transport.close();
    const bad = nodeHttp.newUndiciClientTransport({ baseURL: 'not a url' });
    await expect(bad.exchange(exchange('/'))).rejects.toBeInstanceOf(rest.RequestBuildError);
    await bad.close();
  });

  it('ends a call when its signal aborts', async () => {
    const base = await serve(() => undefined);
    const transport = nodeHttp.newUndiciClientTransport({ baseURL: base });
    const abort = new AbortController();
    const pending = transport.exchange(exchange('/', abort.signal));
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(rest.RequestError);
    await transport.close();
  });

  it('streams a body, reports a cut one as ResponseBodyError, and stops reading when the caller leaves', async () => {
    let closed!: () => void;
    const left = new Promise<void>((resolve) => (closed = resolve));
    const base = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"n":1}\n');
      if (req.url === '/cut') setTimeout(() => res.destroy(), 20);
      else res.on('close', closed);
    });
    const transport = nodeHttp.newUndiciClientTransport({ baseURL: base });
    const cut = await transport.exchangeStream({ ...exchange('/cut'), query: [] });
    await expect(
      (async () => {
        for await (const _ of cut.body) void _;
      })(),
    ).rejects.toBeInstanceOf(rest.ResponseBodyError);
    const endless = await transport.exchangeStream({ ...exchange('/endless'), query: [] });
    for await (const chunk of endless.body) {
      expect(new TextDecoder().decode(chunk)).toBe('{"n":1}\n');
      break;
    }
    // Leaving the iteration destroys the body: the server sees its response closed.
    await left;
    await transport.close();
  });
});
