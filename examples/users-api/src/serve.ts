/**
 * Keeps the users service running for a person to try: `pnpm --filter users-api start`
 * (PORT and HOST change the address). Ctrl-C stops it after in-flight requests finish.
 */
import { startServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8080';
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const { address, done } = await startServer(`${host}:${port}`, stop.signal);
const base = `http://${address.host}:${address.port}`;
console.log(`users-api listening on ${base}`);
console.log(`try:\n  curl -i -X POST ${base}/users -H 'content-type: application/json' -d '{"name":"Ada","email":"ada@example.com"}'\n  curl -i ${base}/users -H 'x-request-id: curl-0001'`);
await done;
