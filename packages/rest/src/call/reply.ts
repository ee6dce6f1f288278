import { collectBytes, mediaTypeOf, type Format, type SSEFormat } from '@lib/format';
import type { ErrorRule } from '../declare/error-rules.js';
import { CookieParamError, HeaderParamError } from '../declare/errors.js';
import { ErrorPatternResponse, RequestError, ResponseBodyError, UnexpectedStatusError } from '../declare/http-errors.js';
import { NotModified } from '../declare/not-modified.js';
import { ResponseMergeParam, type AnyParam } from '../declare/params.js';
import { decodeErrorRule } from '../declare/route.js';
import type { EventStream } from '../declare/sse.js';
import type { ClientExchange, ClientStreamReply, ClientTransport } from './client-transport.js';
import { setCookiePair } from './cookie-pairs.js';
import type { ClientCallOptions } from './options.js';
import { NEVER_ABORTED, responsePlan, type ResponsePlan, type RoutePlan } from './plan.js';
import { sendRequest, type Reply } from './send.js';

/** True when the transport streams the reply's body (`exchangeStream`), false when it read it whole. */
function streamed(reply: Reply): reply is ClientStreamReply {
  return typeof (reply.body as Partial<AsyncIterable<Uint8Array>> | undefined)?.[Symbol.asyncIterator] === 'function';
}

/** The body's chunks (a body read whole is one); a failure to read is a `ResponseBodyError`. */
async function* chunksOf(reply: Reply): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    yield* streamed(reply) ? reply.body : [reply.body];
  } catch (err) {
    throw err instanceof ResponseBodyError ? err : new ResponseBodyError(reply.status, 'the response body could not be read', err);
  }
}

/** The whole body. @throws {ResponseBodyError} */
function bytesOf(reply: Reply): Promise<Uint8Array> {
  return collectBytes(chunksOf(reply));
}

/** Cancels an unread streamed body. */
async function discard(reply: Reply): Promise<void> {
  try {
    if (streamed(reply)) await reply.body[Symbol.asyncIterator]().return?.();
  } catch {
    // Nothing more to read.
  }
}

/**
 * Sets the response headers and cookies `params` declare (`rest.responseHeader`,
 * `rest.responseCookie`; other parameters are skipped) on the decoded value `resp`.
 * @throws {ResponseBodyError} a required one is missing, or one does not decode.
 */
export function decodeResponseParams(resp: unknown, params: readonly (AnyParam | ResponseMergeParam<unknown, unknown>)[], status: number, headers: Headers): void {
  let cookies: Map<string, string> | undefined;
  for (const p of params) {
    if (!(p instanceof ResponseMergeParam)) continue;
    const m = p as unknown as ResponseMergeParam<unknown, unknown>;
    const header = m.kind === 'responseHeader';
    let raw: string | undefined;
    if (header) raw = headers.get(m.name) ?? undefined;
    else {
      if (cookies === undefined) {
        cookies = new Map();
        for (const line of headers.getSetCookie()) cookies.set(...setCookiePair(line));
      }
      raw = cookies.get(m.name);
    }
    if (raw === undefined) {
      if (m.required) throw new ResponseBodyError(status, `response ${header ? 'header' : 'cookie'} ${JSON.stringify(m.name)} is missing`);
      continue;
    }
    try {
      m.set(resp, m.codec.decode(raw));
    } catch (err) {
      throw new ResponseBodyError(status, 'response parameter failed to decode', header ? new HeaderParamError(m.name, raw, err) : new CookieParamError(m.name, raw, err));
    }
  }
}

/** The request headers a 304 answers (RFC 9110 §13.1.2, §13.1.3). */
const VALIDATOR = /^if-(?:none-match|modified-since)$/i;

/** True for the failures that break an open event stream (its reconnect reopens it). */
const isBreak = (err: unknown): boolean => err instanceof ResponseBodyError || err instanceof RequestError;

