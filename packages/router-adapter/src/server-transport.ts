import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context as HonoContext } from 'hono';
import { BodyTooLargeError, DuplicateRouteError, type Context, type ParamKind, type ServeOptions, type ServerTransport } from '@lib/rest';
import {
  colonPath,
  errorEnvelopeResponse,
  HTTP_PARAM_KINDS,
  nativeRequestKey,
  newTempFileStore,
  prepareFallback,
  templateShape,
  templateSource,
  type FallbackResponses,
  type PipelineRequest,
  type PipelineResponse,
  type PreparedRoute,
  type TempFileStore,
} from '@lib/rest/pipeline';
import type { Address, NodeHost, NodeHostOptions } from '@lib/node-http';
import { collectBytes, type FileStore } from '@lib/format';

/** The modules only serving on Node (`addr`) needs. */
const NODE_ONLY: readonly string[] = ['@lib/node-http', '@hono/node-server'];

/** Options of {@link newServerTransport}. */
export interface ServerTransportOptions extends NodeHostOptions {
  /** A Hono app to register into (your own routes and middleware keep working); default: a new one. */
  readonly router?: Hono;
  /**
   * `'host:port'` to listen on with Node (`@hono/node-server`; port 0 picks a free one). Without
   * it, serve `transport.router.fetch` yourself: Bun, Deno, Workers, or any server taking a
   * `(request: Request) => Promise<Response>`.
   */
  readonly addr?: string;
}

const INTERNAL_ERROR = errorEnvelopeResponse(500, 'internal server error');


/**
 * A total order of templates, given split at `/`, in which, segment by segment, a literal comes
 * before a `{var}` (literals by their text, then the shorter template first).
 */
function specificity(sa: readonly string[], sb: readonly string[]): number {
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i] as string;
    const y = sb[i] as string;
    const vx = x.includes('{');
    const vy = y.includes('{');
    if (vx !== vy) return vx ? 1 : -1;
    if (!vx && x !== y) return x < y ? -1 : 1;
  }
  return sa.length - sb.length;
}

/**
 * The body of a `Request`, read up to `limit` bytes: a declared `Content-Length` over the limit
 * fails before reading, and reading stops at the first chunk past it (the rest is never read).
 * @throws {BodyTooLargeError}
 */
async function* bodyChunks(request: Request, limit: number): AsyncGenerator<Uint8Array, void, undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (request.body === null) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        readToEnd.add(request);
        return;
      }
      size += next.value.byteLength;
      if (size > limit) throw new BodyTooLargeError(limit);
      yield next.value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Requests whose body was read to its end. */
const readToEnd = new WeakSet<Request>();
/** How long an answer waits for the rest of a body nobody reads: 2 s (as the node:http host lingers). */
const DRAIN_MS = 2000;
/** How much of a body nobody reads is read and dropped before the answer goes out: 16 MiB. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops what is left of a request body nobody read (an upload refused with 413, 415
 * or 401 before or while it arrived), for {@link DRAIN_MS} and {@link DRAIN_MAX_BYTES} at most,
 * before the answer goes out. A runtime that answers while the client is still sending closes the
 * connection under it (Bun, workerd): the client then gets a broken pipe instead of the answer
 * (RFC 9112 §9.6). Never throws.
 */
async function drainUnread(request: Request): Promise<void> {
  const body = request.body;
  if (body === null || readToEnd.has(request)) return;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch {
    return; // Still locked by a reader that is not done: leave it to the runtime.
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), DRAIN_MS);
  });
  let size = 0;
  try {
    while (size <= DRAIN_MAX_BYTES) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === undefined || next.done) break;
      size += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to wait for.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
}

function readWhole(request: Request, limit: number): Promise<Uint8Array> {
  return collectBytes(bodyChunks(request, limit));
}

/** A module of the runtime's Node compatibility (Node, Bun, Deno), without importing it on runtimes that lack it. */
function builtin<M>(id: string): M | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(id) as M | undefined;
}

