import { fileURLToPath } from 'node:url';
import { validate as readmeValidate } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildApi } from './server.js';

/** Where the committed document lives. */
export const openapiPath: string = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** The OpenAPI 3.1 document of the users API, as YAML. */
export function renderOpenAPI(): string {
  return buildApi('document-only').openAPISpec().marshalYAML();
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
  return readmeErrors(file);
}

/** Every rule of `@readme/openapi-parser`, as an error: what the schema alone cannot see. */
const STRICT = {
  'array-without-items': 'error',
  'duplicate-non-request-body-parameters': 'error',
  'duplicate-operation-id': 'error',
  'invalid-security-scheme-properties': 'error',
  'non-optional-path-parameters': 'error',
  'path-parameters-not-in-parameters': 'error',
  'path-parameters-not-in-path': 'error',
} as const;

/**
 * The errors and warnings `@readme/openapi-parser` finds with every rule strict: duplicate
 * operation ids, path parameters missing from the template or from the parameters, and more.
 */
export async function readmeErrors(file: string): Promise<string[]> {
  const res = await readmeValidate(file, { validate: { rules: { openapi: STRICT } } });
  return [...(res.valid ? [] : res.errors.map((e) => e.message)), ...res.warnings.map((w) => `warning: ${w.message}`)];
}
