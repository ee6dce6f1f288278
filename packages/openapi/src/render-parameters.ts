import type { Codec, JsonSchema, SchemaGenerator } from '@lib/codec';
import type { ParameterDescriptor, RouteDescriptor } from './descriptor.js';
import type { ParameterObject } from './model.js';
import { omitUndefined } from './omit-undefined.js';
import { templateVars } from './path-template.js';
import { routeError } from './render-error.js';

/** Request headers OpenAPI ignores as parameters (OpenAPI 3.1 §4.8.12.1). */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The `parameters` of a route's operation.
 * Placeholders of the path template without a declared path parameter come first, as required
 * `{ type: 'string' }` path parameters (OpenAPI requires every placeholder to be declared);
 * then the declared parameters in declaration order. Schemas come from
 * `gen.parameterSchema(codec)`, so `intString()` reads `type: integer`; no codec means
 * `{ type: 'string' }`. The parameter's `description` is its own, else the one its codec's schema
 * carries, which then leaves the schema (see `describedValue`). Path parameters are always
 * `required: true`; `required` is omitted when false. `style` and `explode` are written as the
 * descriptor gives them (it gives them where they differ from their defaults). Header names are compared case-insensitively.
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
  const { description, schema } = describedValue(p.description, p.codec, gen);
  return omitUndefined<ParameterObject>({
    name: p.name,
    in: p.in,
    description,
    required: p.in === 'path' || p.required ? true : undefined,
    deprecated: p.deprecated === true ? true : undefined,
    style: p.style,
    explode: p.explode,
    schema,
  });
}

/**
 * The description and schema of a parameter or header value (OpenAPI 3.1 §4.8.12.2, §4.8.21):
 * `gen.parameterSchema(codec)` (`{ type: 'string' }` without a codec), and as `description` the
 * given one, else the description the codec's schema carries (code generators document a
 * parameter by its own `description`, not its schema's). The schema keeps its description only
 * when it says something else: text that moved up, or that repeats the given one, is removed
 * from an inline schema. A `$ref`'s definition is left as it is.
 */
export function describedValue(
  description: string | undefined,
  codec: Codec<unknown> | undefined,
  gen: SchemaGenerator,
): { readonly description: string | undefined; readonly schema: JsonSchema } {
  if (codec === undefined) return { description, schema: { type: 'string' } };
  const schema = gen.parameterSchema(codec);
  const own = schemaDescription(schema, gen);
  const chosen = description ?? own;
  if (schema.$ref === undefined && typeof schema.description === 'string' && schema.description === chosen) {
    const { description: _moved, ...rest } = schema;
    return { description: chosen, schema: rest };
  }
  return { description: chosen, schema };
}

/** The `description` of a schema, or of the definition its `$ref` names. */
function schemaDescription(schema: JsonSchema, gen: SchemaGenerator): string | undefined {
  let s: JsonSchema | undefined = schema;
  if (s.$ref !== undefined && s.description === undefined && s.$ref.startsWith(gen.refPrefix)) {
    s = gen.definitions[decodeURIComponent(s.$ref.slice(gen.refPrefix.length))];
  }
  return typeof s?.description === 'string' && s.description !== '' ? s.description : undefined;
}
