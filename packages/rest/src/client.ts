import { parseSetCookie, stringifyCookie } from 'cookie';
import { mediaTypeOf, type Format } from '@lib/format';
import { ClientTransportAlreadyAttachedError, ClientTransportNotAttachedError, CookieParamError, HeaderParamError, TransportTypeMismatchError } from './errors.js';
import { RequestBuildError, ResponseBodyError, UnexpectedStatusError, type ErrorPatternResponse } from './http-errors.js';
import type { Observer } from './options.js';
import { ResponseMergeParam, type AnyParam } from './params.js';
import { BODY_METHODS, Route } from './route.js';
import { encodeParam, PARAM_ERRORS, type RequestParamSpec, type RouteHandle } from './route-handle.js';
import { checkCoverage } from './server.js';
import type { ClientTransport } from './transport.js';

/** Per-call options (SPEC.md `rest.ClientCallOptions`). */
export interface ClientCallOptions {
  /** Explicit query entries by name; they win over values from the request and may add undeclared ones. */
  readonly queryParams?: Readonly<Record<string, string>>;
  /** Explicit request headers by name (same precedence). */
  readonly headerParams?: Readonly<Record<string, string>>;
  /** Explicit cookies by name (same precedence). */
  readonly cookieParams?: Readonly<Record<string, string>>;
  /** Request formats for this call only; the first is sent. */
  readonly requestFormats?: readonly Format<unknown>[];
  /** Response formats for this call only; all are offered in `Accept`. */
  readonly responseFormats?: readonly Format<unknown>[];
  /** Observer for this call. */
  readonly observer?: Observer;
  /** Aborts the call. */
  readonly signal?: AbortSignal;
}

function lookup(values: Readonly<Record<string, string>> | undefined, name: string, caseInsensitive = false): string | undefined {
  if (values === undefined) return undefined;
  if (Object.prototype.hasOwnProperty.call(values, name)) return values[name];
  if (caseInsensitive) {
    const lower = name.toLowerCase();
    for (const k of Object.keys(values)) if (k.toLowerCase() === lower) return values[k];
  }
  return undefined;
}

/**
 * The value of one request parameter for a call: an explicit per-call entry wins (and is
 * checked by the parameter's codec), else the merge field's value, encoded.
 * @throws {ParamError} when the value fails its codec, or a required one is missing.
 */
function paramValue(p: RequestParamSpec, req: unknown, explicit: Readonly<Record<string, string>> | undefined): string | undefined {
  const given = lookup(explicit, p.name, p.kind === 'header');
  if (given !== undefined) {
    if (p.codec !== undefined) {
      try {
        p.codec.decode(given);
      } catch (err) {
        throw new PARAM_ERRORS[p.kind](p.name, given, err);
      }
    }
    return given;
  }
  const v = p.merge?.get(req);
  if (v === undefined) {
    if (p.required) throw new PARAM_ERRORS[p.kind](p.name, undefined, new Error('is required'));
    return undefined;
  }
  return encodeParam(p, v);
}

function decodeResponseParams(resp: unknown, params: readonly AnyParam[], status: number, headers: Headers): void {
  let cookies: Map<string, string> | undefined;
  for (const p of params) {
    if (!(p instanceof ResponseMergeParam)) continue;
    const m = p as unknown as ResponseMergeParam<unknown, unknown>;
    let raw: string | undefined;
    if (m.kind === 'responseHeader') raw = headers.get(m.name) ?? undefined;
    else {
      if (cookies === undefined) {
        cookies = new Map();
        for (const line of headers.getSetCookie()) {
          const c = parseSetCookie(line);
          if (c.value !== undefined) cookies.set(c.name, c.value);
        }
      }
      raw = cookies.get(m.name);
    }
    if (raw === undefined) {
      if (m.required) throw new ResponseBodyError(status, `response ${m.kind === 'responseHeader' ? 'header' : 'cookie'} ${JSON.stringify(m.name)} is missing`);
      continue;
    }
    try {
      m.set(resp, m.codec.decode(raw));
    } catch (err) {
      const e = m.kind === 'responseHeader' ? new HeaderParamError(m.name, raw, err) : new CookieParamError(m.name, raw, err);
      throw new ResponseBodyError(status, 'response parameter failed to decode', e);
    }
  }
}

function observe(observer: Observer | undefined, route: string, status: number, started: number, error?: unknown): void {
  try {
    observer?.onResponse?.({ route, status, durationMs: performance.now() - started, ...(error !== undefined && { error }) });
  } catch {
    // Observers never break a call.
  }
}

/**
 * Calls a route through a transport (SPEC.md `rest.CallWithTransport`, client rules 1–8).
 * Path, query, header and cookie values come from the route's merge fields (explicit
 * `options` entries win); every value is checked by its codec before anything is sent. The
 * body is validated and marshalled with the first request format. A 2xx response is decoded
 * and its response headers and cookies merged back; a non-2xx response becomes an
 * `ErrorPatternResponse` when an `ErrorRespond` pattern of that status decodes the body.
 * @throws {ParamError} (`PathParamError`, `QueryParamError`, `HeaderParamError`, `CookieParamError`), `MissingPathVarError`, `InvalidPathError` — pre-flight, nothing sent.
 * @throws {RequestBuildError} the body is invalid or the request could not be built or sent.
 * @throws {RequestError} the transport failed after sending.
 * @throws {ErrorPatternResponse} a declared error response.
 * @throws {UnexpectedStatusError} any other non-2xx response, or an error body that does not decode.
 * @throws {ResponseBodyError} the 2xx body or a response parameter could not be read or decoded.
 */
