import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from './auth.js';
import { startServer } from './server.js';

const stop = new AbortController();
const secret = randomBytes(32).toString('hex');
let base = '';
let done: Promise<void> = Promise.resolve();
beforeAll(async () => {
  const started = await startServer('127.0.0.1:0', stop.signal, secret);
  base = `http://${started.address.host}:${started.address.port}`;
  done = started.done;
});
afterAll(async () => {
  stop.abort();
  await done;
});

const bearer = (sub: string): Record<string, string> => ({ authorization: `Bearer ${signToken({ sub, exp: Math.floor(Date.now() / 1000) + 600 }, secret)}` });

describe('users-api after a user is deleted', () => {
  it("revokes the user's sessions: GET /me answers the declared 401, never a 500", async () => {
    const created = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer('admin') }, body: JSON.stringify({ name: 'Temp', email: 'temp@example.com' }) });
    const user = (await created.json()) as { id: string };
    const signIn = await fetch(`${base}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'temp@example.com' }) });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect((await fetch(`${base}/me`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${base}/users/${user.id}`, { method: 'DELETE', headers: bearer('admin') })).status).toBe(204);
    const me = await fetch(`${base}/me`, { headers: { cookie } });
    expect([me.status, await me.json()]).toEqual([401, { error: 'the session is missing or has expired' }]);
  });
});
