import type { JsonSchema } from '@lib/codec';
import type { ParameterLocation, SecuritySchemeObject } from './descriptor.js';

/*
 * The OpenAPI 3.1 objects this package emits (https://spec.openapis.org/oas/v3.1.0), as plain
 * data: what `Document.toJSON()` returns and `marshalJSON`/`marshalYAML` serialise. Only the
 * fields the renderer writes, plus the few a user commonly adds by hand, are typed. Schemas are
 * JSON Schema 2020-12 (`JsonSchema` from `@lib/codec`), as OpenAPI 3.1 uses them.
 */

/** A specification extension key (`x-…`), allowed on most OpenAPI objects. */
export type ExtensionKey = `x-${string}`;

/** The root OpenAPI Object (OpenAPI 3.1 §4.8.1). `paths` is always emitted, possibly empty. */
export interface OpenAPIObject {
  /** The OpenAPI version: `'3.1.0'` for rendered documents. */
  openapi: string;
  info: InfoObject;
  jsonSchemaDialect?: string;
  servers?: ServerObject[];
  /** Global security requirements; an operation's `security` overrides them. */
  security?: SecurityRequirementObject[];
  tags?: TagObject[];
  paths: PathsObject;
  webhooks?: Record<string, PathItemObject>;
  components?: ComponentsObject;
  externalDocs?: ExternalDocumentationObject;
}

/** Info Object (OpenAPI 3.1 §4.8.2): the API's title and own version. */
export interface InfoObject {
  title: string;
  summary?: string;
  description?: string;
  termsOfService?: string;
  contact?: ContactObject;
  license?: LicenseObject;
  /** The API's version, not the OpenAPI version. */
  version: string;
}

/** Contact Object (OpenAPI 3.1 §4.8.3). */
export interface ContactObject {
  name?: string;
  url?: string;
  email?: string;
}

/** License Object (OpenAPI 3.1 §4.8.4); `identifier` is an SPDX expression. */
export interface LicenseObject {
  name: string;
  identifier?: string;
  url?: string;
}

/** Server Object (OpenAPI 3.1 §4.8.5). The renderer puts the server's name in `description`. */
export interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, ServerVariableObject>;
}

/** Server Variable Object (OpenAPI 3.1 §4.8.6). */
export interface ServerVariableObject {
  enum?: string[];
  default: string;
  description?: string;
}

/** Paths Object (OpenAPI 3.1 §4.8.8): path template (`/users/{id}`) → path item. */
export type PathsObject = Record<string, PathItemObject>;

/** The operation keys of a path item, in the order OpenAPI lists them and the renderer emits them. */
export type HttpMethodKey = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Path Item Object (OpenAPI 3.1 §4.8.9): the operations on one path template. */
export interface PathItemObject {
  summary?: string;
  description?: string;
  get?: OperationObject;
  put?: OperationObject;
  post?: OperationObject;
  delete?: OperationObject;
  options?: OperationObject;
  head?: OperationObject;
  patch?: OperationObject;
  trace?: OperationObject;
  servers?: ServerObject[];
  parameters?: (ParameterObject | ReferenceObject)[];
}

/** Operation Object (OpenAPI 3.1 §4.8.10): one declared route. */
export interface OperationObject {
  tags?: string[];
  summary?: string;
  description?: string;
  externalDocs?: ExternalDocumentationObject;
  operationId?: string;
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: RequestBodyObject | ReferenceObject;
  /** Optional in OpenAPI 3.1; the renderer omits it only for a route without responses. */
  responses?: ResponsesObject;
  deprecated?: boolean;
  /** The route's security; `[]` removes the global requirements for this operation. */
  security?: SecurityRequirementObject[];
  servers?: ServerObject[];
  /** Specification extensions (OpenAPI 3.1 §4.9), such as `x-capabilities`. */
  [extension: ExtensionKey]: unknown;
}

/** External Documentation Object (OpenAPI 3.1 §4.8.11). */
export interface ExternalDocumentationObject {
  url: string;
  description?: string;
}

