import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildApi } from './server.js';

/** Where the committed document lives. */
export const openapiPath: string = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** The OpenAPI 3.1 document of the files API, as YAML. */
export function renderOpenAPI(): string {
  return buildApi().openAPISpec().marshalYAML();
}

/**
 * Validates an OpenAPI document file against the official OpenAPI 3.1 JSON Schema and checks
 * that every `$ref` resolves. Returns the errors (empty when valid).
 */
export async function validateOpenAPI(file: string): Promise<string[]> {
  const validator = new Validator();
  const res = await validator.validate(file);
  if (!res.valid) return (res.errors as unknown as { instancePath?: string; message?: string }[]).map((e) => `${e.instancePath ?? ''} ${e.message ?? JSON.stringify(e)}`);
  if (validator.version !== '3.1') return [`expected an OpenAPI 3.1 document, got ${String(validator.version)}`];
  try {
    validator.resolveRefs();
  } catch (err) {
    return [`unresolvable $ref: ${err instanceof Error ? err.message : String(err)}`];
  }
  return [];
}
