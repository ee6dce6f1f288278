/**
 * The smoke app: one declaration served by the router adapter's `router.fetch`, with the
 * document and its docs page, and no `node:` module — what runs on every runtime. Users, a
 * YAML variant by `Accept`, a typed 404, a streamed NDJSON export and an event stream.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import { serveDocs } from '@lib/openapi-ui';
import * as rest from '@lib/rest';
import * as hono from '@lib/router-adapter';
import * as validate from '@lib/validate';

export const user = codec.object({ id: codec.string(), name: codec.string().refine(validate.minLength(1)) });
class Missing extends Error {}
export const getUser = rest.route({
  method: 'GET',
  path: '/users/{id}',
  pathParams: { id: codec.string() },
  response: user,
  formats: [format.json(user), format.yaml(user)],
  errors: [rest.errorPattern(Missing, 404, codec.object({ error: codec.string() }), () => ({ error: 'no such user' }))],
});
export const createUser = rest.route({ method: 'POST', path: '/users', body: user.omit('id'), response: user });
const row = codec.object({ n: codec.int() });
const rows = codec.stream(row);
const ndjson = format.newStreamed(
  rows,
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(r)}\n`);
  },
  async function* (body) {
    for await (const line of format.lines(body)) if (line !== '') yield JSON.parse(line) as { n: number };
  },
  'application/x-ndjson',
);
export const exportRows = rest.route({ method: 'GET', path: '/rows', response: rows, formats: [ndjson] });
export const ticks = rest.newSSERoute('GET', '/ticks', codec.empty<object>(), row);
/** A raw upload of at most 1 MiB: what a refused upload and the next one go through. */
const file = codec.bytes().refine(validate.maxBytes(1024 * 1024));
export const upload = rest.route({ method: 'PUT', path: '/files', body: file, requestFormats: [format.binary(file)], response: codec.object({ bytes: codec.int() }) });

/** The app's `fetch`: a `Request` in, a `Response` out. */
export async function createApp(): Promise<{ fetch(request: Request): Promise<Response> }> {
  const api = rest.newServer({ title: 'Smoke', version: '1.0.0' });
  getUser
    .withHandler((_ctx, r) => {
      if (r.id !== 'ada') throw new Missing();
      return { id: 'ada', name: 'Ada' };
    })
    .register(api);
  createUser.withHandler((_ctx, r) => ({ id: 'new', name: r.name })).register(api);
  exportRows
    .withHandler(async function* () {
      for (let n = 0; n < 1000; n++) yield { n };
    })
    .register(api);
  ticks
    .withHandler(async function* () {
      for (let n = 0; n < 3; n++) yield { data: { n }, id: String(n) };
    })
    .register(api);
  upload.withHandler((_ctx, r) => ({ bytes: r.body.byteLength })).register(api);
  serveDocs(api);
  const transport = hono.newServerTransport();
  api.attach(transport);
  await api.serve({});
  return { fetch: (request) => Promise.resolve(transport.router.fetch(request)) };
}
