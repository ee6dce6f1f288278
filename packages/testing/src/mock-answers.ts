/**
 * What a mock of `@lib/rest` routes answers: for each route, the plan of its answer (the declared
 * success or the status an override names, its body, headers and cookies), and seeded draws of
 * the values, repeatable answer by answer. `mock-router.ts` serves the plans through the real
 * pipeline; `mswHandlers` and `mockServer` put that router in front of Mock Service Worker or a
 * local server.
 */
import { StreamCodec, type Codec } from '@lib/codec';
import { SSEFormat } from '@lib/format';
import type { ResponseDescriptor } from '@lib/openapi';
import { describeRoute, mainStatus, ErrorPattern, ResponseMergeParam, setCookieHeader, wireStatus, type AnyParam, type Status, type Context, type MiddlewareAttachment, type RouteHandle } from '@lib/rest';
import fc from 'fast-check';
import { arbitrary } from './arbitrary.js';
import { FIELD_VALUE, isJsonMediaType, wellFormed } from './internal/http.js';

/** What an override makes a route answer: `{ status: 404 }`. */
export interface MockOverride {
  /**
   * A status the route declares (as its OpenAPI `responses` list it): another declared success,
   * an error pattern's status (answered with a body generated from the pattern's codec), or any
   * other declared error status (answered with a body generated from the codec documented for
   * it, such as the `{ "error": … }` envelope of a 401). A range (`4XX`) is named by the status
   * the server sends for it (400); `default` by 500.
   */
  readonly status: number;
}

/** Options of `mswHandlers` (`@lib/testing/msw`) and `testing.mockServer`. */
export interface MockOptions {
  /**
   * The seed of the generated values: the same seed gives the same answers, in the same order,
   * route by route (the n-th valid request to a route gets the n-th answer, whatever the other
   * routes were asked). Default: a random one.
   */
  readonly seed?: number;
  /**
   * Routes that answer another declared status, by operation: the route's `operationId`, else
   * `'METHOD /path'` (`{ getUser: { status: 404 }, 'DELETE /users/{id}': { status: 401 } }`).
   * Requests the route refuses (400, 415, 406 …) are still refused.
   */
  readonly overrides?: Readonly<Record<string, MockOverride>>;
}

/** The route's `operationId`, else `METHOD /path`. */
export function operationIdOf(handle: RouteHandle<unknown, unknown>): string {
  return handle.route.meta.operationId ?? `${handle.route.method} ${handle.route.path}`;
}

// ---------------------------------------------------------------------------------------------
// Seeded draws.