/** Parameter Object (OpenAPI 3.1 §4.8.12), schema form. `required` is omitted when false. */
export interface ParameterObject {
  name: string;
  in: ParameterLocation;
  description?: string;
  /** Always `true` for path parameters. */
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

/** Request Body Object (OpenAPI 3.1 §4.8.13): media type → body schema. */
export interface RequestBodyObject {
  description?: string;
  content: Record<string, MediaTypeObject>;
  required?: boolean;
}

/** Media Type Object (OpenAPI 3.1 §4.8.14). */
export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, unknown>;
  /** Encoding Objects by property name (OpenAPI 3.1 §4.8.15), for multipart bodies. */
  encoding?: Record<string, EncodingObject>;
  /**
   * The schema of each item of a sequential media type (NDJSON, `text/event-stream`): a
   * specification extension (OpenAPI 3.1 §4.9), as 3.1 has no keyword for it; OpenAPI 3.2 names
   * it `itemSchema`. The body's own `schema` then describes the whole text.
   */
  'x-itemSchema'?: JsonSchema;
}

/** Encoding Object (OpenAPI 3.1 §4.8.15): how one property of a multipart body is sent. */
export interface EncodingObject {
  contentType?: string;
}

/**
 * Responses Object (OpenAPI 3.1 §4.8.16): status (`'200'`, `'4XX'`, `'default'`) → response.
 * Keys are strings; the renderer emits them in ascending order with `default` last.
 */
export type ResponsesObject = Record<string, ResponseObject | ReferenceObject>;

/** Response Object (OpenAPI 3.1 §4.8.17). `content` and `headers` are omitted when empty. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
  /** Link Objects by name (OpenAPI 3.1 §4.8.20). */
  links?: Record<string, LinkObject>;
  /** Specification extensions (OpenAPI 3.1 §4.9). */
  [extension: `x-${string}`]: unknown;
}

/** Link Object (OpenAPI 3.1 §4.8.20), by `operationId`. */
export interface LinkObject {
  operationId: string;
  parameters?: Record<string, string>;
  requestBody?: string;
  description?: string;
}

/**
 * Header Object (OpenAPI 3.1 §4.8.21), schema form. The renderer's `Set-Cookie` header also
 * carries the `x-cookies` extension (see {@link SetCookieExtension}).
 */
export interface HeaderObject {
  description?: string;
  /** Omitted when false. */
  required?: boolean;
  deprecated?: boolean;
  schema?: JsonSchema;
  [extension: ExtensionKey]: unknown;
}

/**
 * The `x-cookies` extension of a rendered `Set-Cookie` response header: cookie name → what the
 * server sets (OpenAPI has no response-cookie object). `schema` describes the cookie's value.
 */
export type SetCookieExtension = Record<string, { description?: string; required: boolean; schema: JsonSchema }>;

/** Tag Object (OpenAPI 3.1 §4.8.22). */
export interface TagObject {
  name: string;
  description?: string;
  externalDocs?: ExternalDocumentationObject;
}

/** Reference Object (OpenAPI 3.1 §4.8.23). */
export interface ReferenceObject {
  $ref: string;
  summary?: string;
  description?: string;
}

/** Components Object (OpenAPI 3.1 §4.8.7). Omitted from a document when empty. */
export interface ComponentsObject {
  /** Named codecs and `schemaName`s; referenced as `#/components/schemas/{name}`. */
  schemas?: Record<string, JsonSchema>;
  responses?: Record<string, ResponseObject | ReferenceObject>;
  parameters?: Record<string, ParameterObject | ReferenceObject>;
  requestBodies?: Record<string, RequestBodyObject | ReferenceObject>;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  securitySchemes?: Record<string, SecuritySchemeObject>;
}

/** Security Requirement Object (OpenAPI 3.1 §4.8.30): scheme name → required scopes. */
export type SecurityRequirementObject = Record<string, string[]>;
