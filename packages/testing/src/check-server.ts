import type { Codec } from '@lib/codec';
import { mediaTypeOf, type Format } from '@lib/format';
import type { MediaTypeDescriptor, ResponseDescriptor, RouteDescriptor } from '@lib/openapi';
import { describeRoute, type RouteHandle, type Server } from '@lib/rest';
import { parseSetCookie } from 'cookie';
import fc from 'fast-check';
import { isJsonMediaType } from './internal/http.js';
import { routeRequests, type RequestCredentials, type TestRequest } from './requests.js';

/** Options of {@link checkServer} and {@link assertServer}. */
export interface CheckServerOptions {
  /** The builder whose routes are checked (`rest.newServer(...)`, routes registered); hidden routes are left out. */
  readonly api: Server;
  /**
   * Where the server listens: `http://127.0.0.1:3000` (a path prefix is kept). The builder's base
   * path (`rest.withBasePath('/api')`) is added unless the URL already ends with it, so the
   * server's address and the API's base URL (`http://127.0.0.1:3000/api`) both do.
   */
  readonly baseURL: string;
  /** Generated requests per route, valid and invalid each. Default 50. */
  readonly runs?: number;
  /** The fast-check seed, to replay a run. Default: a random one (reported). */
  readonly seed?: number;
  /**
   * Credentials sent with every request, for routes behind a security scheme; or a function that
   * gives them, called once before the first request (sign in, then return the session cookie).
   */
  readonly credentials?: RequestCredentials | (() => RequestCredentials | Promise<RequestCredentials>);
  /** Milliseconds to wait for each response. Default 10 000. */
  readonly timeout?: number;
}

/** A response as the report shows it: the status, header fields and up to 2 000 characters of the body. */
export interface ReportedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One contract violation, with the smallest request fast-check found that shows it. */
export interface ServerFailure {
  /** The route's `operationId`, else `METHOD /path`. */
  readonly operationId: string;
  /** The request, shrunk by fast-check to a minimal one. */
  readonly request: TestRequest;
  /** What is wrong, in a sentence. */
  readonly problem: string;
  /** The server's answer to that request; absent when none came. */
  readonly response?: ReportedResponse;
}

/** What {@link checkServer} found. */
export interface ServerReport {
  /** Requests sent, shrinking included. */
  readonly requests: number;
  /** The seed of the run (give it back as `seed` to replay). */
  readonly seed: number;
  /** At most one per route and kind of request (valid, invalid): the first found, shrunk. */
  readonly failures: readonly ServerFailure[];
}

/** Thrown inside a property: a violation and the response that shows it. */
class Violation extends Error {
  constructor(
    readonly problem: string,
    readonly response: ReportedResponse | undefined,
  ) {
    super(problem);
  }
}

/**
 * Checks a running server against its routes' declarations. For every route of `api` (POST and
 * PUT first, so that what they create can be read), it sends `runs` valid requests and `runs`
 * invalid ones (`testing.requests`), and checks each answer:
 * - no status of 500 or above;
 * - the status is one the route declares (OpenAPI `responses`, as `api.openAPISpec()` documents it);
 * - a valid request is not refused with 400 (another declared 4xx, such as a 404 for an id
 *   nobody created, is an answer);
 * - an invalid request gets a 4xx, never a 2xx;
 * - the body decodes with the codec declared for that status and `Content-Type` (any of them,
 *   where several sources answer one status), and a status declared without content has none;
 * - declared response headers and cookies are present when required, and decode.
 *
 * String values that routes answer (an `id` in a created object) are used for parameters of the
 * same name in the routes checked after them. Each violation is shrunk by fast-check to a
 * minimal request. Streamed bodies (`text/event-stream`, a declared item codec) are checked for
 * status and `Content-Type` only, and closed. Bodies in formats other than JSON are decoded by
 * the route's own format.
 * @throws {TypeError} (rejects) for a route whose codecs cannot be generated.
 */
