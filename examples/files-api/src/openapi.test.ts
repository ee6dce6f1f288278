import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openapiPath, renderOpenAPI, validateOpenAPI } from './openapi.js';

describe('openapi.yaml', () => {
  it('is what the code generates (run `pnpm demo` to refresh it)', () => {
    expect(readFileSync(openapiPath, 'utf8')).toBe(renderOpenAPI());
  });

  it('validates against the official OpenAPI 3.1 schema', async () => {
    expect(await validateOpenAPI(openapiPath)).toEqual([]);
  });

  it('lists every media type each route reads and writes', () => {
    const doc = renderOpenAPI();
    for (const op of ['putAvatar', 'postAvatarForm', 'getAvatar', 'getReport', 'exportRows']) expect(doc).toContain(`operationId: ${op}`);
    for (const t of ['image/png:', 'multipart/form-data:', 'application/json:', 'application/yaml:', 'application/toml:', 'application/cbor:', 'text/csv; charset=utf-8:', 'text/html; charset=utf-8:', 'application/x-ndjson:']) {
      expect(doc).toContain(t);
    }
    expect(doc).toContain('x-itemSchema:');
    expect(doc).toContain('contentMediaType: image/png');
  });
});
