import type { Codec, JsonSchema, SchemaGenerator } from '@lib/codec';

/**
 * The route descriptor: what `@lib/rest` produces from a route declaration and what this
 * package renders into an OpenAPI 3.1 document. Plain data; every codec is rendered through `@lib/codec`'s
 * `SchemaGenerator`, so named codecs become `components.schemas` entries.
 */

/** Where a parameter is read from (OpenAPI `in`). */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** A request parameter. */
export interface ParameterDescriptor {
  readonly in: ParameterLocation;
  readonly name: string;
  /**
   * Parameter-level description, rendered as the Parameter Object's `description` (OpenAPI 3.1
   * §4.8.12.2). Absent, the codec's own schema description takes its place there.
   */
  readonly description?: string;
  /** Path parameters are always required. */
  readonly required: boolean;
  /** The codec of the parameter's string value; absent means `{ type: 'string' }`. */
  readonly codec?: Codec<unknown>;
  readonly deprecated?: boolean;
  /**
   * How the value is serialized (OpenAPI 3.1 §4.8.12.4: `simple`, `label`, `matrix`, `form`,
   * `spaceDelimited`, `pipeDelimited`, `deepObject`); absent: the location's default. Rendered as
   * the Parameter Object's `style`.
   */
  readonly style?: 'matrix' | 'label' | 'simple' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  /** Whether lists and objects are exploded (OpenAPI 3.1 §4.8.12.2); absent: the style's default. Rendered as `explode`. */
  readonly explode?: boolean;
}

/** One media type of a request or response body. */
export interface MediaTypeDescriptor {
  /** `application/json`, `image/png`, … */
  readonly mediaType: string;
  /** The body's codec. */
  readonly codec: Codec<unknown>;
  /**
   * Other codecs the body may follow instead of `codec`, for a status that several sources
   * answer with different bodies (an error pattern's typed body and the `errorHandler`'s
   * envelope). The schema is then `anyOf` of every distinct codec's schema (JSON Schema 2020-12
   * §10.2.1.2): `anyOf`, not `oneOf`, because such bodies may overlap (`{ "error": "…" }`
   * satisfies both an envelope and a pattern body that only adds optional fields), and a body
   * that matches two branches must still be valid. Ignored when `schema` is given.
   */
  readonly alternatives?: readonly Codec<unknown>[];
  /** When set, the body schema is emitted as `components.schemas[schemaName]` and referenced. */
  readonly schemaName?: string;
  /** A schema that replaces the codec's (binary bodies); rendered as is. */
  readonly schema?: JsonSchema;
  /**
   * A schema that replaces the codec's, written by the document's generator (form and multipart
   * bodies: a named part codec is a reference to its component). Takes precedence over `schema`.
   */
  readonly schemaWith?: (gen: SchemaGenerator) => JsonSchema;
  /**
   * The codec of each item of a streamed sequence (NDJSON lines, server-sent events): rendered
   * as the Media Type Object's `x-itemSchema`. OpenAPI 3.1 has no keyword for the items of a
   * sequential media type (3.2 adds `itemSchema`); tools that do not know the extension see the
   * body as text.
   */
  readonly itemCodec?: Codec<unknown>;
  /** Encoding Objects by property name, for `multipart/form-data` bodies (OpenAPI 3.1 §4.8.15). */
  readonly encoding?: Readonly<Record<string, { readonly contentType: string }>>;
}

/** A response header, under `responses[status].headers`. */
export interface HeaderDescriptor {
  readonly name: string;
  /** The Header Object's `description` (OpenAPI 3.1 §4.8.21); absent, the codec's schema description takes its place. */
  readonly description?: string;
  readonly required: boolean;
  readonly codec?: Codec<unknown>;
}

/**
 * A response cookie. OpenAPI has no cookie object for
 * responses: cookies are rendered as the `Set-Cookie` header, described by name.
 */
export interface ResponseCookieDescriptor {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  readonly codec?: Codec<unknown>;
}

/** One documented response (success, `responseMeta`, error pattern or built-in error). */
export interface ResponseDescriptor {
  /** `'200'`, `'404'`, `'2XX'`, `'default'`. */
  readonly status: string;
  /**
   * The Response Object's `description`, rendered as given: an empty string stays empty (the
   * field is required, text in it is not; OpenAPI 3.1 §4.8.17.1). A producer that has none to give
   * chooses its text, such as `reasonPhrase(status)` (as `@lib/rest` does).
   */
  readonly description: string;
  /** Empty for a response without a body (an `empty` codec). */
  readonly content: readonly MediaTypeDescriptor[];
  readonly headers: readonly HeaderDescriptor[];
  readonly cookies: readonly ResponseCookieDescriptor[];
  /** Specification extensions of the Response Object (OpenAPI 3.1 §4.9): `{ 'x-max-body-bytes': 5242880 }`. */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>;
  /** The operations a client may call next with values of this response (OpenAPI 3.1 §4.8.20 Link Object), by link name. */
  readonly links?: Readonly<Record<string, LinkDescriptor>>;
}

