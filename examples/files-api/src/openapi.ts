import { fileURLToPath } from 'node:url';
import { buildApi } from './server.js';

/** Where the committed document lives. */
export const openapiPath: string = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** The OpenAPI 3.1 document of the files API, as YAML. */
export function renderOpenAPI(): string {
  return buildApi().openAPISpec().marshalYAML();
}

/** The judges of the users example: the official OpenAPI 3.1 schema, `$ref` resolution, `@readme/openapi-parser` strict. */
export { validateOpenAPI } from 'users-api/src/openapi.js';
