/**
 * Keeps the files service running for a person to try: `pnpm --filter files-api start`
 * (PORT and HOST change the address). Ctrl-C stops it after in-flight requests finish.
 */
import { startServer } from './server.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8081';
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
const { address, done } = await startServer(`${host}:${port}`, stop.signal);
const base = `http://${address.host}:${address.port}`;
console.log(`files-api listening on ${base}`);
console.log(
  [
    'try:',
    `  curl -i ${base}/reports/q3-2026 -H 'accept: application/yaml'`,
    `  curl -i ${base}/reports/q3-2026 -H 'accept: text/csv'`,
    `  curl -s '${base}/export?rows=5'`,
    `  curl -i -X PUT ${base}/avatars/ada -H 'content-type: image/png' --data-binary @avatar.png`,
    `  curl -i -X POST ${base}/avatars/ada/form -F avatar=@avatar.png -F caption='At the beach'`,
  ].join('\n'),
);
await done;
