import type { JsonSchema } from '../../src/index.js';
/** A validator of a schema, by the shared oracle (Ajv 2020-12, strict, standard formats). */
export { compile } from '@lib/oracle';

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