/**
 * Temporary files for the uploads of one request (`codec.blob()` multipart parts) where the
 * runtime has a file system; closing the store deletes them. `undefined` elsewhere: blobs stay in
 * memory. The store is in `live` (the Node host's, when this transport serves on Node) until its
 * files are deleted, so that the host's shutdown waits for them.
 */
function fileStore(live: Set<TempFileStore> | undefined): TempFileStore | undefined {
  const fs = builtin<typeof import('node:fs')>('node:fs');
  const os = builtin<typeof import('node:os')>('node:os');
  if (fs === undefined || os === undefined || typeof fs.openAsBlob !== 'function') return undefined;
  return newTempFileStore(fs, os.tmpdir, live);
}

/** The `Response` class a transport builds its responses with. */
type ResponseClass = new (...args: ConstructorParameters<typeof Response>) => Response;

/**
 * A pipeline response's headers as a `Response` takes them: a plain record when no name repeats
 * (the common case, which @hono/node-server writes with one `writeHead` and no `Headers`), a
 * `Headers` otherwise (`set-cookie` twice).
 */
function responseHeaders(entries: PipelineResponse['headers']): Headers | Record<string, string> {
  const record: Record<string, string> = {};
  for (const [k, v] of entries) {
    if (Object.hasOwn(record, k)) {
      const headers = new Headers();
      for (const [name, value] of entries) headers.append(name, value);
      return headers;
    }
    record[k] = v;
  }
  return record;
}

/**
 * A pipeline response as a `Response` (of `Res`, the runtime's own by default): a streamed body
 * becomes a `ReadableStream` pulled as the runtime sends it (backpressure), whose cancellation
 * (the client went away) ends the producer, and whose failure after the head errors the stream
 * (the runtime cuts the connection). `done` runs when the body has been sent or abandoned.
 */
function toResponse(out: PipelineResponse, done: () => void, Res: ResponseClass = Response): Response {
  const headers = responseHeaders(out.headers);
  const body = out.body;
  if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
    done();
    return new Res(out.status === 204 || out.status === 304 ? null : (body as string | Uint8Array<ArrayBuffer> | undefined) ?? null, { status: out.status, headers });
  }
  const it = body[Symbol.asyncIterator]();
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    done();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await it.next();
          if (next.done === true) {
            controller.close();
            finish();
          } else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
          finish();
        }
      },
      async cancel() {
        finish();
        try {
          await it.return?.();
        } catch {
          // The producer's cleanup failed: nothing is left to tell.
        }
      },
    },
    { highWaterMark: 0 },
  );
  return new Res(stream, { status: out.status, headers });
}

/**
 * @hono/node-server's lightweight `Response` class, without leaving it in place of the global:
 * `getRequestListener` with `overrideGlobalObjects` installs its `Request` and `Response` on
 * `globalThis` (synchronously); they are read and the runtime's own put back at once, so users'
 * `Response` stays the runtime's. A `Response` of that class with a string or byte body is
 * written by the listener with one `writeHead` and one `end`, where the runtime's `Response`
 * takes the web-streams path (a `ReadableStream` per body, transferable buffers, an
 * `AbortSignal`). Falls back to the global `Response` if the class did not appear.
 */
function lightResponseClass(getRequestListener: (fetch: () => undefined, options: { overrideGlobalObjects: boolean }) => unknown): ResponseClass {
  const g = globalThis as Record<string, unknown>;
  const request = Object.getOwnPropertyDescriptor(g, 'Request');
  const response = Object.getOwnPropertyDescriptor(g, 'Response');
  try {
    getRequestListener(() => undefined, { overrideGlobalObjects: true });
    const light = g.Response;
    return typeof light === 'function' && light.prototype instanceof Response ? (light as ResponseClass) : Response;
  } catch {
    return Response;
  } finally {
    if (request !== undefined) Object.defineProperty(g, 'Request', request);
    if (response !== undefined) Object.defineProperty(g, 'Response', response);
  }
}

/** The node:http request behind a Hono context, when this transport's own Node server runs it. */
interface NodeBindings {
  readonly incoming: IncomingMessage;
}