export async function checkServer(options: CheckServerOptions): Promise<ServerReport> {
  const runs = options.runs ?? 50;
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const timeout = options.timeout ?? 10_000;
  const credentials = typeof options.credentials === 'function' ? await options.credentials() : options.credentials;
  const origin = options.baseURL.replace(/\/+$/, '');
  const basePath = options.api.basePath;
  const base = basePath === '' || origin.endsWith(basePath) ? origin : origin + basePath;
  const handles = options.api
    .handles()
    .filter((h) => h.route.meta.hidden !== true)
    .sort((a, b) => WRITES_FIRST(a.route.method) - WRITES_FIRST(b.route.method));
  const known = new Map<string, string[]>();
  const failures: ServerFailure[] = [];
  let sent = 0;
  for (const handle of handles) {
    const d = describeRoute(handle);
    const operationId = d.operationId ?? `${d.method} ${d.path}`;
    const arbitraries = routeRequests(handle, d, { known, ...(credentials !== undefined && { credentials }) });
    for (const valid of [true, false]) {
      const arb = valid ? arbitraries.valid() : arbitraries.invalid();
      if (arb === undefined) continue;
      const property = fc.asyncProperty(arb, async (req) => {
        sent++;
        const answer = await send(base, req, timeout);
        check(handle, d, req, answer, valid);
        if (valid && answer.status >= 200 && answer.status < 300) learn(answer.json, known);
      });
      const result = await fc.check(property, { numRuns: runs, seed, endOnFailure: false });
      if (result.failed && result.counterexample !== null) {
        const err = result.errorInstance;
        failures.push({
          operationId,
          request: result.counterexample[0],
          problem: err instanceof Violation ? err.problem : `the check failed: ${err instanceof Error ? err.message : String(err)}`,
          ...(err instanceof Violation && err.response !== undefined && { response: err.response }),
        });
      }
    }
  }
  return { requests: sent, seed, failures };
}

/**
 * {@link checkServer}, for a test: resolves when the server keeps its contract, and otherwise
 * rejects with an `Error` whose message is the report (each failure's route, problem, minimal
 * request and response, and the seed to replay the run). Works in vitest, jest and `node:test`.
 * @throws {Error} (rejects) listing every failure.
 */
export async function assertServer(options: CheckServerOptions): Promise<void> {
  const report = await checkServer(options);
  if (report.failures.length === 0) return;
  throw new Error(formatReport(report));
}

/** The report as text: one block per failure. */
export function formatReport(report: ServerReport): string {
  const blocks = report.failures.map((f, i) => {
    const r = f.request;
    const lines = [`${i + 1}. ${f.operationId}: ${f.problem}`, `   request: ${r.method} ${r.target}`];
    for (const [k, v] of Object.entries(r.headers)) lines.push(`     ${k}: ${v}`);
    if (r.body !== undefined) lines.push(`     body: ${typeof r.body === 'string' ? r.body : `(${bodySize(r.body)} bytes)`}`);
    if (r.breaks !== undefined) lines.push(`     (invalid on purpose: ${r.breaks.at} breaks ${r.breaks.constraint})`);
    if (f.response !== undefined) lines.push(`   response: ${f.response.status}${f.response.body === '' ? '' : ` ${f.response.body}`}`);
    return lines.join('\n');
  });
  const n = report.failures.length;
  return `the server broke its contract in ${n} place${n === 1 ? '' : 's'} (${report.requests} requests, seed ${report.seed}):\n\n${blocks.join('\n\n')}`;
}

// ---------------------------------------------------------------------------------------------

/** Routes that create come first, so that routes that read find something. */
function WRITES_FIRST(method: string): number {
  return method === 'POST' || method === 'PUT' ? 0 : method === 'DELETE' ? 2 : 1;
}

function bodySize(body: Uint8Array | Blob): number {
  return body instanceof Blob ? body.size : body.byteLength;
}

/** An answer as the checks read it. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The body parsed as JSON, when it is. */
  readonly json: unknown;
  /** True when the body was a stream, closed unread. */
  readonly streamed: boolean;
  readonly reported: ReportedResponse;
}

const decoder = new TextDecoder();

async function send(base: string, req: TestRequest, timeout: number): Promise<Answer> {
  const signal = AbortSignal.timeout(timeout);
  let res: Response;
  try {
    res = await fetch(base + req.target, { method: req.method, headers: req.headers, redirect: 'manual', signal, ...(req.body !== undefined && { body: req.body as NonNullable<RequestInit['body']> }) });
  } catch (err) {
    throw new Violation(`no response: ${err instanceof Error ? err.message : String(err)}`, undefined);
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const type = mediaTypeOf(res.headers.get('content-type') ?? '');
  if (type === 'text/event-stream' || type === 'application/x-ndjson') {
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(), json: undefined, streamed: true, reported: { status: res.status, headers, body: '(a stream, not read)' } };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    throw new Violation(`the body could not be read: ${err instanceof Error ? err.message : String(err)}`, { status: res.status, headers, body: '' });
  }
  const text = decoder.decode(bytes);
  let json: unknown;
  if (isJsonMediaType(type)) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, bytes, json, streamed: false, reported: { status: res.status, headers, body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text } };
}

/** The declared response of `status`: exact, then its class (`4XX`), then `default`. */
function declaredResponse(d: RouteDescriptor, status: number): ResponseDescriptor | undefined {
  const exact = d.responses.find((r) => r.status === String(status));
  return exact ?? d.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ?? d.responses.find((r) => r.status === 'default');
}

