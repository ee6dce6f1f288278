/**
 * The connections of a Node host: which requests each is answering (for pipelining and graceful
 * shutdown), how one closes while its client still uploads, and the raw answers to requests
 * node:http cannot parse (`clientError`) or hands over as a socket (`CONNECT`).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Requests of a connection being answered by a transport's listener, by socket. */
const answering = new WeakMap<object, number>();
/** A parse-error answer waiting for the connection's earlier (pipelined) requests to be answered. */
const deferred = new WeakMap<object, () => void>();
/** The last request a transport's listener received on each connection. */
const lastRequest = new WeakMap<object, IncomingMessage>();

/**
 * Counts `req` as being answered on its connection until `res` closes; then, with nothing left
 * to answer, runs a deferred parse-error answer, or `whenIdle` (closing while draining).
 */
export function track(req: IncomingMessage, res: ServerResponse, whenIdle?: (socket: Socket) => void): void {
  const socket = req.socket;
  if (!answering.has(socket)) lingerOnClose(socket);
  answering.set(socket, (answering.get(socket) ?? 0) + 1);
  lastRequest.set(socket, req);
  res.once('close', () => {
    const n = (answering.get(socket) ?? 1) - 1;
    answering.set(socket, n);
    if (n > 0) return;
    const next = deferred.get(socket);
    if (next !== undefined) {
      deferred.delete(socket);
      next();
    } else whenIdle?.(socket);
  });
}

/** How long a connection closed before its request's body arrived goes on reading it: 2 s. */
const LINGER_MS = 2000;

/**
 * Makes `socket` close in stages when it is closed (`destroySoon`, what node:http does after a
 * `Connection: close` answer) while the client is still sending the request's body — an early
 * 401, 413 or 415, or a route that reads no body (RFC 9112 §9.6): the answer goes out with a FIN,
 * and the rest of the upload is read and dropped until the client closes its side, or for
 * {@link LINGER_MS} at most. Destroying the socket with the upload still arriving would send a
 * reset, which can make the client lose the answer it has not read yet. A connection whose
 * request was received whole closes as before.
 */
function lingerOnClose(socket: Socket): void {
  const destroySoon = socket.destroySoon;
  if (typeof destroySoon !== 'function') return;
  socket.destroySoon = function lingeringDestroySoon(this: Socket): void {
    const req = lastRequest.get(socket);
    if (req === undefined || req.complete || socket.destroyed || !socket.readable) {
      destroySoon.call(this);
      return;
    }
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // The client's FIN: it has stopped sending, and read the answer before it closed.
    socket.once('end', () => socket.destroy());
    socket.end();
    // Whatever still arrives is read and dropped, whoever was reading the body.
    req.removeAllListeners('data');
    req.resume();
    socket.resume();
  };
}

/** True when the transport's listeners are answering a request on `socket`. */
export function isAnswering(socket: object): boolean {
  return (answering.get(socket) ?? 0) > 0;
}

/** True when the last request received on `socket` has not arrived whole (headers or body still coming). */
export function stillReceiving(socket: object): boolean {
  return lastRequest.get(socket)?.complete === false;
}

/** Writes a whole JSON error response on a raw socket and closes it. Never throws. */
function answerRaw(socket: Duplex, status: number, message?: string): void {
  try {
    if (socket.writable) {
      const phrase = STATUS_CODES[status] ?? 'Bad Request';
      const body = JSON.stringify({ error: message ?? phrase.toLowerCase() });
      socket.end(`HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      (socket as Partial<Socket>).destroySoon?.();
      return;
    }
  } catch {
    // Fall through: destroy.
  }
  socket.destroy();
}

/**
 * Answers a request node:http could not parse (a `clientError`): malformed request lines or
 * headers, smuggling attempts (`Content-Length` with `Transfer-Encoding`, bad chunking), headers
 * over the size limit (431) or too slow (408). The answer is the JSON envelope of that status
 * with `Connection: close`; then the connection is closed. Requests that arrived before the bad
 * one on the same keep-alive connection (pipelining) are answered first, in order (RFC 9112
 * §9.3.2); if a response has already started and cannot be finished, the connection is destroyed
 * instead, so a peer is never sent a corrupted stream. Never throws. Install it on a server of
 * your own with `server.on('clientError', clientErrorListener)`.
 */
export function clientErrorListener(err: Error & { readonly code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable || deferred.has(socket)) {
    if (!deferred.has(socket)) socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408
    : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413
    : 400;
  if (isAnswering(socket) && err.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && lastRequest.get(socket)?.complete === true) {
    // Earlier, complete requests on this connection are still being answered: answer them first.
    // (When the error is inside the body of the request being answered, that request can never
    // complete: it is answered now, below.)
    deferred.set(socket, () => answerRaw(socket, status));
    return;
  }
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent === true) socket.destroy();
  else answerRaw(socket, status);
}

/**
 * Answers a `CONNECT` request (node:http hands it over as a raw socket, the `connect` event):
 * this is an origin server, not a proxy, so 501 with the JSON envelope, then the connection is
 * closed. Install it on a server of your own with `server.on('connect', connectListener)`.
 */
export function connectListener(_req: IncomingMessage, socket: Duplex): void {
  answerRaw(socket, 501, 'CONNECT is not supported');
}
