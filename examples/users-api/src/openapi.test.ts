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

  it('describes every route, parameter and declared error', () => {
    const doc = renderOpenAPI();
    for (const op of ['createUser', 'getUser', 'listUsers', 'deleteUser', 'findUserByEmail', 'createSession', 'getMe', 'userEvents']) expect(doc).toContain(`operationId: ${op}`);
    for (const p of ['name: limit', 'name: offset', 'name: X-Request-ID', 'name: id']) expect(doc).toContain(p);
    for (const s of ['User:', 'NewUser:', 'UserPage:', 'UserNotFound:', 'EmailTaken:', 'ErrorEnvelope:', 'UserEvent:']) expect(doc).toContain(`    ${s}`);
    for (const s of ['bearerAuth:', 'sessionCookie:']) expect(doc).toContain(`    ${s}`);
    expect(doc).toMatch(/"409":\n {10}description: The e-mail address is taken\./);
  });
});
