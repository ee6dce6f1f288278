import { DecodeError, formatPath, type Issue } from '@lib/codec';
import { collectBytes, type Format } from '@lib/format';
import type { TransportCoverage } from '../declare/coverage.js';
import { MissingPathVarError, ParamError, RequestValidationError } from '../declare/errors.js';
import { RequestBuildError } from '../declare/http-errors.js';
import { isFieldValue, isToken } from '../declare/http-grammar.js';
import type { ClientMiddlewareInput } from '../declare/middleware.js';
import type { ValidationLocation } from '../declare/options.js';
import { checkParamValues, encodeParam, PARAM_ERRORS, paramStyles, type RequestParamSpec } from '../declare/param-values.js';
import type { PathVarValue, ResolvedParamStyle } from '../declare/styled.js';
import type { ParamLocation } from '../declare/params.js';
import type { ClientExchange } from './client-transport.js';
import { cookieHeader } from './cookie-pairs.js';
import type { CallEachOptions, ClientCallOptions } from './options.js';
import { checkCovered, NEVER_ABORTED, paramKey, safely, type ResponsePlan, type RoutePlan } from './plan.js';

/** Header lines, in order. */
type Lines = readonly (readonly [string, string])[];

/** The value of a name in `values`; a header name (`kind` `header`) matches in any case. */
export function lookup<V>(values: Readonly<Record<string, V>> | undefined, name: string, kind: ParamLocation): V | undefined {
  if (values === undefined) return undefined;
  if (Object.hasOwn(values, name)) return values[name];
  if (kind === 'header') {
    const lower = name.toLowerCase();
    for (const k of Object.keys(values)) if (k.toLowerCase() === lower) return values[k];
  }
  return undefined;
}

/**
 * The wire values of one request parameter for a call: an explicit per-call entry wins (and is
 * checked by the parameter's codec), then a fixed variable of `client.callEach`, else the
 * merge field's value, encoded. One `key=value` pair (one header line, one cookie) is sent per
 * value; none for an absent optional value.
 * @throws {ParamError} when a value fails its codec, a required one is missing, or one is empty
 * where it must not be.
 */
export function paramValues(p: RequestParamSpec, req: unknown, explicit: Readonly<Record<string, string | readonly string[]>> | undefined, vars: Readonly<Record<string, string>> | undefined): string[] {
  const given = lookup(explicit, p.name, p.kind) ?? lookup(vars, p.name, p.kind);
  if (given !== undefined) return checkParamValues(p, typeof given === 'string' ? [given] : given);
  const v = p.merge?.get(req);
  if (v === undefined) {
    if (p.required) throw new PARAM_ERRORS[p.kind](p.name, undefined, new Error('is required'));
    return [];
  }
  return encodeParam(p, v);
}

/** The conditional request headers (RFC 9110 §13.1) of each call option that carries a validator. */
const VALIDATORS = { ifNoneMatch: 'If-None-Match', ifModifiedSince: 'If-Modified-Since', ifMatch: 'If-Match', ifUnmodifiedSince: 'If-Unmodified-Since' } as const;

/** The options with the conditional request headers of their validators in `headerParams`; explicit `headerParams` win. */
export function withValidators(options: ClientCallOptions): ClientCallOptions {
  let validators: Record<string, string> | undefined;
  for (const [key, name] of Object.entries(VALIDATORS)) {
    const v = options[key as keyof typeof VALIDATORS];
    if (v !== undefined) (validators ??= {})[name] = typeof v === 'string' ? v : v.toUTCString();
  }
  return validators === undefined ? options : { ...options, headerParams: { ...validators, ...options.headerParams } };
}

/** The issues of a codec error (`DecodeError`, `EncodeError`), if `err` is one. */
function issuesOf(err: unknown): readonly Issue[] | undefined {
  const issues = err instanceof Error ? (err as { issues?: unknown }).issues : undefined;
  return Array.isArray(issues) && issues.length > 0 ? (issues as readonly Issue[]) : undefined;
}

/** True when `f`'s codec writes no value for `req` (an optional body left out); false when it cannot encode it (the body check reports why). */
function encodesToNothing(f: Format<unknown>, req: unknown): boolean {
  try {
    return f.codec.encode(req) === undefined;
  } catch {
    return false;
  }
}