/**
 * What the transport keeps while it serves on Node: body readers for node:http, the `Response`
 * class to answer with, and the host's temporary-file stores (its shutdown deletes their files).
 */
interface NodeServing {
  readonly readBody: (req: IncomingMessage, limit: number) => Promise<Uint8Array>;
  readonly bodyStream: (req: IncomingMessage, limit: number) => AsyncIterable<Uint8Array>;
  readonly Response: ResponseClass;
  readonly tempFiles: Set<TempFileStore>;
}

/** The path of an absolute URL without its query (`http://h/a/b` → `/a/b`); a fragment is not sent. */
function rawPathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}

/**
 * A Hono request as the pipeline reads it: one object per request, its methods on the prototype
 * (an object literal with getters made every request's objects outlive the young generation);
 * the file store is created on first use only. On this transport's own Node server, the body is
 * read straight from node:http unless some middleware already touched it through the `Request`.
 */
class FetchPipelineRequest implements PipelineRequest {
  readonly method: string;
  readonly pathParams: Record<string, string | undefined>;
  readonly rawQuery: string;
  /** The path of the request URL as it arrived (percent-encoded), for styled path parameters. */
  readonly rawPath: string;
  readonly native: HonoContext;
  readonly #request: Request;
  /** The node:http request to read the body from directly, with the transport's Node serving state. */
  readonly #incoming: IncomingMessage | undefined;
  readonly #node: NodeServing | undefined;
  #files: TempFileStore | undefined | null = null;
  constructor(c: HonoContext, node: NodeServing | undefined) {
    const request = c.req.raw;
    const url = request.url;
    const q = url.indexOf('?');
    this.method = request.method;
    this.pathParams = c.req.param() as Record<string, string | undefined>;
    this.rawQuery = q === -1 ? '' : url.slice(q + 1);
    this.rawPath = rawPathOf(q === -1 ? url : url.slice(0, q));
    this.native = c;
    this.#request = request;
    const incoming = node !== undefined ? (c.env as Partial<NodeBindings> | undefined)?.incoming : undefined;
    this.#incoming = incoming !== undefined && !request.bodyUsed && !incoming.readableDidRead && incoming.listenerCount('data') === 0 ? incoming : undefined;
    this.#node = node;
  }
  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }
  readBody(limit: number): Promise<Uint8Array> {
    const incoming = this.#incoming;
    return incoming !== undefined && this.#node !== undefined ? this.#node.readBody(incoming, limit) : readWhole(this.#request, limit);
  }
  bodyStream(limit: number): AsyncIterable<Uint8Array> {
    const incoming = this.#incoming;
    return incoming !== undefined && this.#node !== undefined ? this.#node.bodyStream(incoming, limit) : bodyChunks(this.#request, limit);
  }
  get signal(): AbortSignal {
    return this.#request.signal;
  }
  fetchRequest(): Request {
    return this.#request;
  }
  get files(): FileStore | undefined {
    if (this.#files === null) {
      const store = fileStore(this.#node?.tempFiles);
      this.#files = store;
      // The files go when the response is done (cleanup) or the client leaves, whichever is first.
      if (store !== undefined) {
        const signal = this.#request.signal;
        if (signal.aborted) void store.close();
        else signal.addEventListener('abort', () => void store.close(), { once: true });
      }
    }
    return this.#files;
  }
  /** Deletes the request's temporary files, if it made any. */
  cleanup(): void {
    void this.#files?.close();
  }
}

/**
 * The router adapter: registers every route on a Hono app (`{var}` templates as `:var`) and runs
 * `@lib/rest`'s pipeline for them; answers 404, and 405 with `Allow`, for paths and methods no
 * route takes (through Hono's `notFound`, after your own routes). `transport.router.fetch`
 * serves anywhere a `Request` becomes a `Response`; with `addr`, the transport listens on Node
 * with the same host as `@lib/node-http` (its timeouts, JSON answers to unparseable requests,
 * graceful shutdown), reads request bodies straight from node:http, answers with
 * `@hono/node-server`'s lightweight `Response` (one `writeHead`, no `ReadableStream` for a whole
 * body) without replacing the global one, and hands Hono handlers `c.env.incoming` and
 * `c.env.outgoing`.
 */
