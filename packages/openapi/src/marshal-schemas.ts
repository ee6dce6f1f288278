import { Codec, SchemaGenerator, SchemaNameConflictError, type JsonSchema } from '@lib/codec';
import { SCHEMA_REF_PREFIX } from './render-document.js';
import { toJSONText, toYAMLText } from './serialize.js';

/** What {@link renderSchemas} accepts for each name: a ready JSON Schema or a codec to render. */
export type SchemaSource = JsonSchema | Codec<unknown>;

/**
 * Renders a mapping name → schema without a builder, as
 * `components.schemas` of a document would hold it. Codecs are rendered with one generator whose
 * `$ref`s point at `#/components/schemas/`: each codec is emitted under its given name (which
 * wins over its own `withName`), and the named or recursive codecs inside it are added to the
 * mapping as their own entries. JSON Schemas are taken as given (copied). The given names come
 * first, in the given order, then the added definitions sorted by name.
 * @throws {SchemaNameConflictError} (from `@lib/codec`) when two different schemas end up under
 * one name, e.g. a given JSON Schema and a named codec used inside another entry.
 */
export function renderSchemas(schemas: Readonly<Record<string, SchemaSource>>): Record<string, JsonSchema> {
  const gen = new SchemaGenerator({ refPrefix: SCHEMA_REF_PREFIX, refNamed: true });
  const given: Record<string, JsonSchema> = {};
  for (const [name, source] of Object.entries(schemas)) {
    if (isCodec(source)) gen.ref(name, source);
    else given[name] = structuredClone(source);
  }
  for (const [name, schema] of Object.entries(given)) {
    const generated = gen.definitions[name];
    if (generated !== undefined && JSON.stringify(generated) !== JSON.stringify(schema)) throw new SchemaNameConflictError(name);
  }
  const out: Record<string, JsonSchema> = {};
  for (const name of Object.keys(schemas)) out[name] = given[name] ?? gen.definitions[name] ?? {};
  for (const name of Object.keys(gen.definitions).sort()) if (!Object.hasOwn(out, name)) out[name] = gen.definitions[name] ?? {};
  return out;
}

/**
 * YAML of a mapping name → schema, rendered by {@link renderSchemas}. Same YAML style as
 * `Document.marshalYAML()`; ends with a newline.
 * @throws {SchemaNameConflictError} as {@link renderSchemas}.
 */
export function marshalYAML(schemas: Readonly<Record<string, SchemaSource>>): string {
  return toYAMLText(renderSchemas(schemas));
}

/**
 * JSON of a mapping name → schema, rendered by {@link renderSchemas}: 2-space indentation and a
 * trailing newline. The JSON counterpart of {@link marshalYAML}.
 * @throws {SchemaNameConflictError} as {@link renderSchemas}.
 */
export function marshalJSON(schemas: Readonly<Record<string, SchemaSource>>): string {
  return toJSONText(renderSchemas(schemas));
}

/** A codec, also when another copy of `@lib/codec` (ESM next to CJS) built it. */
function isCodec(value: SchemaSource): value is Codec<unknown> {
  return value instanceof Codec || (typeof value.toJsonSchema === 'function' && typeof value.kind === 'string');
}
