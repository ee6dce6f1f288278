import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { clientErrorListener, connectListener, isAnswering, stillReceiving, track } from './connections.js';

/** A socket that records what is written to it and how it is closed. */
class FakeSocket extends EventEmitter {
  written = '';
  writable = true;
  readable = true;
  destroyed = false;
  ended = false;
  closedSoon = 0;
  resumed = false;
  _httpMessage: { headersSent?: boolean } | undefined;
  end(data?: string): void {
    if (data !== undefined) this.written += data;
    this.ended = true;
    this.writable = false;
  }
  destroySoon(): void {
    this.closedSoon++;
  }
  destroy(): void {
    this.destroyed = true;
  }
  resume(): void {
    this.resumed = true;
  }
}

const socket = (): FakeSocket & Duplex => new FakeSocket() as FakeSocket & Duplex;
const error = (code: string): Error & { code: string } => Object.assign(new Error(code), { code });
/** The status line and body of a raw answer. */
const answer = (s: FakeSocket): [string, string] => [s.written.split('\r\n')[0] as string, s.written.slice(s.written.indexOf('\r\n\r\n') + 4)];

/** A request on `s` and its response, tracked as being answered. */
function answering(s: FakeSocket, complete = true): { readonly req: IncomingMessage & EventEmitter; readonly res: ServerResponse } {
  const req = Object.assign(new EventEmitter(), { socket: s, complete, resume: () => undefined }) as unknown as IncomingMessage & EventEmitter;
  const res = new EventEmitter() as unknown as ServerResponse;
  track(req, res);
  return { req, res };
}

describe('clientErrorListener', () => {
  it('answers the JSON envelope of the status the parse error calls for, with Connection: close', () => {
    for (const [code, status] of [['HPE_HEADER_OVERFLOW', '431 Request Header Fields Too Large'], ['ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout'], ['HPE_CHUNK_EXTENSIONS_OVERFLOW', '413 Payload Too Large'], ['HPE_INVALID_METHOD', '400 Bad Request']] as const) {
      const s = socket();
      clientErrorListener(error(code), s);
      const [line, body] = answer(s);
      expect(line, code).toBe(`HTTP/1.1 ${status}`);
      expect(JSON.parse(body)).toEqual({ error: status.slice(4).toLowerCase() });
      expect(s.written).toContain('\r\nConnection: close\r\n');
      expect(s.closedSoon, code).toBe(1);
    }
  });

  it('destroys a reset connection, and one whose response already started', () => {
    const reset = socket();
    clientErrorListener(error('ECONNRESET'), reset);
    expect([reset.written, reset.destroyed]).toEqual(['', true]);
    const started = socket();
    started._httpMessage = { headersSent: true };
    clientErrorListener(error('HPE_INVALID_CHUNK_SIZE'), started);
    expect([started.written, started.destroyed]).toEqual(['', true]);
  });

  it('answers earlier pipelined requests first: the error answer waits until they are answered', () => {
    const s = socket();
    const first = answering(s);
    const second = answering(s);
    expect(isAnswering(s)).toBe(true);
    clientErrorListener(error('HPE_INVALID_METHOD'), s);
    expect(s.written).toBe('');
    // A second error on the same connection changes nothing.
    clientErrorListener(error('HPE_INVALID_METHOD'), s);
    first.res.emit('close');
    expect(s.written).toBe('');
    second.res.emit('close');
    expect(isAnswering(s)).toBe(false);
    expect(answer(s)[0]).toBe('HTTP/1.1 400 Bad Request');
  });
});

describe('connectListener', () => {
  it('answers CONNECT 501 with the envelope', () => {
    const s = socket();
    connectListener({} as IncomingMessage, s);
    expect(answer(s)).toEqual(['HTTP/1.1 501 Not Implemented', '{"error":"CONNECT is not supported"}']);
  });
});

describe('track', () => {
  it('runs whenIdle once the connection’s last request is answered', () => {
    const s = socket();
    const idle: unknown[] = [];
    const req = Object.assign(new EventEmitter(), { socket: s, complete: true }) as unknown as IncomingMessage;
    const res = new EventEmitter() as unknown as ServerResponse;
    track(req, res, (x) => idle.push(x));
    expect(idle).toEqual([]);
    res.emit('close');
    expect(idle).toEqual([s]);
  });

  it('closes a connection whose upload is still arriving in stages: FIN first, the rest read and dropped', () => {
    const s = socket();
    const { req } = answering(s, false);
    expect(stillReceiving(s)).toBe(true);
    req.on('data', () => undefined);
    s.destroySoon();
    expect([s.closedSoon, s.ended, s.destroyed, s.resumed]).toEqual([0, true, false, true]);
    expect(req.listenerCount('data')).toBe(0);
    s.emit('end');
    expect(s.destroyed).toBe(true);

    const whole = socket();
    answering(whole, true);
    expect(stillReceiving(whole)).toBe(false);
    whole.destroySoon();
    expect([whole.closedSoon, whole.ended]).toEqual([1, false]);
  });
});
