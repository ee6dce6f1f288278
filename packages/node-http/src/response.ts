/**
 * Writing a pipeline response to node:http: status and headers in one `writeHead`, the body as
 * bytes, a string or a stream; `Connection: close` when the request's body was not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorEnvelopeResponse, type PipelineResponse } from '@lib/rest/pipeline';
import { pipeBody } from './streams.js';

/**
 * Writes a pipeline response to a node:http response, status and headers in one `writeHead`.
 * `close` asks the client to close the connection (while draining). A response written before
 * the request's body was read to its end (404, 405, 406, 415, 413, or a route that reads no body)
 * is sent with `Connection: close`: node:http then stops reading the upload and closes the
 * connection once the response is out, instead of reading and discarding the rest of it.
 * @throws {TypeError} when node:http refuses a header (the pipeline checks every value first,
 * so this means a bug; {@link sendResponse} turns it into a 500).
 */
export function writeResponse(res: ServerResponse, out: PipelineResponse, close: boolean): void {
  const raw: string[] = [];
  for (const [k, v] of out.headers) {
    if (k === 'connection' || k === 'content-length') continue;
    raw.push(k, v);
  }
  const body = out.body;
  const text = typeof body === 'string';
  const streamed = body !== undefined && !text && !(body instanceof Uint8Array);
  // A streamed body has no length up front: node:http sends it chunked (RFC 9112 §7.1).
  if (out.status !== 204 && out.status !== 304 && !streamed) raw.push('content-length', String(body === undefined ? 0 : text ? Buffer.byteLength(body) : body.byteLength));
  if (close || out.status === 413 || unreadBody(res.req)) raw.push('connection', 'close');
  res.writeHead(out.status, raw);
  if (streamed) void pipeBody(res, body, res.req.method === 'HEAD');
  // A string goes out as UTF-8 in the same write as the head.
  else if (text) res.end(body, 'utf8');
  else res.end(body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

/** The 500 envelope, answered when a response cannot be written or a listener fails. */
export const INTERNAL_ERROR: PipelineResponse = errorEnvelopeResponse(500, 'internal server error');

/**
 * For a request listener that writes its own responses (a fetch-style adapter): the response
 * gets `Connection: close` when it is written before the request's body was read to its end, or
 * while the server drains — as {@link writeResponse} does — so node:http stops reading an
 * upload nobody will read, and closes the connection after the answer.
 */
export function closeUnreadBodies(req: IncomingMessage, res: ServerResponse, draining: () => boolean): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]): ServerResponse {
    try {
      if (!res.headersSent && (draining() || unreadBody(req))) res.setHeader('connection', 'close');
    } catch {
      // A header that cannot be set changes nothing else.
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * True when the request has a body (RFC 9112 §6.3: `Transfer-Encoding`, or a non-zero
 * `Content-Length`) that node:http has not received to its end. A bodiless request answered
 * synchronously is not yet marked `complete`, hence the header check.
 */
function unreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Writes a pipeline response and never throws: when node:http refuses the response before
 * anything was sent, the client gets the 500 envelope instead; when even that is impossible, or
 * part of the response already left, the connection is destroyed.
 */
export function sendResponse(res: ServerResponse, out: PipelineResponse, close: boolean): void {
  try {
    writeResponse(res, out, close);
    return;
  } catch {
    // Fall through: answer 500 if nothing went out.
  }
  try {
    if (!res.headersSent && !res.writableEnded) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      writeResponse(res, INTERNAL_ERROR, true);
      return;
    }
  } catch {
    // Fall through: destroy.
  }
  res.destroy();
}