function check(handle: RouteHandle<unknown, unknown>, d: RouteDescriptor, req: TestRequest, a: Answer, valid: boolean): void {
  const fail = (problem: string): never => {
    throw new Violation(problem, a.reported);
  };
  if (a.status >= 500) fail(`answered ${a.status}`);
  const declared = declaredResponse(d, a.status);
  if (declared === undefined) fail(`answered ${a.status}, a status the route does not declare (it declares ${d.responses.map((r) => r.status).join(', ')})`);
  const r = declared as ResponseDescriptor;
  if (valid && a.status === 400) fail('refused a request its declaration accepts (400)');
  if (!valid && a.status < 400) fail(`accepted a request it must refuse (${req.breaks?.at ?? 'a value'} breaks ${req.breaks?.constraint ?? 'its codec'}) with ${a.status}`);
  checkBody(handle, r, a, fail);
  for (const h of r.headers) {
    const value = a.headers.get(h.name);
    if (value === null) {
      if (h.required) fail(`the declared response header ${h.name} is missing`);
      continue;
    }
    if (h.codec !== undefined && !decodes(h.codec, value)) fail(`the response header ${h.name} does not decode: ${JSON.stringify(value)}`);
  }
  if (r.cookies.length > 0) {
    const set = new Map(a.headers.getSetCookie().map((line) => parseSetCookie(line)).map((c) => [c.name, c.value] as const));
    for (const c of r.cookies) {
      const value = set.get(c.name);
      if (value === undefined) {
        if (c.required) fail(`the declared response cookie ${c.name} is missing`);
        continue;
      }
      if (c.codec !== undefined && !decodes(c.codec, value)) fail(`the response cookie ${c.name} does not decode: ${JSON.stringify(value)}`);
    }
  }
}

function decodes(codec: Codec<unknown>, wire: unknown): boolean {
  try {
    codec.decode(wire);
    return true;
  } catch {
    return false;
  }
}

/** The body: empty where no content is declared, else decoded by a codec declared for its media type. */
function checkBody(handle: RouteHandle<unknown, unknown>, r: ResponseDescriptor, a: Answer, fail: (problem: string) => never): void {
  if (a.status === 204 || a.status === 304) return;
  if (r.content.length === 0) {
    if (a.bytes.byteLength > 0) fail(`answered ${a.status} with a body, where the route declares none`);
    return;
  }
  const type = mediaTypeOf(a.headers.get('content-type') ?? '');
  const media = r.content.filter((m) => mediaTypeOf(m.mediaType) === type);
  if (media.length === 0) fail(`answered ${a.status} as ${JSON.stringify(type)}, a media type the route does not declare for it (${r.content.map((m) => m.mediaType).join(', ')})`);
  if (a.streamed) return;
  const codecs = media.flatMap((m) => [m.codec, ...(m.alternatives ?? [])]) as Codec<unknown>[];
  if (isJsonMediaType(type)) {
    if (a.json === undefined) fail(`answered ${a.status} with a body that is not JSON`);
    if (!codecs.some((c) => decodes(c, a.json))) fail(`the ${a.status} body does not decode with the declared codec: ${firstIssue(codecs[0] as Codec<unknown>, a.json)}`);
    return;
  }
  const format = readerFor(handle, media[0] as MediaTypeDescriptor, codecs);
  if (format === undefined) return;
  try {
    format.unmarshal(a.bytes);
  } catch (err) {
    fail(`the ${a.status} body does not decode as ${type}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The first issue of decoding `wire`, as text. */
function firstIssue(codec: Codec<unknown>, wire: unknown): string {
  try {
    codec.decode(wire);
    return 'it decodes';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A format of the route that reads `media` with one of `codecs` (its own, or `withCodec`). */
function readerFor(handle: RouteHandle<unknown, unknown>, media: MediaTypeDescriptor, codecs: readonly Codec<unknown>[]): Format<unknown> | undefined {
  const type = mediaTypeOf(media.mediaType);
  const formats = [...handle.responseFormats, ...handle.route.successes.flatMap((s) => handle.successFormats(s))] as Format<unknown>[];
  for (const f of formats) {
    if (mediaTypeOf(f.contentType) !== type) continue;
    if (codecs.includes(f.codec)) return f;
    if (f.withCodec !== undefined) return f.withCodec(codecs[0] as Codec<unknown>) as Format<unknown>;
  }
  return undefined;
}

/** Collects the string values of a JSON answer by field name, for later routes' parameters. */
function learn(json: unknown, known: Map<string, string[]>, depth = 0): void {
  if (depth > 4 || typeof json !== 'object' || json === null) return;
  if (Array.isArray(json)) {
    for (const x of json.slice(0, 20)) learn(x, known, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(json)) {
    if (typeof v === 'string' || typeof v === 'number') {
      const list = known.get(k) ?? [];
      const s = String(v);
      if (!list.includes(s)) list.push(s);
      if (list.length > 50) list.shift();
      known.set(k, list);
    } else learn(v, known, depth + 1);
  }
}
