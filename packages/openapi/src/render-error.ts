/**
 * What is wrong with a descriptor that cannot become a valid OpenAPI 3.1 document:
 *
 * - `invalidMethod`: a method OpenAPI has no operation key for (`CONNECT`, custom methods).
 * - `invalidPath`: a path template that does not start with `/`, has unbalanced braces or an
 *   empty `{}` placeholder.
 * - `conflictingPath`: two templates that differ only in placeholder names (`/a/{id}`,
 *   `/a/{name}`), which OpenAPI treats as the same path.
 * - `duplicateOperation`: two routes with one method and path.
 * - `duplicateOperationId`: two operations with one `operationId`.
 * - `duplicateParameter`: two parameters of one route with one name and location.
 * - `reservedHeader`: a header parameter named `Accept`, `Content-Type` or `Authorization`
 *  .
 * - `unknownPathParam`: a path parameter whose name is not a placeholder of the template.
 * - `invalidStatus`: a response status that is not `100`–`599`, `1XX`–`5XX` or `default`.
 * - `duplicateResponse`: two responses of one route with one status.
 * - `duplicateResponseHeader`: two headers of one response with one name (case-insensitive;
 *   includes a declared `Set-Cookie` header next to response cookies).
 * - `duplicateResponseCookie`: two cookies of one response with one name.
 * - `duplicateMediaType`: one media type twice in one request or response body.
 * - `unknownSecurityScheme`: a security requirement naming a scheme not in `securitySchemes`.
 * - `schema`: a codec failed to render (for example `SchemaNameConflictError` from
 *   `@lib/codec`: two different schemas share a name); the original error is the `cause`.
 */
export type RenderProblem =
  | 'invalidMethod'
  | 'invalidPath'
  | 'conflictingPath'
  | 'duplicateOperation'
  | 'duplicateOperationId'
  | 'duplicateParameter'
  | 'reservedHeader'
  | 'unknownPathParam'
  | 'invalidStatus'
  | 'duplicateResponse'
  | 'duplicateResponseHeader'
  | 'duplicateResponseCookie'
  | 'duplicateMediaType'
  | 'unknownSecurityScheme'
  | 'schema';

/** Where an {@link OpenAPIRenderError} was found, and what caused it. */
export interface OpenAPIRenderErrorOptions {
  /** The route's method, as declared, when the problem belongs to a route. */
  readonly method?: string;
  /** The route's path template, when the problem belongs to a route. */
  readonly path?: string;
  /**
   * The offending name: parameter or header name, status, operationId, scheme name, the other
   * path template, or the schema name.
   */
  readonly subject?: string;
  readonly cause?: unknown;
}

/**
 * Thrown by `renderDocument` when the descriptor cannot be
 * rendered into a valid OpenAPI 3.1 document. `problem` says what is wrong; `method`, `path`
 * and `subject` say where; `cause` keeps an underlying error (problem `schema`).
 */
export class OpenAPIRenderError extends Error {
  /** What is wrong. */
  readonly problem: RenderProblem;
  /** The route's method, or `undefined` for a document-level problem. */
  readonly method: string | undefined;
  /** The route's path template, or `undefined` for a document-level problem. */
  readonly path: string | undefined;
  /** The offending name (see {@link OpenAPIRenderErrorOptions.subject}). */
  readonly subject: string | undefined;

  constructor(problem: RenderProblem, message: string, options: OpenAPIRenderErrorOptions = {}) {
    const where = options.method !== undefined && options.path !== undefined ? `${options.method} ${options.path}: ` : '';
    super(`openapi: ${where}${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OpenAPIRenderError';
    this.problem = problem;
    this.method = options.method;
    this.path = options.path;
    this.subject = options.subject;
  }
}

/** An {@link OpenAPIRenderError} located at `route` (internal helper of the renderers). */
export function routeError(
  route: { readonly method: string; readonly path: string },
  problem: RenderProblem,
  message: string,
  subject?: string,
  cause?: unknown,
): OpenAPIRenderError {
  const options: { method: string; path: string; subject?: string; cause?: unknown } = { method: route.method, path: route.path };
  if (subject !== undefined) options.subject = subject;
  if (cause !== undefined) options.cause = cause;
  return new OpenAPIRenderError(problem, message, options);
}