export async function callWithTransport<Req, Resp>(transport: ClientTransport, handle: RouteHandle<Req, Resp>, req: Req, options: ClientCallOptions = {}): Promise<Resp> {
  const route = handle.route;
  const started = performance.now();
  const observer = options.observer ?? route.options.observer;
  try {
    checkCoverage(route as Route<unknown, unknown>, transport);
    const vars: Record<string, string> = {};
    const query: [string, string][] = [];
    const headers: [string, string][] = [];
    const cookies: Record<string, string> = {};
    for (const p of handle.requestParams) {
      const explicit = p.kind === 'query' ? options.queryParams : p.kind === 'header' ? options.headerParams : p.kind === 'cookie' ? options.cookieParams : undefined;
      const v = paramValue(p, req, explicit);
      if (v === undefined) continue;
      if (p.kind === 'path') vars[p.name] = v;
      else if (p.kind === 'query') query.push([p.name, v]);
      else if (p.kind === 'header') headers.push([p.name, v]);
      else cookies[p.name] = v;
    }
    const declared = (kind: string, name: string): boolean => handle.requestParams.some((p) => p.kind === kind && (kind === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name));
    for (const [k, v] of Object.entries(options.queryParams ?? {})) if (!declared('query', k)) query.push([k, v]);
    for (const [k, v] of Object.entries(options.headerParams ?? {})) if (!declared('header', k)) headers.push([k, v]);
    for (const [k, v] of Object.entries(options.cookieParams ?? {})) if (!declared('cookie', k)) cookies[k] = v;
    const path = handle.buildPath(vars);

    let body: Uint8Array | undefined;
    if (BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty') {
      const f = (options.requestFormats?.[0] ?? handle.requestFormats[0]) as Format<unknown>;
      try {
        f.codec.validate(req);
        body = f.marshal(req);
      } catch (err) {
        throw new RequestBuildError('the request body is invalid', err);
      }
      headers.push(['content-type', f.contentType]);
    }
    const respFormats = (options.responseFormats ?? handle.responseFormats) as readonly Format<unknown>[];
    if (route.respCodec.kind !== 'empty' && respFormats.length > 0) headers.push(['accept', respFormats.map((f) => f.contentType).join(', ')]);
    if (Object.keys(cookies).length > 0) headers.push(['cookie', stringifyCookie(cookies)]);
    if (options.signal?.aborted) throw new RequestBuildError('the call was aborted before sending', options.signal.reason);

    const reply = await transport.exchange({ method: route.method, path, query, headers, body, signal: options.signal });
    if (reply.status < 200 || reply.status > 299) {
      let patterned: ErrorPatternResponse | undefined;
      try {
        patterned = handle.decodeErrorFor(reply.status, reply.body);
      } catch (err) {
        throw new UnexpectedStatusError(route.method, path, reply.status, new TextDecoder().decode(reply.body), { cause: err });
      }
      if (patterned !== undefined) throw patterned;
      throw new UnexpectedStatusError(route.method, path, reply.status, new TextDecoder().decode(reply.body));
    }
    let resp: unknown;
    if (route.respCodec.kind === 'empty') resp = route.respCodec.decode(undefined);
    else {
      const ct = mediaTypeOf(reply.headers.get('content-type') ?? '');
      const f = respFormats.find((x) => mediaTypeOf(x.contentType) === ct) ?? (ct === '' ? respFormats[0] : undefined);
      if (f === undefined) throw new ResponseBodyError(reply.status, `unexpected response Content-Type ${JSON.stringify(ct)}`);
      try {
        resp = f.unmarshal(reply.body);
      } catch (err) {
        throw new ResponseBodyError(reply.status, 'the response body did not decode', err);
      }
    }
    decodeResponseParams(resp, route.params, reply.status, reply.headers);
    observe(observer, route.id, reply.status, started);
    return resp as Resp;
  } catch (err) {
    const status = typeof (err as { statusCode?: unknown }).statusCode === 'number' ? (err as { statusCode: number }).statusCode : 0;
    observe(observer, route.id, status, started, err);
    throw err;
  }
}

/**
 * A client (SPEC.md `rest.NewClient`, "States and transitions"): attach one transport, then
 * call routes.
 */
export class Client {
  #transport: ClientTransport | undefined;

  /**
   * Binds the transport. Exclusive.
   * @throws {ClientTransportAlreadyAttachedError} on a second attach (the first stays).
   */
  attach(transport: ClientTransport): void {
    if (this.#transport !== undefined) throw new ClientTransportAlreadyAttachedError();
    this.#transport = transport;
  }

  /**
   * Calls `route` with `req` (SPEC.md `client.Call`); typed by the route. Throws as
   * {@link callWithTransport}, and:
   * @throws {ClientTransportNotAttachedError} before `attach`.
   * @throws {TransportTypeMismatchError} when `route` is not a route.
   */
  call<Req, Resp>(route: Route<Req, Resp>, req: Req, options?: ClientCallOptions): Promise<Resp> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new ClientTransportNotAttachedError());
    if (!(route instanceof Route)) return Promise.reject(new TransportTypeMismatchError('client.call expects a route declared with rest.newRoute'));
    if (typeof req !== 'object' || req === null) return Promise.reject(new TransportTypeMismatchError(`client.call: the request of ${route.id} must be an object`));
    return callWithTransport(transport, route.clientHandle(), req, options);
  }
}

/** Creates a client without a transport (SPEC.md `rest.NewClient`). */
export function newClient(): Client {
  return new Client();
}
