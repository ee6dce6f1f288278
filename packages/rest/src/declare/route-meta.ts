import type { ExternalDocsDescriptor, LinkDescriptor, SecurityRequirement } from '@lib/openapi';
import type { Status } from './error-rules.js';
import type { PlainParam, ResponseMergeParam } from './params.js';
import type { RouteOption } from './route-option.js';

/** The fields of {@link routeMeta}. */
export interface RouteMetaFields {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly deprecated?: boolean;
  /** Emits the request body schema as `components.schemas[reqSchemaName]`. */
  readonly reqSchemaName?: string;
  /** Emits the success body schema as `components.schemas[respSchemaName]`. */
  readonly respSchemaName?: string;
  /** The success status. Default 201 for POST, 200 otherwise; 3xx makes a redirect route. */
  readonly respStatus?: Status;
  /** Description of the success response. Default: the status's reason phrase. */
  readonly respDescription?: string;
  /** Documentation of the operation elsewhere (OpenAPI 3.1 §4.8.11). */
  readonly externalDocs?: ExternalDocsDescriptor;
  /** Route security requirements: scheme name → scopes. */
  readonly security?: readonly SecurityRequirement[];
  /**
   * The handler evaluates the request's preconditions (RFC 9110 §13.1) with
   * `rest.checkPreconditions(ctx, current)`, reading the validators from the context, never from
   * its request value. The document lists the headers a client may send — `If-None-Match` and
   * `If-Modified-Since` on GET and HEAD (answered 304), `If-Match`, `If-Unmodified-Since` and
   * `If-None-Match` on any other method (answered 412) — and the 304 or the 412. With
   * `errors: [rest.preconditionFailed()]` a write's 412 is a typed error (`{ error, precondition }`,
   * `client.safeCall` narrows it). The client sends the validators from its call options
   * (`ifNoneMatch`, `ifModifiedSince`, `ifMatch`, `ifUnmodifiedSince`).
   */
  readonly preconditions?: boolean;
  /**
   * Leaves the route out of the OpenAPI document (`api.openAPISpec()`); it is served and callable
   * as any other. For endpoints that are not part of the API's contract: the document itself, a
   * docs page, health checks.
   */
  readonly hidden?: boolean;
  /**
   * The operations a client may call next with values of the success response (OpenAPI 3.1
   * §4.8.20 Link Objects), by link name: `{ getUser: { operationId: 'getUser', parameters: { id:
   * '$response.body#/id' } } }`. Documented on the main success response; `@lib/testing`
   * follows them. Each parameter is a runtime expression (`$response.body#/id`,
   * `$request.path.id`, `$response.header.Location`, …) or a constant; the server checks them,
   * and that each names an operation it documents, when it writes the document.
   */
  readonly links?: Readonly<Record<string, LinkDescriptor>>;
}

/** Route metadata as a route option. */
export class RouteMeta implements RouteOption<unknown, unknown> {
  readonly optionKind = 'routeMeta';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  readonly fields: RouteMetaFields;
  constructor(fields: RouteMetaFields) {
    this.fields = fields;
  }
}

/**
 * Route metadata: `rest.routeMeta({ operationId: 'getUser', summary: 'Get a user' })`. Several
 * are merged in order. The fields are copied and frozen: changing the caller's `tags` or
 * `security` arrays afterwards changes neither the document nor what the server enforces.
 */
export function routeMeta(fields: RouteMetaFields): RouteMeta {
  return new RouteMeta(frozenMeta(fields));
}

/** A frozen copy of security requirements (scheme → scopes), each requirement and scope list copied. */
export function frozenRequirements(requirements: readonly SecurityRequirement[]): readonly SecurityRequirement[] {
  return Object.freeze(requirements.map((r) => Object.freeze(Object.fromEntries(Object.entries(r).map(([name, scopes]) => [name, Object.freeze([...scopes])])))));
}

/** A frozen copy of route metadata: the arrays and objects it holds are copied too. */
export function frozenMeta(fields: RouteMetaFields): RouteMetaFields {
  const copy: { -readonly [K in keyof RouteMetaFields]: RouteMetaFields[K] } = { ...fields };
  if (fields.tags !== undefined) copy.tags = Object.freeze([...fields.tags]);
  if (fields.security !== undefined) copy.security = frozenRequirements(fields.security);
  if (fields.externalDocs !== undefined) copy.externalDocs = Object.freeze({ ...fields.externalDocs });
  if (fields.links !== undefined) copy.links = Object.freeze({ ...fields.links });
  return Object.freeze(copy);
}

/** The fields of {@link responseMeta}. */
export interface ResponseMetaFields {
  readonly status: Status;
  readonly description: string;
  /** Documented response headers of this response. */
  readonly headers?: readonly (PlainParam<'responseHeader'> | ResponseMergeParam<never, unknown>)[];
}

/** An extra documented response as a route option. */
export class ResponseMeta implements RouteOption<unknown, unknown> {
  readonly optionKind = 'responseMeta';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  readonly fields: ResponseMetaFields;
  constructor(fields: ResponseMetaFields) {
    this.fields = fields;
  }
}

/** Declares an extra documented response: `rest.responseMeta({ status: 204, description: 'Deleted' })`. */
export function responseMeta(fields: ResponseMetaFields): ResponseMeta {
  return new ResponseMeta(fields);
}
