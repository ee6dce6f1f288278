import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultsNotApplied, openapiPath, readmeErrors, redoclyLint, renderOpenAPI, validateOpenAPI } from './openapi.js';
import { buildApi } from './server.js';

describe('openapi.yaml', () => {
  it('is what the code generates (run `pnpm demo` to refresh it)', () => {
    expect(readFileSync(openapiPath, 'utf8')).toBe(renderOpenAPI());
  });

  it('documents no default the server does not apply', () => {
    expect(defaultsNotApplied(buildApi('document-only'))).toEqual([]);
  });

  it('validates against the official OpenAPI 3.1 schema and passes @readme/openapi-parser with every rule strict', async () => {
    expect(await validateOpenAPI(openapiPath)).toEqual([]);
  });

  it('passes `redocly lint` with the recommended ruleset: no errors', async () => {
    const report = await redoclyLint(openapiPath);
    expect(report.problems.filter((p) => p.startsWith('error'))).toEqual([]);
    expect(report.errors).toBe(0);
  });

  it('is refused by Redocly when an operation has no security stated', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const broken = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'insecure.yaml');
    writeFileSync(broken, readFileSync(openapiPath, 'utf8').replace(/\n {6}security: \[\]\n/, '\n'));
    expect((await redoclyLint(broken)).problems.join('\n')).toMatch(/^error security-defined/m);
  });

  it('is refused by @readme/openapi-parser when broken the way the schema cannot see: a duplicate operationId, an undeclared path parameter', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const doc = readFileSync(openapiPath, 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const dup = join(dir, 'dup.yaml');
    writeFileSync(dup, doc.replace('operationId: getUser', 'operationId: createUser'));
    expect((await readmeErrors(dup)).join()).toMatch(/createUser/);
    const undeclared = join(dir, 'undeclared.yaml');
    writeFileSync(undeclared, doc.replace('  /me:', '  /me/{slot}:'));
    expect((await readmeErrors(undeclared)).length).toBeGreaterThan(0);
  });

  it('describes every route, parameter and declared error', () => {
    const doc = renderOpenAPI();
    for (const op of ['createUser', 'getUser', 'listUsers', 'deleteUser', 'findUserByEmail', 'createSession', 'getMe', 'userEvents']) expect(doc).toContain(`operationId: ${op}`);
    for (const p of ['name: limit', 'name: offset', 'name: X-Request-ID', 'name: id']) expect(doc).toContain(p);
    for (const s of ['User:', 'NewUser:', 'UserPage:', 'UserNotFound:', 'EmailTaken:', 'ErrorEnvelope:', 'UserEvent:']) expect(doc).toContain(`    ${s}`);
    for (const s of ['bearerAuth:', 'sessionCookie:']) expect(doc).toContain(`    ${s}`);
    expect(doc).toMatch(/"409":\n {10}description: The e-mail address is taken\./);
  });
});
