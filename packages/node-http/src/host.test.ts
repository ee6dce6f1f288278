import { connect } from 'node:net';
import { errorEnvelopeResponse } from '@lib/rest/pipeline';
import { describe, expect, it } from 'vitest';
import { NodeHost, parseAddr, type RefuseFunc } from './host.js';

const refuse = (): RefuseFunc => (_req, message, status) => errorEnvelopeResponse(status, message);

/** Writes `request` on a new connection to `port`, and resolves with everything read until it closes. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

/** A host serving `ok` on 127.0.0.1; `stop()` aborts and resolves when `serve` does. */
async function hosted(shutdownTimeout = 10_000): Promise<{ readonly host: NodeHost; readonly port: number; stop(): Promise<void> }> {
  const host = new NodeHost({ addr: '127.0.0.1:0' });
  const abort = new AbortController();
  const served = host.serve(host.listener((_req, res) => res.end('ok'), refuse), host.expectationListener(refuse), { signal: abort.signal, shutdownTimeout });
  const { port } = await host.listening();
  return {
    host,
    port,
    stop: () => {
      abort.abort();
      return served;
    },
  };
}

describe('parseAddr', () => {
  it('parses host:port and rejects anything else', () => {
    expect(parseAddr('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseAddr('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAddr(':9')).toEqual({ host: '127.0.0.1', port: 9 });
    for (const bad of ['localhost', '1.2.3.4:99999', 'a:b']) expect(() => parseAddr(bad)).toThrow(TypeError);
  });
});

describe('NodeHost', () => {
  it('validates its address and timeouts, and resolves serve at once without an address', async () => {
    expect(() => new NodeHost({ addr: 'nope' })).toThrow(TypeError);
    expect(() => new NodeHost({ keepAliveTimeout: -1 })).toThrow(TypeError);
    expect(() => new NodeHost({ headersTimeout: 2000, requestTimeout: 1000 })).toThrow(/must not exceed/);
    expect(() => new NodeHost({ headersTimeout: 2000, requestTimeout: 0 })).not.toThrow();
    const host = new NodeHost();
    await host.serve(() => undefined, () => undefined, {});
    expect(host.address()).toBeUndefined();
  });

  it('answers what it refuses before routing with the transport’s answer: 505 for HTTP/2 request lines, 400 without Host, 417 for an unknown Expect', async () => {
    const { port, stop } = await hosted();
    try {
      expect(await raw(port, 'GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok$/);
      const v2 = await raw(port, 'GET / HTTP/2.0\r\nHost: t\r\n\r\n');
      expect(v2).toMatch(/^HTTP\/1\.1 505 /);
      expect(v2).toMatch(/\r\nConnection: close\r\n/i);
      expect(v2.endsWith('{"error":"HTTP version not supported"}')).toBe(true);
      expect(await raw(port, 'GET / HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 [^]*\{"error":"missing Host header"\}$/);
      expect(await raw(port, 'GET / HTTP/1.1\r\nHost: t\r\nExpect: 200-ok\r\n\r\n')).toMatch(/^HTTP\/1\.1 417 [^]*\{"error":"expectation failed"\}$/);
      // HTTP/1.0 may come without Host.
      expect(await raw(port, 'GET / HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await stop();
    }
  });

  it('answers 500 when the route throws, and refuses to serve twice', async () => {
    const host = new NodeHost({ addr: '127.0.0.1:0' });
    const abort = new AbortController();
    const listener = host.listener(() => {
      throw new Error('broken');
    }, refuse);
    const served = host.serve(listener, host.expectationListener(refuse), { signal: abort.signal });
    const { port } = await host.listening();
    try {
      expect(await raw(port, 'GET / HTTP/1.1\r\nHost: t\r\n\r\n')).toMatch(/^HTTP\/1\.1 500 [^]*\{"error":"internal server error"\}$/);
      await expect(host.serve(listener, listener, {})).rejects.toThrow(/already serving/);
    } finally {
      abort.abort();
      await served;
    }
  });

  it('closes idle keep-alive connections at once when shutdown starts, and is draining from then on', async () => {
    const { host, port, stop } = await hosted(60_000);
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    const first = new Promise<string>((r) => socket.once('data', (c: Buffer) => r(c.toString('latin1'))));
    socket.write('GET / HTTP/1.1\r\nHost: t\r\n\r\n');
    expect(await first).toMatch(/^HTTP\/1\.1 200 /);
    expect(host.draining).toBe(false);
    const t0 = performance.now();
    await stop();
    await closed;
    expect(host.draining).toBe(true);
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
