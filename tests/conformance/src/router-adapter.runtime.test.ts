import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The router adapter on a runtime other than Node: Bun (from the npm registry) serves the smoke
 * declaration of `runtime-smoke.ts` with `Bun.serve` and `router.fetch`.
 */
describe('router adapter on Bun', () => {
  it('serves one declaration with router.fetch: statuses, negotiation, errors, streams and events as on Node', () => {
    const bun = fileURLToPath(new URL('../node_modules/.bin/bun', import.meta.url));
    const script = fileURLToPath(new URL('./runtime-smoke.ts', import.meta.url));
    const run = spawnSync(bun, ['--conditions=lib-source', script], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    const r = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(r.runtime).toBe('bun');
    expect(r.direct).toEqual([200, { id: 'ada', name: 'Ada' }]);
    expect(r.get).toEqual([200, '{"id":"ada","name":"Ada"}']);
    expect(r.yaml).toEqual([200, 'id: ada\nname: Ada\n']);
    expect(r.missing).toEqual([404, '{"error":"no such user"}']);
    expect(r.notFound).toEqual([404, '{"error":"not found"}']);
    expect((r.methodNotAllowed as [number, string])[0]).toBe(405);
    expect(r.notAcceptable).toBe(406);
    expect(r.unsupported).toBe(415);
    expect(r.invalid).toEqual([400, '{"error":"invalid request body: name: must have at least 1 character"}']);
    expect(r.created).toEqual({ id: 'new', name: 'Grace' });
    expect(r.streamed).toBe(1000);
    expect(r.events).toEqual(['0:0', '1:1', '2:2']);
  }, 90_000);
});