/**
 * A Link Object (OpenAPI 3.1 §4.8.20): the operation `operationId` takes, as its parameters (by
 * their names), values of the response or request at hand, written as runtime expressions
 * (§4.8.20.4): `'$response.body#/id'`, `'$request.path.id'`, `'$response.header.Location'`; a
 * value without a leading `$` is a constant.
 */
export interface LinkDescriptor {
  readonly operationId: string;
  readonly parameters?: Readonly<Record<string, string>>;
  /** A runtime expression or constant for the target's request body. */
  readonly requestBody?: string;
  readonly description?: string;
}

/** The request body of a POST, PUT or PATCH route. */
export interface RequestBodyDescriptor {
  readonly description?: string;
  readonly required: boolean;
  readonly content: readonly MediaTypeDescriptor[];
}

/** A security requirement: scheme name → scopes. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** An OpenAPI 3.1 Security Scheme Object, as rendered. */
export interface SecuritySchemeObject {
  readonly type: 'apiKey' | 'http' | 'mutualTLS' | 'oauth2' | 'openIdConnect';
  readonly description?: string;
  readonly name?: string;
  readonly in?: 'query' | 'header' | 'cookie';
  readonly scheme?: string;
  readonly bearerFormat?: string;
  readonly flows?: Readonly<Record<string, unknown>>;
  readonly openIdConnectUrl?: string;
}

/** One operation: a declared route. */
export interface RouteDescriptor {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path template with `{var}` placeholders, as declared. */
  readonly path: string;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly deprecated?: boolean;
  readonly parameters: readonly ParameterDescriptor[];
  /** Absent for methods without a body and for `empty` request codecs. */
  readonly requestBody?: RequestBodyDescriptor;
  /** In declaration order; the success response first. */
  readonly responses: readonly ResponseDescriptor[];
  /** Route security; absent means the API's global security applies. */
  readonly security?: readonly SecurityRequirement[];
  /**
   * Capabilities the route requires of its transport (`requireQoS`, `requireHWM`): capability →
   * minimum level, rendered as the operation's `x-capabilities` extension (OpenAPI 3.1 §4.9).
   */
  readonly capabilities?: Readonly<Record<string, number>>;
  /** Documentation of the operation elsewhere. */
  readonly externalDocs?: ExternalDocsDescriptor;
}

/** `info` of the API (OpenAPI 3.1 §4.8.2 Info Object). */
export interface InfoDescriptor {
  readonly title: string;
  /** The API's own version (not the OpenAPI version). */
  readonly version: string;
  /** A one-line summary. */
  readonly summary?: string;
  /** CommonMark description. */
  readonly description?: string;
  /** A URL of the terms of service. */
  readonly termsOfService?: string;
  /** Who to contact about the API (OpenAPI 3.1 §4.8.3). */
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  /** The license (OpenAPI 3.1 §4.8.4): a name, and an SPDX `identifier` or a `url` (not both). */
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
}

/** Documentation elsewhere (OpenAPI 3.1 §4.8.11 External Documentation Object). */
export interface ExternalDocsDescriptor {
  readonly url: string;
  readonly description?: string;
}

/** A tag with its documentation (OpenAPI 3.1 §4.8.22 Tag Object). */
export interface TagDescriptor {
  readonly name: string;
  readonly description?: string;
  readonly externalDocs?: ExternalDocsDescriptor;
}

/** A named server entry. */
export interface ServerDescriptor {
  /** The name given to `addServer`; rendered as the server's `description`. */
  readonly name: string;
  readonly url: string;
}

/** Everything a document is rendered from. */
export interface ApiDescriptor {
  readonly info: InfoDescriptor;
  readonly servers: readonly ServerDescriptor[];
  readonly routes: readonly RouteDescriptor[];
  readonly securitySchemes?: Readonly<Record<string, SecuritySchemeObject>>;
  /** Global security requirements (`api.addGlobalSecurity`). */
  readonly security?: readonly SecurityRequirement[];
  /** Tags with their documentation, in the order they are listed; tags routes use without a declaration follow by name only. */
  readonly tags?: readonly TagDescriptor[];
  /** Documentation of the whole API elsewhere. */
  readonly externalDocs?: ExternalDocsDescriptor;
}