/** A 32-bit FNV-1a hash of the parts: seeds that differ for every route, answer and component. */
function mix(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) {
    h ^= ch.codePointAt(0) as number;
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Candidates tried for a value that must also pass a check of the mock's own (a header value, a round trip). */
const TRIES = 100;

/**
 * The draws of one answer: each component (the body, a header, a middleware's output) is drawn
 * from a seed of its own, derived from the answer's, so that an answer does not depend on the
 * order its parts are drawn in.
 */
export class Draws {
  readonly #seed: number;
  constructor(seed: number) {
    this.#seed = seed;
  }

  /**
   * A value of `arb` that `accept` takes (every value without it).
   * @throws {Error} when none of 100 candidates passes `accept`.
   */
  draw<T>(what: string, arb: fc.Arbitrary<T>, accept?: (value: T) => boolean): T {
    for (let i = 0; i < TRIES; i++) {
      const [value] = fc.sample(arb, { seed: mix(this.#seed, what, i), numRuns: 1 }) as [T];
      if (accept === undefined || accept(value)) return value;
    }
    throw new Error(`testing: no generated value for ${what} passed the mock's checks in ${TRIES} tries`);
  }
}

/**
 * The answers of one route, numbered: the n-th is drawn from `(seed, operationId, n)`. Each
 * request served takes the next number, once, whatever part of the mock draws first (a
 * middleware's output, then the handler).
 */
export class AnswerSource {
  readonly #seed: number;
  readonly #id: string;
  #next = 0;
  readonly #byRequest = new WeakMap<Context, Draws>();
  constructor(seed: number, operationId: string) {
    this.#seed = seed;
    this.#id = operationId;
  }
  /** The draws of the request `ctx` belongs to. */
  of(ctx: Context): Draws {
    let d = this.#byRequest.get(ctx);
    if (d === undefined) {
      d = new Draws(mix(this.#seed, this.#id, this.#next++));
      this.#byRequest.set(ctx, d);
    }
    return d;
  }
}

// ---------------------------------------------------------------------------------------------
// Values.

/**
 * True when the value of `wire` encodes to a wire value that decodes again: what the server
 * writes, the client reads. (A codec may accept a wire value whose value it
 * cannot write back, such as an instant past 9999 once written in UTC.)
 */
function roundTrips(codec: Codec<unknown>, wire: unknown): boolean {
  try {
    codec.decode(codec.encode(codec.decode(wire)));
    return true;
  } catch {
    return false;
  }
}

/** The arbitrary of a codec, its failure named after the route and the part. */
function arbitraryOf(routeId: string, what: string, codec: Codec<unknown>): fc.Arbitrary<unknown> {
  try {
    return arbitrary(codec);
  } catch (err) {
    throw new TypeError(`testing: ${routeId}: cannot generate ${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** A response header or cookie: its wire values, kept to what the field can carry. */
interface FieldPlan {
  readonly kind: 'responseHeader' | 'responseCookie';
  readonly name: string;
  readonly codec: Codec<unknown> | undefined;
  readonly arb: fc.Arbitrary<unknown>;
}

function fieldPlan(routeId: string, p: { readonly kind: string; readonly name: string; readonly codec?: Codec<unknown> | undefined }): FieldPlan {
  const kind = p.kind === 'responseCookie' ? 'responseCookie' : 'responseHeader';
  const arb = p.codec === undefined ? fc.string() : arbitraryOf(routeId, `the response ${kind === 'responseHeader' ? 'header' : 'cookie'} ${p.name}`, p.codec);
  return { kind, name: p.name, codec: p.codec, arb };
}

/**
 * A wire value of the field whose text can be sent: a header's visible ASCII (RFC 9110 §5.5), a
 * cookie's well-formed text (sent percent-encoded).
 */
function drawField(d: Draws, f: FieldPlan, label = `${f.kind} ${f.name}`): string | number | boolean {
  return d.draw(label, f.arb, (w): w is string | number | boolean => {
    if (typeof w !== 'string' && typeof w !== 'number' && typeof w !== 'boolean') return false;
    const s = String(w);
    if (!(f.kind === 'responseHeader' ? FIELD_VALUE.test(s) : wellFormed(s))) return false;
    return f.codec === undefined || roundTrips(f.codec, w);
  }) as string | number | boolean;
}

/** A body: how its value is drawn. */
type BodyPlan = (d: Draws) => unknown;

/** Events or items a streamed body carries: one to three. */
const STREAM_ITEMS = { minLength: 1, maxLength: 3 } as const;

function bodyPlan(routeId: string, codec: Codec<unknown>, sse: SSEFormat<unknown, unknown> | undefined): BodyPlan {
  if (codec.kind === 'empty') return () => ({});
  if (sse !== undefined) {
    // Server-sent events: each event's data, as `{ data }` (no id, type or retry to get wrong).
    const data = arbitraryOf(routeId, 'the event data', sse.eventCodec as Codec<unknown>);
    const events = fc.array(data, STREAM_ITEMS);
    return (d) => codec.decode(d.draw('body', events, (ws) => ws.every((w) => roundTrips(sse.eventCodec as Codec<unknown>, w))).map((w) => ({ data: w })));
  }
  if (codec instanceof StreamCodec) {
    const item = codec.item as Codec<unknown>;
    const items = fc.array(arbitraryOf(routeId, 'the stream items', item), STREAM_ITEMS);
    return (d) => codec.decode(d.draw('body', items, (ws) => ws.every((w) => roundTrips(item, w))));
  }
  const arb = arbitraryOf(routeId, 'the response body', codec);
  return (d) => codec.decode(d.draw('body', arb, (w) => roundTrips(codec, w)));
}

/** How a success response's value is made: its body, then its merge fields; and the plain fields the handler sets. */
export interface SuccessPlan {
  readonly status: number;
  /** True for the route's main success (the handler returns the value as it is). */
  readonly main: boolean;
  readonly body: BodyPlan;
  /** Response headers and cookies that are fields of the value (merge parameters). */
  readonly merged: readonly { readonly param: ResponseMergeParam<unknown, unknown>; readonly field: FieldPlan }[];
  /** Response headers and cookies the handler sets itself (plain parameters). */
  readonly plain: readonly FieldPlan[];
}

function successPlan(routeId: string, status: number, main: boolean, codec: Codec<unknown>, params: readonly AnyParam[], sse: SSEFormat<unknown, unknown> | undefined): SuccessPlan {
  const fields = params.filter((p) => p.kind === 'responseHeader' || p.kind === 'responseCookie');
  return {
    status,
    main,
    body: bodyPlan(routeId, codec, sse),
    merged: fields.filter((p) => p instanceof ResponseMergeParam).map((p) => ({ param: p as unknown as ResponseMergeParam<unknown, unknown>, field: fieldPlan(routeId, p) })),
    plain: fields.filter((p) => !(p instanceof ResponseMergeParam)).map((p) => fieldPlan(routeId, p)),
  };
}

/**
 * The value of a success answer: the body's value with each merge field set from a generated
 * wire value; the plain fields are appended to `headers` (`Set-Cookie` lines with the library's
 * default attributes).
 */
export function successValue(plan: SuccessPlan, d: Draws, headers: Headers | undefined): unknown {
  const value = plan.body(d);
  for (const { param, field } of plan.merged) param.set(value, (param.codec as Codec<unknown>).decode(drawField(d, field)));
  for (const f of plan.plain) {
    const wire = String(drawField(d, f));
    if (f.kind === 'responseHeader') headers?.set(f.name, wire);
    else headers?.append('set-cookie', setCookieHeader(f.name, wire));
  }
  return value;
}

/** An answer the mock writes itself, without the handler's value: an error status or a response without content. */
export interface DirectPlan {
  readonly status: number;
  /** The JSON body's codec; `undefined` for no content. */
  readonly body: { readonly mediaType: string; readonly codec: Codec<unknown>; readonly arb: fc.Arbitrary<unknown> } | undefined;
  readonly headers: readonly FieldPlan[];
  readonly cookies: readonly FieldPlan[];
}

/** The answer of a direct plan, as a `Response`: the body as JSON, the declared headers and cookies. */
export function directResponse(plan: DirectPlan, d: Draws): Response {
  const headers = new Headers();
  let body: string | null = null;
  if (plan.body !== undefined) {
    const { codec, arb, mediaType } = plan.body;
    body = JSON.stringify(d.draw('body', arb, (w) => roundTrips(codec, w)));
    headers.set('content-type', mediaType);
  }
  for (const f of plan.headers) headers.set(f.name, String(drawField(d, f)));
  for (const f of plan.cookies) headers.append('set-cookie', setCookieHeader(f.name, String(drawField(d, f))));
  return new Response(body, { status: plan.status, headers });
}

/** The wire status of a declared response key: `'404'` → 404, `'4XX'` → 400, `'default'` → 500. */
function statusOf(key: string): number | undefined {
  const upper = key.toUpperCase();
  try {
    return wireStatus(upper === 'DEFAULT' ? 'default' : (upper as Status));
  } catch {
    return undefined;
  }
}

/** The middleware of a route, as the mock runs them: each one's output generated from its codec, its response fields kept to what they can carry. */
export interface MiddlewarePlan {
  readonly attachment: MiddlewareAttachment;
  readonly out: fc.Arbitrary<unknown>;
  readonly merged: readonly { readonly param: ResponseMergeParam<unknown, unknown>; readonly field: FieldPlan }[];
}

/** A middleware's generated output. */
export function middlewareOutput(plan: MiddlewarePlan, d: Draws): unknown {
  const name = plan.attachment.middleware.name;
  const codec = plan.attachment.middleware.declaration.outCodec as Codec<unknown>;
  const out = codec.decode(d.draw(`middleware ${name}`, plan.out, (w) => roundTrips(codec, w)));
  for (const { param, field } of plan.merged) param.set(out, (param.codec as Codec<unknown>).decode(drawField(d, field, `middleware ${name} ${field.kind} ${field.name}`)));
  return out;
}

/** Everything the mock needs to answer one route. */
export interface RoutePlan {
  readonly operationId: string;
  /** What a request that passes the route's checks gets. */
  readonly answer: { readonly kind: 'success'; readonly plan: SuccessPlan } | { readonly kind: 'direct'; readonly plan: DirectPlan };
  readonly middleware: readonly MiddlewarePlan[];
}

/**
 * The plan of one route: its main success (for a route that never succeeds, `response:
 * codec.never()`, its first declared response), or the declared status `override` names.
 * @throws {TypeError} for an override of a status the route does not declare, or a codec of the
 * answer that cannot be generated (`testing.arbitrary`'s own `TypeError`, naming the route).
 */
export function routePlan(handle: RouteHandle<unknown, unknown>, override: MockOverride | undefined): RoutePlan {
  const route = handle.route;
  const operationId = operationIdOf(handle);
  const main = mainStatus(route.method, route.meta.respStatus);
  const format = handle.responseFormats[0];
  const sse = format instanceof SSEFormat ? (format as SSEFormat<unknown, unknown>) : undefined;
  const middleware = handle.serverMiddleware.map((attachment): MiddlewarePlan => {
    const mw = attachment.middleware;
    const what = `the output of middleware ${mw.name}`;
    return {
      attachment,
      out: arbitraryOf(route.id, what, mw.declaration.outCodec as Codec<unknown>),
      merged: mw.responseParams.map((param) => ({ param: param as ResponseMergeParam<unknown, unknown>, field: fieldPlan(route.id, param) })),
    };
  });
  // A route that never succeeds (`response: codec.never()`) answers its first declared response.
  const never = route.respCodec.kind === 'never';
  const declared = describeRoute(handle).responses;
  const status = override?.status ?? (never ? (statusOf(declared[0]?.status ?? 'default') ?? 500) : main);
  if (status === main && !never) return { operationId, middleware, answer: { kind: 'success', plan: successPlan(route.id, main, true, route.respCodec as Codec<unknown>, route.params, sse) } };
  const other = route.successes.find((s) => s.status === status);
  if (other !== undefined) {
    return { operationId, middleware, answer: { kind: 'success', plan: successPlan(route.id, status, false, other.codec, other.params ?? route.params, undefined) } };
  }
  const response = declared.find((r) => statusOf(r.status) === status);
  if (!Number.isInteger(status) || response === undefined) {
    const listed = [...new Set(declared.map((r) => statusOf(r.status)).filter((s) => s !== undefined))].join(', ');
    throw new TypeError(`testing: overrides[${JSON.stringify(operationId)}]: ${route.id} does not declare status ${String(status)} (it declares ${listed})`);
  }
  return { operationId, middleware, answer: { kind: 'direct', plan: directPlan(handle, response, status) } };
}

function directPlan(handle: RouteHandle<unknown, unknown>, response: ResponseDescriptor, status: number): DirectPlan {
  const route = handle.route;
  // The typed body a client decodes this status with: the status's ErrorRespond pattern, else what the document gives.
  const pattern = route.errorRules.find((r): r is ErrorPattern<unknown, unknown> => r instanceof ErrorPattern && r.action === 'respond' && r.status === status);
  const media = response.content.find((m) => isJsonMediaType(m.mediaType));
  if (media === undefined && response.content.length > 0) {
    throw new TypeError(`testing: ${route.id}: the mock writes the ${status} body as JSON, and the route declares it only as ${response.content.map((m) => m.mediaType).join(', ')}`);
  }
  const codec = pattern?.body ?? (media?.codec as Codec<unknown> | undefined);
  const what = `the ${status} body`;
  return {
    status,
    body: codec === undefined || media === undefined ? undefined : { mediaType: media.mediaType, codec, arb: arbitraryOf(route.id, what, codec) },
    headers: response.headers.map((h) => fieldPlan(route.id, { kind: 'responseHeader', name: h.name, codec: h.codec as Codec<unknown> | undefined })),
    cookies: response.cookies.map((c) => fieldPlan(route.id, { kind: 'responseCookie', name: c.name, codec: c.codec as Codec<unknown> | undefined })),
  };
}
