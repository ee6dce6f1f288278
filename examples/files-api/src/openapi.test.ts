import { readFileSync } from 'node:fs';
import { defaultsNotApplied, redoclyLint } from 'users-api/src/openapi.js';
import { buildApi } from './server.js';
import { describe, expect, it } from 'vitest';
import { openapiPath, renderOpenAPI, validateOpenAPI } from './openapi.js';

describe('openapi.yaml', () => {
  it('is what the code generates (run `pnpm demo` to refresh it)', () => {
    expect(readFileSync(openapiPath, 'utf8')).toBe(renderOpenAPI());
  });

  it('states the 5 MiB avatar limit, written once in the codec, on both uploads\' 413', () => {
    const doc = JSON.parse(buildApi().openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string; 'x-max-body-bytes'?: number }> }>> };
    const raw = doc.paths['/avatars/{userId}']?.put?.responses['413'];
    expect(raw?.['x-max-body-bytes']).toBe(5 * 1024 * 1024);
    expect(raw?.description).toContain('at most 5242880 bytes (5 MiB)');
    const form = doc.paths['/avatars/{userId}/form']?.post?.responses['413'];
    // The parts' own limits and their headers: the 5 MiB image, a 64 KiB caption, 1 KiB per part.
    expect(form?.['x-max-body-bytes']).toBe(5 * 1024 * 1024 + 64 * 1024 + 3 * 1024);
  });

  it('documents no default the server does not apply', () => {
    expect(defaultsNotApplied(buildApi())).toEqual([]);
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
