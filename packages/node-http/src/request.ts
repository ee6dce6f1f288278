/**
 * Reading a node:http request into the pipeline's request shape: the `PipelineRequest` of one
 * request, its body read whole (up to a limit) and its fetch `Request` view.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError } from '@lib/rest';
import type { PipelineRequest, TempFileStore } from '@lib/rest/pipeline';
import type { FileStore } from '@lib/format';
import { bodyStream, requestFileStore } from './streams.js';

/** A request header by lower-case name; repeated headers joined with `, ` (RFC 9110 §5.3). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * A node:http request as the pipeline reads it: one object per request, its methods on the
 * prototype; the `AbortSignal` and the file store are created on first use only (most handlers
 * never read `ctx.signal`, most requests upload no file).
 */
export class NodePipelineRequest implements PipelineRequest {
  readonly method: string;
  readonly pathParams: Record<string, string | undefined>;
  readonly rawQuery: string;
  /** The path as it arrived (percent-encoded, dot segments removed), for styled path parameters. */
  readonly rawPath: string | undefined;
  readonly native: IncomingMessage;
  readonly #res: ServerResponse;
  /** The host's stores with files to delete, which the file store joins. */
  readonly #live: Set<TempFileStore>;
  #controller: AbortController | undefined;
  #files: FileStore | undefined;
  #fetchRequest: Request | undefined;
  constructor(req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>, rawQuery: string, live: Set<TempFileStore>, rawPath?: string) {
    this.method = req.method ?? 'GET';
    this.pathParams = params;
    this.rawQuery = rawQuery;
    this.rawPath = rawPath;
    this.native = req;
    this.#res = res;
    this.#live = live;
  }
  header(name: string): string | undefined {
    return headerOf(this.native, name);
  }
  readBody(limit: number): Promise<Uint8Array> {
    return readBody(this.native, limit);
  }
  bodyStream(limit: number): AsyncIterable<Uint8Array> {
    return bodyStream(this.native, limit);
  }
  get files(): FileStore {
    return (this.#files ??= requestFileStore(this.#res, this.#live));
  }
  fetchRequest(): Request {
    return (this.#fetchRequest ??= fetchRequestOf(this.native));
  }
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const c = new AbortController();
      this.#controller = c;
      const res = this.#res;
      const gone = (): void => {
        if (!res.writableFinished) c.abort(new Error('client closed the connection'));
      };
      if (res.destroyed) gone();
      else res.once('close', gone);
    }
    return this.#controller.signal;
  }
}

/**
 * A node:http request as a fetch `Request` without its body: method, absolute URL (`http://`,
 * or `https://` on a TLS socket, and the `Host` header) and headers (repeated ones as they came).
 */
export function fetchRequestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header fetch refuses (a name or value outside its grammar) is left out of the view.
    }
  }
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  let url: string;
  try {
    // Concatenated, not resolved: a target such as `//other.host/x` stays a path of this host.
    url = new URL(`${tls ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`).href;
  } catch {
    url = `${tls ? 'https' : 'http'}://localhost/`;
  }
  const method = req.method ?? 'GET';
  // fetch refuses CONNECT, TRACE and TRACK: the view names such a request GET.
  return new Request(url, { method: /^(CONNECT|TRACE|TRACK)$/i.test(method) ? 'GET' : method, headers });
}

/**
 * Reads a request body up to `limit` bytes. A declared `Content-Length` over the limit fails at
 * once without reading; otherwise reading stops at the first chunk past the limit, so an
 * oversized body is never held whole.
 * @throws {BodyTooLargeError}
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        req.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onAborted = (): void => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