export class HonoServerTransport implements ServerTransport {
  readonly adapter = 'router-adapter';
  readonly paramKinds: ReadonlySet<ParamKind> = HTTP_PARAM_KINDS;
  readonly capabilities: ReadonlyMap<string, number> = new Map();
  /** The Hono app the routes are registered on; `router.fetch` serves them. */
  readonly router: Hono;
  /** The configured address, when any. */
  readonly addr: string | undefined;
  readonly #options: ServerTransportOptions;
  /** Every mounted route's method and template, for duplicates and 405's `Allow`. */
  readonly #routes: { readonly method: string; readonly path: string }[] = [];
  /** `METHOD shape` of every mounted route. */
  readonly #shapes = new Set<string>();
  /** The mounted routes' matchers of concrete paths, for 405's `Allow`, built at the first request no route matches. */
  #matchers: { readonly method: string; readonly matcher: RegExp }[] | undefined;
  #fallback: FallbackResponses = prepareFallback({});
  #host: NodeHost | undefined;
  /** Set while this transport serves on Node. */
  #node: NodeServing | undefined;
  #address: Address | undefined;
  readonly #listening: Promise<Address>;
  #resolveListening!: (a: Address) => void;
  #rejectListening!: (e: unknown) => void;

  constructor(options: ServerTransportOptions = {}) {
    this.router = options.router ?? new Hono();
    this.addr = options.addr;
    this.#options = options;
    this.#listening = new Promise<Address>((resolve, reject) => {
      this.#resolveListening = resolve;
      this.#rejectListening = reject;
    });
    this.#listening.catch(() => undefined);
    this.router.notFound((c) => this.#notFound(c));
  }

  /** Where the server listens, once it does; `undefined` before (and without `addr`). */
  address(): Address | undefined {
    return this.#address;
  }

  /** Resolves with the address once the server listens (rejects when listening fails). */
  listening(): Promise<Address> {
    return this.#listening;
  }

  mount(routes: readonly PreparedRoute[], fallback: FallbackResponses = prepareFallback({})): void {
    this.#fallback = fallback;
    // Hono tries routes in registration order; find-my-way (and users) expect a static segment to
    // win over a parameter (`/users/events` before `/users/{id}`): register the specific first.
    const sorted = routes.map((r) => ({ r, segments: r.path.split('/') })).sort((a, b) => specificity(a.segments, b.segments));
    for (const { r } of sorted) {
      const key = `${r.method} ${templateShape(r.path)}`;
      if (this.#shapes.has(key)) throw new DuplicateRouteError(`${r.method} ${r.path}`);
      this.#shapes.add(key);
      this.#routes.push({ method: r.method, path: r.path });
      this.router.on(r.method, colonPath(r.path), (c) => this.#serve(c, r));
    }
    this.#matchers = undefined;
  }

  async #serve(c: HonoContext, route: PreparedRoute): Promise<Response> {
    const node = this.#node;
    const req = new FetchPipelineRequest(c, node);
    try {
      const out = await route.run(req);
      // On Node the host lingers on the socket; elsewhere, read what the client still sends first.
      if (node === undefined) await drainUnread(c.req.raw);
      return toResponse(out, () => req.cleanup(), node?.Response);
    } catch {
      req.cleanup();
      return toResponse(INTERNAL_ERROR, () => undefined, node?.Response);
    }
  }

  #notFound(c: HonoContext): Response {
    try {
      const request = c.req.raw;
      const path = new URL(request.url).pathname;
      const method = request.method;
      const fallback = { method, path, native: c, header: (name: string) => request.headers.get(name) ?? undefined };
      this.#matchers ??= this.#routes.map((r) => ({ method: r.method, matcher: new RegExp(`^${templateSource(r.path)}$`) }));
      // 404, 405 with Allow, or a CORS preflight: decided by the pipeline, from the methods routed here.
      const methods = this.#matchers.filter((r) => r.matcher.test(path)).map((r) => r.method);
      return toResponse(this.#fallback.unrouted(fallback, methods), () => undefined, this.#node?.Response);
    } catch {
      return toResponse(INTERNAL_ERROR, () => undefined);
    }
  }

  /**
   * Without `addr`, resolves at once: serve `router.fetch`. With it, listens on Node and resolves
   * once `signal` aborted and in-flight requests drained (`shutdownTimeout` at the latest), and
   * the temporary files of every request (`codec.blob()` uploads) are deleted.
   */
  async serve(options: ServeOptions): Promise<void> {
    if (this.addr === undefined) return;
    if (this.#host !== undefined) throw new Error('this transport is already serving');
    // Node-only modules load here, so that `router.fetch` runs where they do not exist; named
    // through variables, so that a bundler for Workers or browsers does not pull them (and the
    // `node:` modules they import) into the bundle.
    const [nodeHttp, nodeServer] = (await Promise.all(NODE_ONLY.map((m) => import(/* @vite-ignore */ /* webpackIgnore: true */ m)))) as [typeof import('@lib/node-http'), typeof import('@hono/node-server')];
    const host = new nodeHttp.NodeHost(this.#options);
    this.#host = host;
    this.#node = { readBody: nodeHttp.readBody, bodyStream: nodeHttp.bodyStream, Response: lightResponseClass(nodeServer.getRequestListener), tempFiles: host.tempFiles };
    const refused = (req: IncomingMessage | undefined, message: string, status: 400 | 417 | 505): PipelineResponse =>
      this.#fallback.refused({ method: req?.method ?? 'GET', path: req?.url ?? '/', native: req }, message, status);
    const refuse = (): ((req: IncomingMessage, message: string, status: 400 | 417 | 505) => PipelineResponse) => refused;
    // The request being turned into a `Request`: a target no URL can hold (`*`, a backslash, a
    // malformed escape) fails there, synchronously, and gets the JSON envelope of a 400.
    let current: IncomingMessage | undefined;
    // `env` carries node:http's request and response, as with @hono/node-server's `serve`: `c.env.incoming`.
    const fetchListener = nodeServer.getRequestListener((request, env) => this.router.fetch(request, env), {
      // HTTP/1.0 requests may come without Host (RFC 9112 §3.2); they are served as node-http serves them.
      hostname: 'localhost',
      overrideGlobalObjects: false,
      errorHandler: (err) => toResponse(err instanceof nodeServer.RequestError ? refused(current, 'invalid request target', 400) : INTERNAL_ERROR, () => undefined),
    });
    const route = (req: IncomingMessage, res: ServerResponse): void => {
      nodeHttp.closeUnreadBodies(req, res, () => host.draining);
      current = req;
      fetchListener(req, res).catch(() => res.destroy());
      current = undefined;
    };
    host.listening().then(
      (a) => {
        this.#address = a;
        this.#resolveListening(a);
      },
      (err: unknown) => this.#rejectListening(err),
    );
    await host.serve(host.listener(route, refuse), host.expectationListener(refuse), options);
  }
}

/** The Hono context of the request `ctx` belongs to; `undefined` outside a request served by this adapter. */
export function honoContextFromContext(ctx: Context): HonoContext | undefined {
  const native = ctx.get(nativeRequestKey);
  return native instanceof Object && 'req' in native && 'json' in native ? (native as HonoContext) : undefined;
}

/** The `Request` `ctx` belongs to; `undefined` outside a request served by this adapter. */
export function requestFromContext(ctx: Context): Request | undefined {
  return honoContextFromContext(ctx)?.req.raw;
}

/**
 * Builds the router adapter: `hono.newServerTransport({ router: app, addr: '127.0.0.1:8080' })`,
 * or without `addr` to serve `transport.router.fetch` on any runtime.
 * @throws {TypeError} for a malformed `addr` (when serving) or a bad timeout.
 */
export function newServerTransport(options?: ServerTransportOptions): HonoServerTransport {
  return new HonoServerTransport(options);
}
