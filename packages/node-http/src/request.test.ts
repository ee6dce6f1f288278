import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { BodyTooLargeError } from '@lib/rest';
import { describe, expect, it } from 'vitest';
import { fetchRequestOf, headerOf, NodePipelineRequest, readBody } from './request.js';

/** A request body stream with the headers `readBody` looks at. */
function upload(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

/** The parts of a node:http request `fetchRequestOf` reads. */
function incoming(fields: { method?: string; url?: string; rawHeaders?: string[]; encrypted?: boolean }): IncomingMessage {
  const raw = fields.rawHeaders ?? ['Host', 'api.test'];
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[(raw[i] as string).toLowerCase()] = raw[i + 1] as string;
  return { method: fields.method ?? 'GET', url: fields.url ?? '/', rawHeaders: raw, headers, socket: { encrypted: fields.encrypted } } as unknown as IncomingMessage;
}

describe('readBody', () => {
  it('reads the whole body, from one chunk or several', async () => {
    const one = upload();
    const read1 = readBody(one, 100);
    one.end(Buffer.from('hello'));
    expect(Buffer.from(await read1).toString()).toBe('hello');
    const many = upload();
    const read2 = readBody(many, 100);
    many.write('hel');
    many.end('lo!');
    expect(Buffer.from(await read2).toString()).toBe('hello!');
  });

  it('refuses a declared Content-Length over the limit without reading, and stops at the first chunk past it', async () => {
    const declared = upload({ 'content-length': '11' });
    await expect(readBody(declared, 10)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(declared.listenerCount('data')).toBe(0);
    const chunked = upload();
    const read = readBody(chunked, 4);
    chunked.write('abc');
    chunked.write('de');
    await expect(read).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(chunked.listenerCount('data')).toBe(0);
    expect(chunked.isPaused()).toBe(true);
  });

  it('fails when the request is aborted', async () => {
    const failing = upload();
    const read = readBody(failing, 10);
    failing.emit('aborted');
    await expect(read).rejects.toThrow(/request aborted/);
  });
});

describe('fetchRequestOf', () => {
  it('builds the absolute URL from the Host header and the socket (https on TLS)', () => {
    expect(fetchRequestOf(incoming({ url: '/a?b=1' })).url).toBe('http://api.test/a?b=1');
    expect(fetchRequestOf(incoming({ url: '/a', encrypted: true })).url).toBe('https://api.test/a');
    // Concatenated, not resolved: another host in the target stays a path.
    expect(fetchRequestOf(incoming({ url: '//other.host/x' })).url).toBe('http://api.test//other.host/x');
    expect(fetchRequestOf(incoming({ url: '/a', rawHeaders: ['Host', 'bad host'] })).url).toBe('http://localhost/');
  });

  it('keeps repeated headers, leaves out those fetch refuses, and names CONNECT and TRACE GET', () => {
    const req = fetchRequestOf(incoming({ method: 'TRACE', rawHeaders: ['Host', 'api.test', 'X-A', '1', 'X-A', '2', 'Bad Name', 'v'] }));
    expect(req.method).toBe('GET');
    expect(req.headers.get('x-a')).toBe('1, 2');
    expect([...req.headers.keys()]).toEqual(['host', 'x-a']);
    expect(fetchRequestOf(incoming({ method: 'POST' })).method).toBe('POST');
  });
});

describe('NodePipelineRequest', () => {
  it('joins repeated headers, and aborts its signal only when the client leaves before the answer is out', () => {
    expect(headerOf({ headers: { 'x-a': ['1', '2'] } } as unknown as IncomingMessage, 'x-a')).toBe('1, 2');
    const res = Object.assign(new EventEmitter(), { destroyed: false, writableFinished: false }) as unknown as ServerResponse;
    const req = new NodePipelineRequest(incoming({ method: 'PUT' }), res, { id: '7' }, 'q=1', new Set());
    expect([req.method, req.pathParams, req.rawQuery, req.header('host')]).toEqual(['PUT', { id: '7' }, 'q=1', 'api.test']);
    expect(res.listenerCount('close')).toBe(0); // the signal is made on first use
    const signal = req.signal;
    expect(req.signal).toBe(signal);
    res.emit('close');
    expect(signal.aborted).toBe(true);
    expect(String(signal.reason)).toMatch(/client closed the connection/);

    const answered = Object.assign(new EventEmitter(), { destroyed: false, writableFinished: true }) as unknown as ServerResponse;
    const done = new NodePipelineRequest(incoming({}), answered, {}, '', new Set());
    const kept = done.signal;
    answered.emit('close');
    expect(kept.aborted).toBe(false);
  });
});
