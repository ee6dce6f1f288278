/**
 * The server pipeline's own CPU per request, without I/O: the bench's users API (as
 * `src/http/servers.ts` declares it for @lib, `libUsersApi`), each route prepared as an adapter prepares it,
 * run against a canned request (headers in a map, the body already read). What is left of a
 * server's CPU per request in the HTTP benchmark is node:http's and the adapter's.
 *
 *   npx tsx src/profile/pipeline-canned.ts post      # or get, list; add --cpu-prof to profile
 */
import { prepareRoute, type PipelineRequest } from '@lib/rest/pipeline';
import { libUsersApi } from '../http/servers.js';
import { SEED_ID } from '../http/shared.js';

const api = libUsersApi();
const [post, get, list] = api.handles().map((h) => prepareRoute(h));

const body = new TextEncoder().encode(JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }));
const POST_HEADERS: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', 'content-length': String(body.length), host: 'bench' };
const GET_HEADERS: Record<string, string> = { accept: 'application/json', host: 'bench' };
/** A signal that never aborts, shared: adapters create theirs only when a handler reads it. */
const NEVER = new AbortController().signal;
function canned(method: string, headers: Record<string, string>, pathParams: Record<string, string>): PipelineRequest {
  return {
    method,
    pathParams,
    rawQuery: '',
    native: undefined,
    signal: NEVER,
    header: (name) => headers[name],
    readBody: () => Promise.resolve(body),
    bodyStream: () => {
      throw new Error('not streamed');
    },
  };
}
const cases = {
  post: { route: post, request: () => canned('POST', POST_HEADERS, {}), runs: 200_000 },
  get: { route: get, request: () => canned('GET', GET_HEADERS, { id: SEED_ID }), runs: 200_000 },
  list: { route: list, request: () => canned('GET', GET_HEADERS, {}), runs: 2_000 },
};
const which = (process.argv[2] ?? 'post') as keyof typeof cases;
const c = cases[which];
if (c === undefined || c.route === undefined) throw new Error(`unknown case ${String(which)}: ${Object.keys(cases).join(', ')}`);
const first = await c.route.run(c.request());
if (first.status >= 300) throw new Error(`${which}: answered ${first.status}`);
for (let i = 0; i < c.runs / 10; i++) await c.route.run(c.request());
for (let round = 1; round <= 5; round++) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < c.runs; i++) await c.route.run(c.request());
  const cpu = process.cpuUsage(c0);
  console.log(`${which} round ${round}: ${((cpu.user + cpu.system) / c.runs).toFixed(2)} µs CPU per request`);
}
