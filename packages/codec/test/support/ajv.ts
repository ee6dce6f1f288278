import type { JsonSchema } from '../../src/index.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The oracle: Ajv in JSON Schema 2020-12 mode with ajv-formats ("full" formats).
 * - `strict: true`: an unknown keyword or format is an error, so schemas must be standard.
 * - `ownProperties: true`: JSON objects have no prototype; without it Ajv's `required`
 *   counts an inherited `constructor` as present, which no JSON document can mean.
 * - `discriminator` is an OpenAPI annotation; Ajv's own implementation of it rejects
 *   `mapping`, so it is declared as a plain annotation keyword.
 */
export function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictTypes: true, ownProperties: true, allErrors: false, logger: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
}

const shared = makeAjv();

/** A validator of `schema`, compiled by the shared oracle instance. */
export function compile(schema: JsonSchema): (value: unknown) => boolean {
  const v = shared.compile(schema);
  return (value) => v(value) === true;
}

/**
 * Turns a schema rendered for OpenAPI (`$ref`s to `#/components/schemas/…` plus the generator's
 * definitions) into one standalone schema, for the oracle.
 */
export function standalone(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      const value = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : rewrite(v);
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const root = rewrite(schema) as JsonSchema;
  if (Object.keys(definitions).length === 0) return root;
  return { ...root, $defs: rewrite(definitions) as Record<string, JsonSchema> };
}
