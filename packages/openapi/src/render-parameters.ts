import type { SchemaGenerator } from '@lib/codec';
import type { ParameterDescriptor, RouteDescriptor } from './descriptor.js';
import type { ParameterObject } from './model.js';
import { omitUndefined } from './omit-undefined.js';
import { templateVars } from './path-template.js';
import { routeError } from './render-error.js';

/** Request headers OpenAPI ignores as parameters (OpenAPI 3.1 §4.8.12.1; SPEC.md "Plain parameters"). */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The `parameters` of a route's operation (SPEC.md "Plain parameters", "Merge parameters").
 * Placeholders of the path template without a declared path parameter come first, as required
 * `{ type: 'string' }` path parameters (OpenAPI requires every placeholder to be declared);
 * then the declared parameters in declaration order. Schemas come from
 * `gen.parameterSchema(codec)`, so `intString()` reads `type: integer`; no codec means
 * `{ type: 'string' }`. Path parameters are always `required: true`; `required` is omitted when
 * false. Header names are compared case-insensitively.
 * @throws {OpenAPIRenderError} `unknownPathParam`, `duplicateParameter`, `reservedHeader`.
 */
export function renderParameters(route: RouteDescriptor, gen: SchemaGenerator): ParameterObject[] {
  const vars = templateVars(route.path);
  const seen = new Set<string>();
  for (const p of route.parameters) {
    if (p.in === 'path' && !vars.includes(p.name)) {
      throw routeError(route, 'unknownPathParam', `path parameter "${p.name}" is not a placeholder of the path template`, p.name);
    }
    if (p.in === 'header' && RESERVED_HEADERS.has(p.name.toLowerCase())) {
      throw routeError(
        route,
        'reservedHeader',
        `header parameter "${p.name}" cannot be declared: request bodies and security schemes describe it`,
        p.name,
      );
    }
    const key = `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    if (seen.has(key)) throw routeError(route, 'duplicateParameter', `${p.in} parameter "${p.name}" is declared twice`, p.name);
    seen.add(key);
  }
  const implicit = vars
    .filter((v) => !seen.has(`path:${v}`))
    .map((name): ParameterObject => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...implicit, ...route.parameters.map((p) => renderParameter(p, gen))];
}

function renderParameter(p: ParameterDescriptor, gen: SchemaGenerator): ParameterObject {
  return omitUndefined<ParameterObject>({
    name: p.name,
    in: p.in,
    description: p.description,
    required: p.in === 'path' || p.required ? true : undefined,
    deprecated: p.deprecated === true ? true : undefined,
    schema: p.codec === undefined ? { type: 'string' } : gen.parameterSchema(p.codec),
  });
}
