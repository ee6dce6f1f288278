import { SchemaGenerator, SchemaNameConflictError } from '@lib/codec';
import type { ApiDescriptor, RouteDescriptor, SecurityRequirement, SecuritySchemeObject, TagDescriptor } from './descriptor.js';
import { Document } from './document.js';
import type { ComponentsObject, ContactObject, ExternalDocumentationObject, HttpMethodKey, InfoObject, LicenseObject, OpenAPIObject, OperationObject, PathItemObject, PathsObject, ServerObject, TagObject } from './model.js';
import { omitUndefined } from './omit-undefined.js';
import { templateProblem, templateShape } from './path-template.js';
import { OpenAPIRenderError, routeError } from './render-error.js';
import { renderOperation, renderSecurity } from './render-operation.js';

/** The `$ref` prefix of named schemas in a rendered document. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** Operation keys of a path item, in the order OpenAPI lists them (and the renderer emits them). */
const METHOD_KEYS: readonly HttpMethodKey[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Renders an API descriptor into an OpenAPI 3.1 document.
 *
 * - `info` from `api.info`; `servers` as `{ url, description: name }`, else `[{ url: '/' }]`
 *   (OpenAPI's default, stated); global `security`.
 * - `paths`: one path item per template (`/users/{id}`), in first-declaration order; within
 *   it, operations under the lower-case method in OpenAPI order (`get`, `put`, `post`, …).
 * - Every codec goes through one `SchemaGenerator` with `refNamed`, so named codecs
 *   (`withName`), `schemaName`s and recursive codecs become `components.schemas` entries
 *   (sorted by name) referenced as `#/components/schemas/{name}`.
 * - `tags`: the tags the operations use, in first-use order.
 * - `components.securitySchemes` from `api.securitySchemes`. Empty arrays and objects are left out.
 * - Without global security, an operation whose route declares none says so with `security: []`
 *   (public, stated rather than implied), as linters such as Redocly's `security-defined` ask.
 *
 * @returns a new {@link Document}; rendering has no side effects on the descriptor.
 * @throws {OpenAPIRenderError} when the descriptor cannot give a valid document (duplicate
 * method and path, conflicting templates, unknown path parameter, invalid status, unknown
 * security scheme, …; see `RenderProblem`), or with problem `schema` and the codec's error as
 * `cause` when a codec fails to render (two different schemas with one name).
 */
export function renderDocument(api: ApiDescriptor): Document {
  const gen = new SchemaGenerator({ refPrefix: SCHEMA_REF_PREFIX, refNamed: true });
  const schemes: Readonly<Record<string, SecuritySchemeObject>> = api.securitySchemes ?? {};
  const operations = new Map<string, Map<HttpMethodKey, OperationObject>>();
  const shapes = new Map<string, string>();
  const operationIds = new Map<string, RouteDescriptor>();
  const tags: string[] = [];
  // A route without security of its own is public when no global requirement applies.
  const publicByDefault = api.security === undefined || api.security.length === 0;

  for (const route of api.routes) {
    const key = methodKey(route);
    const problem = templateProblem(route.path);
    if (problem !== undefined) throw routeError(route, 'invalidPath', `the path template ${problem}`);
    const shape = templateShape(route.path);
    const other = shapes.get(shape);
    if (other !== undefined && other !== route.path) {
      throw routeError(route, 'conflictingPath', `the path template is the same OpenAPI path as "${other}"`, other);
    }
    shapes.set(shape, route.path);
    let item = operations.get(route.path);
    if (item === undefined) operations.set(route.path, (item = new Map()));
    if (item.has(key)) throw routeError(route, 'duplicateOperation', 'two routes are declared with this method and path');
    if (route.operationId !== undefined) {
      const first = operationIds.get(route.operationId);
      if (first !== undefined) {
        throw routeError(
          route,
          'duplicateOperationId',
          `operationId "${route.operationId}" is already used by ${first.method} ${first.path}`,
          route.operationId,
        );
      }
      operationIds.set(route.operationId, route);
    }
    if (route.security !== undefined) checkSecurity(route.security, schemes, route);
    item.set(key, renderRouteOperation(publicByDefault && route.security === undefined ? { ...route, security: [] } : route, gen));
    for (const tag of route.tags ?? []) if (!tags.includes(tag)) tags.push(tag);
  }
  if (api.security !== undefined) checkSecurity(api.security, schemes, undefined);

  const paths: PathsObject = {};
  for (const [path, item] of operations) {
    const pathItem: PathItemObject = {};
    for (const key of METHOD_KEYS) {
      const op = item.get(key);
      if (op !== undefined) pathItem[key] = op;
    }
    paths[path] = pathItem;
  }

  return new Document(
    omitUndefined<OpenAPIObject>({
      openapi: '3.1.0',
      info: omitUndefined<InfoObject>({
        title: api.info.title,
        summary: api.info.summary,
        description: api.info.description,
        termsOfService: api.info.termsOfService,
        contact: api.info.contact === undefined ? undefined : omitUndefined<ContactObject>({ ...api.info.contact }),
        license: api.info.license === undefined ? undefined : omitUndefined<LicenseObject>({ ...api.info.license }),
        version: api.info.version,
      }),
      // No server declared: OpenAPI's default, `/` (the document's own origin), said explicitly.
      servers: api.servers.length > 0 ? api.servers.map((s) => omitUndefined<ServerObject>({ url: s.url, description: s.name !== '' ? s.name : undefined })) : [{ url: '/' }],
      security: api.security !== undefined && api.security.length > 0 ? renderSecurity(api.security) : undefined,
      tags: renderTags(api.tags ?? [], tags),
      paths,
      components: renderComponents(gen, schemes),
      externalDocs: api.externalDocs === undefined ? undefined : omitUndefined<ExternalDocumentationObject>({ ...api.externalDocs }),
    }),
  );
}

/** Declared tags in their order, with their documentation, then tags routes use that were not declared, by name. */
function renderTags(declared: readonly TagDescriptor[], used: readonly string[]): TagObject[] | undefined {
  const out: TagObject[] = declared.map((t) =>
    omitUndefined<TagObject>({ name: t.name, description: t.description, externalDocs: t.externalDocs === undefined ? undefined : omitUndefined<ExternalDocumentationObject>({ ...t.externalDocs }) }),
  );
  for (const name of used) if (!declared.some((t) => t.name === name)) out.push({ name });
  return out.length > 0 ? out : undefined;
}

function methodKey(route: RouteDescriptor): HttpMethodKey {
  const key = route.method.toLowerCase();
  const found = METHOD_KEYS.find((k) => k === key);
  if (found === undefined) {
    throw routeError(route, 'invalidMethod', `OpenAPI 3.1 has no operation for method "${route.method}"`, route.method);
  }
  return found;
}

/** Renders one operation; an error a codec throws is wrapped with the route's location. */
function renderRouteOperation(route: RouteDescriptor, gen: SchemaGenerator): OperationObject {
  try {
    return renderOperation(route, gen);
  } catch (err) {
    if (err instanceof OpenAPIRenderError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    const subject = err instanceof SchemaNameConflictError ? err.schemaName : undefined;
    throw routeError(route, 'schema', `a schema failed to render: ${message}`, subject, err);
  }
}

function checkSecurity(
  requirements: readonly SecurityRequirement[],
  schemes: Readonly<Record<string, SecuritySchemeObject>>,
  route: RouteDescriptor | undefined,
): void {
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      if (Object.hasOwn(schemes, name)) continue;
      const message = `security requirement names scheme "${name}", which is not in securitySchemes`;
      throw route === undefined
        ? new OpenAPIRenderError('unknownSecurityScheme', `global ${message}`, { subject: name })
        : routeError(route, 'unknownSecurityScheme', message, name);
    }
  }
}

function renderComponents(gen: SchemaGenerator, schemes: Readonly<Record<string, SecuritySchemeObject>>): ComponentsObject | undefined {
  const names = Object.keys(gen.definitions).sort();
  const schemeNames = Object.keys(schemes);
  if (names.length === 0 && schemeNames.length === 0) return undefined;
  return omitUndefined<ComponentsObject>({
    schemas: names.length > 0 ? Object.fromEntries(names.map((n) => [n, gen.definitions[n] ?? {}])) : undefined,
    securitySchemes:
      schemeNames.length > 0 ? Object.fromEntries(schemeNames.map((n) => [n, renderSecurityScheme(schemes[n] as SecuritySchemeObject)])) : undefined,
  });
}

/** A copy of a security scheme with its keys in OpenAPI order. */
function renderSecurityScheme(s: SecuritySchemeObject): SecuritySchemeObject {
  return omitUndefined<SecuritySchemeObject>({
    type: s.type,
    description: s.description,
    name: s.name,
    in: s.in,
    scheme: s.scheme,
    bearerFormat: s.bearerFormat,
    flows: s.flows === undefined ? undefined : structuredClone(s.flows),
    openIdConnectUrl: s.openIdConnectUrl,
  });
}
