import type { PathVarValue } from './styled.js';

/**
 * The variable names of a path template, as a union of string literals:
 * `PathVars<'/users/{id}/posts/{postId}'>` is `'id' | 'postId'`; `never` for a template without
 * placeholders; `string` when the template is not a literal type.
 */
export type PathVars<P extends string> = string extends P
  ? string
  : P extends `${string}{${infer Name}}${infer Rest}`
    ? Name | PathVars<Rest>
    : never;

/** What {@link redirect} needs of its target: a route (its path template, typed, and `buildPath`). */
export interface RedirectTarget<P extends string> {
  readonly path: P;
  buildPath(vars: Readonly<Record<string, PathVarValue>>): string;
}

/** The redirect statuses of RFC 9110 §15.4 that a handler may send (304 is not a redirect). */
export type RedirectStatus = 300 | 301 | 302 | 303 | 307 | 308;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

/**
 * A redirect a handler returns or throws ({@link redirect}): the server answers `status` with
 * `Location: location` and no body, instead of the route's success response.
 */
export class Redirect extends Error {
  /** The redirect status (RFC 9110 §15.4). */
  readonly status: RedirectStatus;
  /** The `Location` value: the target route's concrete path, a relative reference (RFC 9110 §10.2.2). */
  readonly location: string;
  constructor(status: RedirectStatus, location: string) {
    super(`redirect ${status} to ${location}`);
    this.name = 'Redirect';
    this.status = status;
    this.location = location;
  }
}

/**
 * A redirect to another route, for a handler to return or throw:
 * `return rest.redirect(303, getUser, { id: user.id })`. The server answers `status` with
 * `Location: targetRoute.buildPath(vars)` (relative to the request URL, RFC 9110 §10.2.2) and an
 * empty body. `vars` must name exactly the target's path variables: the compiler checks them
 * against the target's path template. Declare the redirect on the route for OpenAPI with
 * `rest.responseMeta({ status: 303, description: 'See Other', headers: [rest.responseHeaderParam({ name: 'Location', required: true })] })`.
 * @throws {RangeError} for a status that is not 300, 301, 302, 303, 307 or 308.
 * @throws {PathParamError} @throws {MissingPathVarError} @throws {InvalidPathError} as `buildPath`.
 */
export function redirect<P extends string>(status: RedirectStatus, targetRoute: RedirectTarget<P>, vars: Readonly<Record<PathVars<P>, PathVarValue>>): Redirect {
  if (!REDIRECT_STATUSES.has(status)) throw new RangeError(`invalid redirect status ${String(status)}: expected 300, 301, 302, 303, 307 or 308`);
  return new Redirect(status, targetRoute.buildPath(vars as Readonly<Record<string, PathVarValue>>));
}