/** The bytes and `Content-Type` of a request body in format `f` (a multipart boundary, a streamed body collected). */
export async function marshalRequest(f: Format<unknown>, value: unknown): Promise<{ readonly contentType: string; readonly body: Uint8Array }> {
  if (f.marshalMessageAsync !== undefined) return f.marshalMessageAsync(value);
  if (f.marshalMessage !== undefined) return f.marshalMessage(value);
  if (f.marshalStream !== undefined) return { contentType: f.contentType, body: await collectBytes(f.marshalStream(value, NEVER_ABORTED)) };
  return { contentType: f.contentType, body: f.marshal(value) };
}

/**
 * Step one of a call: the request of `req` for the plan's route, once `transport` is found to
 * carry the route (its parameter kinds, capabilities and security schemes). Path, query, header and cookie
 * values come from the route's merge fields (the route's middleware with a client function
 * first give their inputs), explicit `options` entries winning and undeclared ones added; the
 * path is filled from its template; the body is checked and marshalled with the first request
 * format; `Accept` offers the response formats. Every check runs, each failure reported to the
 * observer's `onValidationError`, before one is thrown: nothing is sent unless all pass.
 * `extra` header lines (a tracer's) are added last, unchecked.
 * @throws {ParamError} `MissingPathVarError`, `InvalidPathError` or {@link RequestBuildError} — the only failure.
 * @throws {RequestValidationError} several failures, in order: parameters, the path, the body, header lines.
 * @throws {RequestBuildError} a middleware's client function threw or gave an invalid input, or a cookie name cannot be sent.
 * @throws {UnsupportedParamKindError} @throws {CapabilityCoverageError} the transport cannot carry the route.
 */
