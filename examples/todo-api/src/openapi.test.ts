import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultsNotApplied, redoclyLint, validateOpenAPI } from 'users-api/src/openapi.js';
import { describe, expect, it } from 'vitest';
import { buildApi } from './todos.js';

describe('the todo API document', () => {
  it('passes the OpenAPI 3.1 schema, @readme/openapi-parser with every rule strict, and `redocly lint` (recommended) without errors', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'todo-openapi-')), 'openapi.yaml');
    writeFileSync(file, buildApi().openAPISpec().marshalYAML());
    expect(await validateOpenAPI(file)).toEqual([]);
    const report = await redoclyLint(file);
    expect(report.problems.filter((p) => p.startsWith('error'))).toEqual([]);
    expect(report.errors).toBe(0);
  });

  it('documents no default the server does not apply (a PATCH leaves an absent field as it is)', () => {
    expect(defaultsNotApplied(buildApi())).toEqual([]);
  });

  it('documents the wire names, defaults, the ETag header, the cookie and the error envelope', () => {
    const doc = JSON.parse(buildApi().openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };
    const list = doc.paths['/todos']?.get;
    expect(list.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual(['query:done', 'query:tag', 'query:limit', 'header:X-Tenant-ID', 'cookie:session']);
    expect(list.parameters.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({ type: 'integer', maximum: 100, default: 20 });
    expect(Object.keys(doc.paths['/todos/{id}']?.get.responses['200'].headers)).toEqual(['ETag']);
    expect(Object.keys(doc.paths['/sessions']?.post.responses['204'].headers)).toEqual(['Set-Cookie']);
    expect(doc.paths['/todos/{id}']?.get.responses['404'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
    expect(doc.paths['/todos']?.get.responses['400'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Todo', 'TodoInput', 'TodoPatch', 'ProblemDetails', 'ValidationIssue', 'PreconditionFailed']));
    // Served under /api/v1, said once in servers; the PATCH documents If-Match and its typed 412.
    expect((doc as unknown as { servers: { url: string }[] }).servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.paths['/todos/{id}']?.patch.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'X-Tenant-ID', 'session', 'If-Match', 'If-Unmodified-Since', 'If-None-Match']);
    expect(doc.paths['/todos/{id}']?.patch.responses['412'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PreconditionFailed' });
  });
});
