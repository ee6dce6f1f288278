/**
 * Keeps the bookstore running for a person to try: `pnpm --filter contract-first-api start`
 * (PORT, HOST and API_KEY change the address and the staff's key). Ctrl-C stops it.
 */
import { startServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8080';
const apiKey = process.env.API_KEY ?? 'staff-key';
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const { address, done } = await startServer(`${host}:${port}`, stop.signal, apiKey);
const base = `http://${address.host}:${address.port}`;
console.log(`bookstore listening on ${base}`);
console.log(`try:\n  curl -i -X POST ${base}/books -H 'authorization: Bearer ${apiKey}' -H 'content-type: application/json' -d '{"title":"Dune","author":"Frank Herbert","isbn":"9780441013593","publishedYear":1965}'\n  curl -i ${base}/books`);
await done;
