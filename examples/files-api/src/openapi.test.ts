import { readFileSync } from 'node:fs';
import { redoclyLint } from 'users-api/src/openapi.js';
import { describe, expect, it } from 'vitest';
import { openapiPath, renderOpenAPI, validateOpenAPI } from './openapi.js';

describe('openapi.yaml', () => {
  it('is what the code generates (run `pnpm demo` to refresh it)', () => {
    expect(readFileSync(openapiPath, 'utf8')).toBe(renderOpenAPI());
  });

  it('validates against the official OpenAPI 3.1 schema and passes @readme/openapi-parser with every rule strict', async () => {
    expect(await validateOpenAPI(openapiPath)).toEqual([]);
  });

  it('passes `redocly lint` with the recommended ruleset: no errors', async () => {
    const report = await redoclyLint(openapiPath);
    expect(report.problems.filter((p) => p.startsWith('error'))).toEqual([]);
    expect(report.errors).toBe(0);
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
