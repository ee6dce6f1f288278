import type { SchemaGenerator } from '@lib/codec';
import type { RequestBodyDescriptor, RouteDescriptor, SecurityRequirement } from './descriptor.js';
import type { ExternalDocumentationObject, OperationObject, RequestBodyObject, SecurityRequirementObject } from './model.js';
import { omitUndefined } from './omit-undefined.js';
import { renderContent } from './render-content.js';
import { renderParameters } from './render-parameters.js';
import { renderResponses } from './render-responses.js';

/**
 * The Operation Object of one route, keys in OpenAPI order:
 * `tags`, `summary`, `description`, `operationId`, `parameters`, `requestBody`, `responses`,
 * `deprecated`, `security`. Empty `tags`, `parameters` and `responses` are left out; a
 * `requestBody` whose content is empty (an `empty` codec) is left out; `security` is emitted
 * whenever the route gives it, `[]` included (it lifts the global requirements).
 * @throws {OpenAPIRenderError} from the parameters, body and responses; codec errors propagate.
 */
export function renderOperation(route: RouteDescriptor, gen: SchemaGenerator): OperationObject {
  const parameters = renderParameters(route, gen);
  const requestBody = route.requestBody === undefined ? undefined : renderRequestBody(route, route.requestBody, gen);
  const responses = renderResponses(route, gen);
  return omitUndefined<OperationObject>({
    tags: route.tags !== undefined && route.tags.length > 0 ? [...route.tags] : undefined,
    summary: route.summary,
    description: route.description,
    operationId: route.operationId,
    parameters: parameters.length > 0 ? parameters : undefined,
    requestBody,
    responses: Object.keys(responses).length > 0 ? responses : undefined,
    deprecated: route.deprecated === true ? true : undefined,
    security: route.security === undefined ? undefined : renderSecurity(route.security),
    externalDocs: route.externalDocs === undefined ? undefined : omitUndefined<ExternalDocumentationObject>({ ...route.externalDocs }),
    'x-capabilities': route.capabilities === undefined || Object.keys(route.capabilities).length === 0 ? undefined : { ...route.capabilities },
  });
}

function renderRequestBody(route: RouteDescriptor, body: RequestBodyDescriptor, gen: SchemaGenerator): RequestBodyObject | undefined {
  const content = renderContent(route, body.content, gen);
  if (Object.keys(content).length === 0) return undefined;
  return omitUndefined<RequestBodyObject>({
    description: body.description,
    content,
    required: body.required ? true : undefined,
  });
}

/** Copies security requirements into mutable document data. */
export function renderSecurity(requirements: readonly SecurityRequirement[]): SecurityRequirementObject[] {
  return requirements.map((r) => Object.fromEntries(Object.entries(r).map(([name, scopes]) => [name, [...scopes]])));
}
