import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PipelineResponse } from '@lib/rest/pipeline';
import { describe, expect, it } from 'vitest';
import { closeUnreadBodies, sendResponse, writeResponse } from './response.js';

interface Written {
  status?: number;
  head?: string[];
  body?: unknown;
  destroyed: boolean;
}

/** A node:http response that records its head and body; `refuse` makes `writeHead` throw for that header value. */
function recorder(req: Partial<IncomingMessage> = {}, refuse?: string): { readonly res: ServerResponse; readonly out: Written } {
  const out: Written = { destroyed: false };
  const headers = new Map<string, unknown>();
  const res = {
    req: { method: 'GET', complete: true, headers: {}, ...req },
    headersSent: false,
    writableEnded: false,
    writeHead(status: number, raw: string[]) {
      if (refuse !== undefined && raw.includes(refuse)) throw new TypeError('invalid header');
      out.status = status;
      out.head = raw;
      this.headersSent = true;
      return this;
    },
    end(body?: unknown) {
      out.body = body;
      this.writableEnded = true;
    },
    destroy() {
      out.destroyed = true;
    },
    setHeader: (name: string, value: unknown) => headers.set(name, value),
    getHeader: (name: string) => headers.get(name),
    getHeaderNames: () => [...headers.keys()],
    removeHeader: (name: string) => headers.delete(name),
  };
  return { res: res as unknown as ServerResponse, out };
}

const response = (status: number, body: PipelineResponse['body'], headers: [string, string][] = []): PipelineResponse => ({ status, headers, body }) as PipelineResponse;

describe('writeResponse', () => {
  it('sends the length of bytes and of UTF-8 text, none for 204, and drops the pipeline’s own Connection and Content-Length', () => {
    const text = recorder();
    writeResponse(text.res, response(200, 'héllo', [['content-type', 'text/plain'], ['content-length', '1'], ['connection', 'keep-alive']]), false);
    expect(text.out).toMatchObject({ status: 200, head: ['content-type', 'text/plain', 'content-length', '6'], body: 'héllo' });
    const bytes = recorder();
    writeResponse(bytes.res, response(200, new Uint8Array([1, 2, 3]).subarray(1)), false);
    expect(bytes.out.head).toEqual(['content-length', '2']);
    expect(Buffer.isBuffer(bytes.out.body) && [...(bytes.out.body as Buffer)]).toEqual([2, 3]);
    const empty = recorder();
    writeResponse(empty.res, response(204, undefined), false);
    expect(empty.out).toMatchObject({ status: 204, head: [], body: undefined });
  });

  it('closes the connection when asked, on 413, and when the request’s body was not read to its end', () => {
    const asked = recorder();
    writeResponse(asked.res, response(200, undefined), true);
    expect(asked.out.head).toEqual(['content-length', '0', 'connection', 'close']);
    const tooLarge = recorder();
    writeResponse(tooLarge.res, response(413, undefined), false);
    expect(tooLarge.out.head).toContain('connection');
    const unread = recorder({ complete: false, headers: { 'content-length': '10' } });
    writeResponse(unread.res, response(404, undefined), false);
    expect(unread.out.head).toEqual(['content-length', '0', 'connection', 'close']);
    const bodiless = recorder({ complete: false, headers: { 'content-length': '0' } });
    writeResponse(bodiless.res, response(404, undefined), false);
    expect(bodiless.out.head).toEqual(['content-length', '0']);
  });
});

describe('sendResponse', () => {
  it('answers the 500 envelope when node:http refuses the response, and destroys the connection once part of it left', () => {
    const refused = recorder({}, 'bad\nvalue');
    sendResponse(refused.res, response(200, 'x', [['x-a', 'bad\nvalue']]), false);
    expect(refused.out.status).toBe(500);
    expect(refused.out.head).toContain('connection');
    expect(JSON.parse(Buffer.from(refused.out.body as Uint8Array).toString())).toEqual({ error: 'internal server error' });
    expect(refused.out.destroyed).toBe(false);

    const started = recorder({}, 'bad\nvalue');
    (started.res as { headersSent: boolean }).headersSent = true;
    sendResponse(started.res, response(200, 'x', [['x-a', 'bad\nvalue']]), false);
    expect(started.out.destroyed).toBe(true);
  });
});

describe('closeUnreadBodies', () => {
  it('adds Connection: close to a head written before the request’s body was read, or while draining', () => {
    const unread = recorder();
    closeUnreadBodies({ complete: false, headers: { 'transfer-encoding': 'chunked' } } as unknown as IncomingMessage, unread.res, () => false);
    unread.res.writeHead(200);
    expect(unread.res.getHeader('connection')).toBe('close');
    const read = recorder();
    closeUnreadBodies({ complete: true, headers: {} } as unknown as IncomingMessage, read.res, () => false);
    read.res.writeHead(200);
    expect(read.res.getHeader('connection')).toBeUndefined();
    const draining = recorder();
    closeUnreadBodies({ complete: true, headers: {} } as unknown as IncomingMessage, draining.res, () => true);
    draining.res.writeHead(200);
    expect(draining.res.getHeader('connection')).toBe('close');
  });
});
