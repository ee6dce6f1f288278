/**
 * Keeps the users service running for a person to try: `pnpm --filter users-api start`
 * (PORT and HOST change the address). Ctrl-C stops it after in-flight requests finish.
 */
import { randomBytes } from 'node:crypto';
import { signToken } from './auth.js';
import { startServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8080';
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
// TOKEN_SECRET signs and verifies bearer tokens; without it, a random one for this run.
const secret = process.env.TOKEN_SECRET ?? randomBytes(32).toString('hex');
const { address, done } = await startServer(`${host}:${port}`, stop.signal, secret);
const base = `http://${address.host}:${address.port}`;
const token = signToken({ sub: 'curl-admin', exp: Math.floor(Date.now() / 1000) + 3600 }, secret);
console.log(`users-api listening on ${base}`);
console.log(
  `try:\n  curl -i -X POST ${base}/users -H 'authorization: Bearer ${token}' -H 'content-type: application/json' -d '{"name":"Ada","email":"ada@example.com"}'\n  curl -i ${base}/users -H 'x-request-id: curl-0001'`,
);
await done;
