import { mediaTypeOf, type Format } from '@lib/format';
import { checkCoverage, type TransportCoverage } from '../declare/coverage.js';
import type { ErrorRule } from '../declare/error-rules.js';
import type { ParamLocation } from '../declare/params.js';
import { admitsNoBody, BODY_METHODS, mainStatus, type Route, type RouteHandle } from '../declare/route.js';
import type { SuccessResponseSpec } from '../declare/success.js';

/**
 * What a call needs to know of its route and never changes from one call to the next, worked out
 * on the route's first call ({@link routePlan}) and kept as long as its handle.
 */
export interface RoutePlan {
  readonly handle: RouteHandle<unknown, unknown>;
  /** The main success status: the route's `respStatus`, else 201 for POST and 200 otherwise. */
  readonly status: number;
  /** False for a route whose response admits no value (`codec.never()`): its main status is no success. */
  readonly succeeds: boolean;
  /** The route's other declared success responses (`successes`) by status. */
  readonly successes: ReadonlyMap<number, SuccessResponseSpec>;
  /** By status, the handle's error rules that decode a body (`ErrorRespond` patterns), in order. */
  readonly errors: ReadonlyMap<number, readonly ErrorRule[]>;
  /** True when the request carries a body (a method with one, and a request codec other than `codec.empty()`). */
  readonly body: boolean;
  /** True when that body may be left out (`admitsNoBody`): a value that encodes to nothing sends none. */
  readonly bodyOptional: boolean;
  /** The location and name ({@link paramKey}) of each of the route's request parameters. */
  readonly declared: ReadonlySet<string>;
  /** The transport last found to carry every parameter kind, capability and security scheme of the route. */
  covered?: TransportCoverage;
}

const ROUTE_PLANS = new WeakMap<RouteHandle<unknown, unknown>, RoutePlan>();

/** The plan of a route handle's calls, worked out on its first call. */
export function routePlan(handle: RouteHandle<unknown, unknown>): RoutePlan {
  let plan = ROUTE_PLANS.get(handle);
  if (plan === undefined) {
    const route = handle.route;
    const errors = new Map<number, readonly ErrorRule[]>();
    for (const r of handle.errorRules) if (r.optionKind === 'errorPattern' && r.action === 'respond') errors.set(r.status, [...(errors.get(r.status) ?? []), r]);
    plan = {
      handle,
      status: mainStatus(route.method, route.meta.respStatus),
      succeeds: route.respCodec.kind !== 'never',
      successes: new Map(route.successes.map((s) => [s.status, s])),
      errors,
      body: BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty',
      bodyOptional: BODY_METHODS.has(route.method) && admitsNoBody(route.reqCodec),
      declared: new Set(handle.requestParams.map((p) => paramKey(p.kind, p.name))),
    };
    ROUTE_PLANS.set(handle, plan);
  }
  return plan;
}

/**
 * Checks, once per route and transport, that `transport` carries the route.
 * @throws {UnsupportedParamKindError} @throws {CapabilityCoverageError} as `checkCoverage`.
 */
export function checkCovered(plan: RoutePlan, transport: TransportCoverage): void {
  if (plan.covered === transport) return;
  const route = plan.handle.route as Route<unknown, unknown>;
  checkCoverage(route, transport, route.credentials.map((c) => c.scheme));
  plan.covered = transport;
}

/** A parameter's location and name as {@link RoutePlan.declared} holds them: a header name in lower case. */
export function paramKey(kind: ParamLocation, name: string): string {
  return `${kind}:${kind === 'header' ? name.toLowerCase() : name}`;
}

/** What a call needs to know of its response formats, worked out once per list of formats. */
export interface ResponsePlan {
  /** The formats, in order. */
  readonly formats: readonly Format<unknown>[];
  /** The `Accept` request header ({@link acceptHeader}). */
  readonly accept: string;
  /** True when a format reads its body as it arrives (`unmarshalStream`). */
  readonly streaming: boolean;
  /** Each format's media type, without parameters, in order. */
  readonly types: readonly string[];
}

const RESPONSE_PLANS = new WeakMap<readonly Format<unknown>[], ResponsePlan>();

/** The plan of a list of response formats, worked out on its first use. */
export function responsePlan(formats: readonly Format<unknown>[]): ResponsePlan {
  let plan = RESPONSE_PLANS.get(formats);
  if (plan === undefined) {
    plan = { formats, accept: acceptHeader(formats), streaming: formats.some((f) => f.unmarshalStream !== undefined), types: formats.map((f) => mediaTypeOf(f.contentType)) };
    RESPONSE_PLANS.set(formats, plan);
  }
  return plan;
}

/**
 * The `Accept` of a call (RFC 9110 §12.5.1): the formats the client can read, in declaration
 * order, the first preferred (`application/json, application/yaml;q=0.9, …`). Response-only
 * formats (`html`) are left out unless nothing else is declared.
 */
export function acceptHeader(formats: readonly Format<unknown>[]): string {
  const readable = formats.filter((f) => f.responseOnly !== true);
  const offered = readable.length > 0 ? readable : formats;
  // Media types without their parameters: `text/csv; charset=utf-8` is offered as `text/csv`
  // (a parameter in Accept would have to match the server's exactly, RFC 9110 §12.5.1).
  return offered.map((f, i) => mediaTypeOf(f.contentType) + (i === 0 ? '' : `;q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(', ');
}

/** A signal that never aborts, for the calls that give none. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Calls an observer method; an observer that throws never breaks a call. */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Observers never break a call.
  }
}