/**
 * Step three of a call: sends the request once it is `built` ({@link sendRequest}, step two)
 * and reads the reply. Its status is written to `out` on success.
 *
 * - A 304 to a request that sent a validator (`If-None-Match`, `If-Modified-Since`) is a
 *   {@link NotModified}.
 * - A success — a 2xx, or a 3xx equal to the route's main status (a declared redirect, never
 *   followed) — is decoded by that status's codec, in the response format of its
 *   `Content-Type`, and the response headers and cookies are set on it. An event stream is
 *   resumed on a break when `reopen` is given (`options.reconnect` times in a row).
 *   A route whose response is `codec.never()` has no such success: only its `successes` are.
 * - Any other status rejects: the route's `errorPattern` of that status decodes the body
 *   (else the first of `shared`, the server-wide rules, with that status), else an
 *   `UnexpectedStatusError`.
 *
 * Sending and reading are one async function, the call's last: a streamed body is handed to
 * the caller without a further turn of the event loop's microtasks.
 * @throws what `built` rejects with, and what {@link sendRequest} throws.
 * @throws {ErrorPatternResponse} a declared error response.
 * @throws {UnexpectedStatusError} any other non-success response (every undeclared 3xx included), or an error body that does not decode.
 * @throws {ResponseBodyError} the success body or a response parameter could not be read or decoded, or its `Content-Type` is no response format's.
 */
export async function readReply(
  plan: RoutePlan,
  responses: ResponsePlan,
  transport: ClientTransport,
  built: Promise<ClientExchange>,
  options: ClientCallOptions,
  shared: readonly ErrorRule[],
  out: { status: number },
  reopen?: (lastEventId: string | undefined) => Promise<EventStream<unknown>>,
): Promise<unknown> {
  const request = await built;
  const reply = await sendRequest(transport, request, responses.streaming);
  const handle = plan.handle;
  const route = handle.route;
  const { status, headers } = reply;
  // 304 answers a conditional request: what the caller holds is current. To a call that sent no
  // validator it is an unexpected status (below).
  if (status === 304 && request.headers.some(([name]) => VALIDATOR.test(name))) {
    await discard(reply);
    const lastModified = Date.parse(headers.get('last-modified') ?? '');
    out.status = status;
    return new NotModified({ etag: headers.get('etag') ?? undefined, lastModified: Number.isNaN(lastModified) ? undefined : new Date(lastModified) });
  }
  const contentType = headers.get('content-type') ?? '';
  // A route that never succeeds (`response: codec.never()`) takes only its other declared successes as one.
  const success = plan.succeeds ? (status >= 200 && status <= 299) || (status >= 300 && status <= 399 && status === plan.status) : plan.successes.has(status);
  if (!success) {
    const bytes = await bytesOf(reply);
    let patterned: ErrorPatternResponse | undefined;
    // A body that no error rule decodes keeps why, as the cause of the `UnexpectedStatusError`.
    let failed: ErrorOptions | undefined;
    try {
      const decoded = decodeErrorRule(plan.errors.get(status) ?? shared, status, bytes, contentType, responses.formats);
      if (decoded !== undefined) {
        // The pattern's response headers (withHeaders), decoded as a success's are.
        let fields: Record<string, unknown> | undefined;
        if (decoded.rule.headers.length > 0) decodeResponseParams((fields = {}), decoded.rule.headers, status, headers);
        patterned = new ErrorPatternResponse(status, decoded.value, bytes, undefined, fields);
      }
    } catch (cause) {
      failed = { cause };
    }
    throw patterned ?? new UnexpectedStatusError(route.method, request.path, status, new TextDecoder().decode(bytes), failed);
  }
  // Another declared success status is read with its own codec, formats, headers and cookies.
  const other = plan.successes.get(status);
  const codec = other?.codec ?? route.respCodec;
  let value: unknown;
  // The event-stream format resumes a broken stream; no other format can.
  let resume: SSEFormat<unknown>['resume'] | undefined;
  if (codec.kind === 'empty') {
    await discard(reply);
    value = codec.decode(undefined);
  } else {
    const type = mediaTypeOf(contentType);
    const candidates = other === undefined ? responses : responsePlan(handle.successFormats(other));
    const i = candidates.types.indexOf(type);
    const f: Format<unknown> | undefined = candidates.formats[i >= 0 ? i : type === '' ? 0 : -1];
    if (f === undefined) {
      await discard(reply);
      throw new ResponseBodyError(status, `unexpected response Content-Type ${JSON.stringify(type)}`);
    }
    resume = (f as Partial<SSEFormat<unknown>>).resume?.bind(f);
    try {
      value = f.unmarshalStream !== undefined ? await f.unmarshalStream(chunksOf(reply), { contentType, signal: options.signal ?? NEVER_ABORTED }) : f.unmarshal(await bytesOf(reply));
    } catch (err) {
      throw err instanceof ResponseBodyError ? err : new ResponseBodyError(status, 'the response body did not decode', err);
    }
  }
  decodeResponseParams(value, other?.params ?? route.params, status, headers);
  out.status = status;
  return reopen !== undefined && resume !== undefined ? resume(value as EventStream<unknown>, reopen, options.reconnect ?? 0, isBreak, options.signal) : value;
}
