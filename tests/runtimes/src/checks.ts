/**
 * What the smoke test checks of a served app, over real HTTP from Node: statuses, negotiation,
 * typed errors, a streamed body, an event stream, the typed client, and the docs page's files.
 */
import * as rest from '@lib/rest';
import * as hono from '@lib/router-adapter';
import { createUser, exportRows, getUser, ticks } from './app.js';

export async function runChecks(base: string): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  const status = async (path: string, init?: RequestInit): Promise<[number, string]> => {
    const res = await fetch(`${base}${path}`, init);
    return [res.status, await res.text()];
  };
  results.get = await status('/users/ada');
  results.yaml = await status('/users/ada', { headers: { accept: 'application/yaml' } });
  results.missing = await status('/users/bob');
  results.notFound = await status('/nothing');
  results.methodNotAllowed = (await status('/users/ada', { method: 'DELETE' }))[0];
  results.notAcceptable = (await status('/users/ada', { headers: { accept: 'text/csv' } }))[0];
  results.unsupported = (await status('/users', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))[0];
  results.invalid = await status('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' });
  const client = rest.newClient();
  client.attach(hono.newClientTransport({ baseURL: base }));
  results.created = await client.call(createUser, { name: 'Grace' });
  const typed404 = await client.safeCall(getUser, { id: 'bob' });
  results.typed404 = typed404.ok ? 'ok' : [typed404.status, typed404.error];
  let count = 0;
  for await (const r of await client.call(exportRows, {})) count += r.n >= 0 ? 1 : 0;
  results.streamed = count;
  const events: string[] = [];
  for await (const ev of await client.call(ticks, {})) events.push(`${ev.id ?? ''}:${ev.data.n}`);
  results.events = events;
  // A client refused for an oversized upload (413) that then sends a valid one: both answered, 20 times.
  const put = (n: number): Promise<number | string> =>
    fetch(`${base}/files`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(n).fill(1) }).then(
      async (res) => (await res.arrayBuffer(), res.status),
      (err: unknown) => String((err as Error).cause ?? err),
    );
  const afterRefusal: (number | string)[] = [];
  for (let i = 0; i < 20; i++) afterRefusal.push(await put(4 * 1024 * 1024), await put(1024 * 1024));
  results.afterRefusal = [...new Set(afterRefusal.map(String))].sort();
  const page = await fetch(`${base}/docs`);
  const pageText = await page.text();
  const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
  const css = await fetch(`${base}/docs/swagger-ui.css`);
  results.docs = {
    page: [page.status, pageText.includes('<div id="swagger-ui">')],
    bundle: [bundle.status, bundle.headers.get('content-type'), (await bundle.arrayBuffer()).byteLength > 1_000_000],
    css: [css.status, (await css.text()).includes('.swagger-ui')],
    document: (await status('/openapi.json'))[0],
  };
  return results;
}

/** What every runtime must answer. */
export const EXPECTED: Record<string, unknown> = {
  get: [200, '{"id":"ada","name":"Ada"}'],
  yaml: [200, 'id: ada\nname: Ada\n'],
  missing: [404, '{"error":"no such user"}'],
  notFound: [404, '{"error":"not found"}'],
  methodNotAllowed: 405,
  notAcceptable: 406,
  unsupported: 415,
  invalid: [400, '{"error":"invalid request body: name: must have at least 1 character"}'],
  created: { id: 'new', name: 'Grace' },
  typed404: [404, { error: 'no such user' }],
  streamed: 1000,
  events: ['0:0', '1:1', '2:2'],
  afterRefusal: ['200', '413'],
  docs: { page: [200, true], bundle: [200, 'text/javascript; charset=utf-8', true], css: [200, true], document: 200 },
};