export async function buildRequest(plan: RoutePlan, responses: ResponsePlan, transport: TransportCoverage, req: unknown, given: ClientCallOptions, extra: Lines): Promise<ClientExchange> {
  checkCovered(plan, transport);
  const options = withValidators(given);
  const handle = plan.handle;
  const route = handle.route;
  const observer = options.observer;
  const explicit: Partial<Record<ParamLocation, Readonly<Record<string, string | readonly string[]>> | undefined>> = { query: options.queryParams, header: options.headerParams, cookie: options.cookieParams };
  const fixed = (options as CallEachOptions).vars;
  const vars: Record<string, PathVarValue> = {};
  const query: [string, string][] = [];
  // The query pairs of styled parameters as their style writes them (`ids=3|4|5`), by index in `query`.
  let rawPairs: Map<number, string> | undefined;
  const headers: [string, string][] = [];
  let cookies: Record<string, string> | undefined;
  // Cookies whose value is written as their style writes it (`3,4,5`), not percent-encoded again.
  let rawCookies: Set<string> | undefined;
  const failures: unknown[] = [];
  // True once a path value failed: building the path would only report it missing.
  let pathFailed = false;

  const put = (kind: ParamLocation, name: string, value: string): void => {
    if (kind === 'path') vars[name] = value;
    else if (kind === 'cookie') (cookies ??= {})[name] = value;
    else (kind === 'query' ? query : headers).push([name, value]);
  };
  const report = (location: ValidationLocation, name: string, error: unknown): void => {
    safely(() => observer?.onValidationError?.({ route: route.id, location, name, error }));
  };
  const fail = (error: unknown, location: ValidationLocation, name: string): void => {
    failures.push(error);
    report(location, name, error);
  };
  // A styled parameter (OpenAPI 3.1 §4.8.12.4): an explicit text wins, as for the others.
  const styled = (p: RequestParamSpec, s: ResolvedParamStyle, source: unknown): void => {
    const out = paramStyles().send(p, s, source, lookup(explicit[p.kind], p.name, p.kind) ?? lookup(fixed, p.name, p.kind));
    if (out === undefined) return;
    // A path value is written by buildPath, in its style.
    if ('path' in out) vars[p.name] = out.path;
    else if ('pairs' in out) {
      for (const pair of out.pairs) {
        const eq = pair.indexOf('=');
        (rawPairs ??= new Map()).set(query.length, pair);
        // What the writer writes is well-formed percent-encoding, without `+`.
        query.push([decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))]);
      }
    } else if (p.kind === 'cookie') {
      (cookies ??= {})[p.name] = out.text;
      (rawCookies ??= new Set()).add(p.name);
    } else headers.push([p.name, out.text]);
  };
  const param = (p: RequestParamSpec, source: unknown): void => {
    try {
      if (p.style !== undefined) styled(p, p.style, source);
      else for (const v of paramValues(p, source, explicit[p.kind], fixed)) put(p.kind, p.name, v);
    } catch (err) {
      if (p.kind === 'path') pathFailed = true;
      fail(err, p.kind, p.name);
    }
  };

  // The route's middleware (route.use, clientMW) give their inputs first; a throw sends nothing.
  // Attachments without a client function send none of their fields.
  let inputs: ClientMiddlewareInput[] | undefined;
  for (const a of route.middleware) if (a.send !== undefined) (inputs ??= []).push(await a.middleware.clientInput(a.send, req));
  for (const p of handle.requestParams) param(p, req);
  if (inputs !== undefined) for (const m of inputs) for (const p of m.params) param(p, m.input);
  // Credentials of the route's security schemes (route.clientMW(scheme, fn)); a per-call entry of the same name wins.
  for (const { scheme, send } of route.credentials) {
    const placement = await scheme.placeFor(send, req);
    if (placement !== undefined && lookup(explicit[placement.in], placement.name, placement.in) === undefined) put(placement.in, placement.name, placement.value);
  }
  // Explicit entries of names no parameter declares are sent as they are.
  for (const [kind, entries] of Object.entries(explicit) as [ParamLocation, Readonly<Record<string, string | readonly string[]>> | undefined][]) {
    for (const name of Object.keys(entries ?? {})) {
      const key = paramKey(kind, name);
      if (plan.declared.has(key) || inputs?.some((m) => m.params.some((p) => paramKey(p.kind, p.name) === key))) continue;
      const v = (entries as Readonly<Record<string, string | readonly string[]>>)[name] as string | readonly string[];
      for (const x of typeof v === 'string' ? [v] : v) put(kind, name, x);
    }
  }
  let path = route.path as string;
  if (!pathFailed) {
    try {
      path = handle.buildPath(vars);
    } catch (err) {
      if (err instanceof ParamError || err instanceof MissingPathVarError) fail(err, 'path', err.paramName);
      else failures.push(err);
    }
  }

  let body: Uint8Array | undefined;
  const f = (options.requestFormats?.[0] ?? handle.requestFormats[0]) as Format<unknown>;
  // An optional body whose value encodes to nothing is left out: no content, no Content-Type.
  if (plan.body && !(plan.bodyOptional && encodesToNothing(f, req))) {
    try {
      f.codec.validate(req);
      const message = await marshalRequest(f, req);
      body = message.body;
      headers.push(['content-type', message.contentType]);
    } catch (err) {
      const issues = issuesOf(err);
      if (issues === undefined) report('body', 'body', err);
      else for (const issue of issues) report('body', formatPath(issue.path) || 'body', new DecodeError([issue], { cause: err }));
      failures.push(new RequestBuildError('the request body is invalid', err));
    }
  }
  // Every header line must be sendable (RFC 9110 §5.5, §5.6.2): a newline from a merge field,
  // an explicit entry or a validator is refused here, named, and nothing leaves the client.
  for (const [name, value] of headers) {
    if (isToken(name) && isFieldValue(value)) continue;
    fail(new RequestBuildError(`the header ${JSON.stringify(name)}: ${JSON.stringify(value)} cannot be sent: not an HTTP field name and value (RFC 9110 §5.5: a token, then no CR, LF or other control character)`), 'header', name);
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new RequestValidationError(failures as Error[]);

  if (route.respCodec.kind !== 'empty' && responses.formats.length > 0) headers.push(['accept', responses.accept]);
  if (cookies !== undefined) {
    const cookie = cookieHeader(cookies, rawCookies);
    if (cookie === undefined) throw new RequestBuildError(`a cookie name of ${JSON.stringify(Object.keys(cookies))} is not a cookie-name (RFC 6265 §4.1.1)`);
    headers.push(['cookie', cookie]);
  }
  for (const [name, value] of extra) headers.push([name, value]);
  // With a styled parameter, the query as it is sent: its pairs as their style writes them, the others form-encoded.
  const pieces = rawPairs;
  const encodedQuery = pieces === undefined ? undefined : query.map((pair, i) => pieces.get(i) ?? new URLSearchParams([pair]).toString()).join('&');
  return { method: route.method, path, query, ...(encodedQuery !== undefined && { encodedQuery }), headers, body, signal: options.signal };
}
