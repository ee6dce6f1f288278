import type { Codec } from '@lib/codec';
import type { AnyParam } from './params.js';
import type { RouteOption } from './route-option.js';

/**
 * A success response a route declares besides its main one (RFC 9110 §15.3): its status, body
 * codec (`codec.empty()` for a response without content, such as 202 or 204) and, where they
 * differ from the route's, its response headers and cookies. A handler answers it with the
 * `respond` function it receives (`respond(201, created)`); the server encodes it with this
 * codec, the client decodes it by status, and the document lists it.
 */
export interface SuccessResponseSpec {
  /** The status, 200–299 and not the route's main status. */
  readonly status: number;
  /** The response's description in the document; default its reason phrase. */
  readonly description: string | undefined;
  /** The body codec; `codec.empty()` for no content. */
  readonly codec: Codec<unknown>;
  /** The response headers and cookies of this status; `undefined`: the route's own. */
  readonly params: readonly AnyParam[] | undefined;
}

/** A {@link SuccessResponseSpec} as a route option (`rest.route({ successes })` builds them). */
export class SuccessResponseOption implements RouteOption<unknown, unknown> {
  readonly optionKind = 'success';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  readonly spec: SuccessResponseSpec;
  constructor(spec: SuccessResponseSpec) {
    this.spec = spec;
  }
}

/**
 * One success response of a route's type: its status and the value a handler answers it with
 * (what the client decodes it to). `client.safeCall` gives `{ ok: true, status, value }` for
 * each, discriminated by `status`.
 */
export interface DeclaredSuccess<S extends number = number, V = unknown> {
  /** The status on the wire. */
  readonly status: S;
  /** The response value. */
  readonly value: V;
}

/**
 * A handler's answer with one of the route's declared success statuses, made by the `respond`
 * function a handler receives: the server sends `status` with `value` encoded by that status's
 * codec, headers and cookies.
 */
export class Answer<S extends number = number, V = unknown> {
  /** The status to send. */
  readonly status: S;
  /** The response value. */
  readonly value: V;
  constructor(status: S, value: V) {
    this.status = status;
    this.value = value;
  }
}

/** The value of the declared success of status `S`. */
export type SuccessValue<Ok extends DeclaredSuccess, S> = Ok extends DeclaredSuccess<infer X, infer V> ? (S extends X ? V : never) : never;

/**
 * The arguments after the status of {@link Responder}: the value, which may be left out when
 * the response has no content.
 */
export type AnswerArgs<V> = [V] extends [void] ? [value?: V] : [undefined] extends [V] ? [value?: V] : [value: V];

/**
 * The `respond` function a handler receives as its third argument: `respond(201, created)`
 * answers the route's declared 201 with `created`. Only a status the route declares compiles
 * (the main one or one of `successes`: `Argument of type '202' is not assignable to parameter
 * of type '200 | 201'`), and the value is checked against that status's type.
 */
export type Responder<Ok extends DeclaredSuccess> = <const S extends Ok['status']>(status: S, ...value: AnswerArgs<SuccessValue<Ok, S>>) => Answer<S, SuccessValue<Ok, S>>;
