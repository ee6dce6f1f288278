// checkServer against a small server with three planted defects, and against the same server
// without them: each defect is found, with a shrunk request, and the clean server passes.
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { assertServer, checkServer, formatReport } from './check-server.js';
import { canRefuse, requests, type TestRequest } from './requests.js';

const item = codec.object({ id: codec.string().refine(validate.uuid), name: codec.string().refine(validate.minLength(1), validate.maxLength(5)), qty: codec.int().refine(validate.min(0)) });
const newItem = item.omit('id');
class NoItem extends Error {}
const notFound = rest.errorPattern(NoItem, 404, codec.object({ error: codec.string() }), (e) => ({ error: e.message }));
const createItem = rest.route({ method: 'POST', path: '/items', body: newItem, response: item, meta: { operationId: 'createItem' } });
const getItem = rest.route({ method: 'GET', path: '/items/{id}', pathParams: { id: codec.string().refine(validate.uuid) }, response: item, errors: [notFound], meta: { operationId: 'getItem' } });
const listItems = rest.route({
  method: 'GET',
  path: '/items',
  query: { limit: codec.defaulted(codec.intString().refine(validate.min(1), validate.max(50)), 10) },
  response: codec.array(item),
  meta: { operationId: 'listItems' },
});

interface Defects {
  /** createItem throws for a quantity above 1000. */
  readonly throws?: boolean;
  /** getItem answers a name longer than its declared 5 characters (validateResponses off). */
  readonly longName?: boolean;
  /** The errorHandler answers 422 where the pipeline would answer 400 (undeclared). */
  readonly undeclaredStatus?: boolean;
  /** The server takes bodies up to 4 MiB, where the document (of a builder without the defect) states 1 MiB. */
  readonly largeBodies?: boolean;
}

function buildApi(defects: Defects): rest.Server {
  const items = new Map<string, codec.Infer<typeof item>>();
  const api = rest.newServer(
    { title: 'items', version: '1.0.0' },
    rest.withDefaultOptions({
      validateResponses: false,
      ...(defects.largeBodies === true && { maxBodyBytes: 4 * 1024 * 1024 }),
      ...(defects.undeclaredStatus === true && { errorHandler: (_ctx: rest.Context, err: unknown, status: number) => ({ status: status === 400 ? 422 : status, body: { error: err instanceof Error ? err.message : 'error' } }) }),
    }),
  );
  createItem
    .withHandler((_ctx, req) => {
      if (defects.throws === true && req.qty > 1000) throw new Error('quantity overflow');
      const created = { id: crypto.randomUUID(), ...req };
      items.set(created.id, created);
      return created;
    })
    .register(api);
  getItem
    .withHandler((_ctx, req) => {
      const found = items.get(req.id.toLowerCase());
      if (found === undefined) throw new NoItem(`no item ${req.id}`);
      return defects.longName === true ? { ...found, name: `${found.name}-longer` } : found;
    })
    .register(api);
  listItems.withHandler((_ctx, req) => [...items.values()].slice(0, req.limit)).register(api);
  return api;
}

describe('testing.requests', () => {
  it('generates requests the route accepts, and requests breaking one thing, labelled', () => {
    for (const r of fc.sample(requests(listItems), { numRuns: 50, seed: 3 })) {
      expect(r.method).toBe('GET');
      expect(r.target).toMatch(/^\/items(\?limit=([1-9]|[1-4]\d|50))?$/);
      expect(r.breaks).toBeUndefined();
    }
    const refused = fc.sample(requests(createItem, { valid: false }), { numRuns: 100, seed: 3 });
    for (const r of refused) {
      expect(r.breaks?.at).toMatch(/^body /);
      expect(() => newItem.decode(JSON.parse(r.body as string))).toThrow(codec.DecodeError);
    }
    expect(new Set(refused.map((r) => r.breaks?.constraint))).toEqual(new Set(['type', 'required', 'minLength', 'maxLength', 'min']));
    expect(canRefuse(listItems)).toBe(true);
  });

  it('fills path variables percent-encoded, never empty or a dot segment', () => {
    const anyId = rest.route({ method: 'GET', path: '/things/{id}', pathParams: { id: codec.string() }, response: codec.empty() });
    for (const r of fc.sample(requests(anyId), { numRuns: 300, seed: 5 })) {
      const segment = r.target.slice('/things/'.length);
      expect(segment).not.toMatch(/^(\.|\.\.)?$/);
      expect(segment).not.toContain('/');
      expect(encodeURIComponent(decodeURIComponent(segment))).toBe(segment);
    }
    // A plain string parameter refuses no text: nothing to break.
    expect(canRefuse(anyId)).toBe(false);
  });
});

describe('testing.requests: a route with nothing to break', () => {
  it('refuses to generate invalid requests with a TypeError, at once, instead of generating forever', () => {
    const ping = rest.route({ method: 'GET', path: '/ping', response: codec.string() });
    expect(canRefuse(ping)).toBe(false);
    expect(() => requests(ping, { valid: false })).toThrow(TypeError);
    expect(() => requests(ping, { valid: false })).toThrow(/GET \/ping: a request has nothing to break/);
    expect(fc.sample(requests(ping), { numRuns: 3, seed: 1 }).map((r) => r.target)).toEqual(['/ping', '/ping', '/ping']);
  });
});

describe('testing.checkServer', () => {
  it('finds nothing on the server without defects', async () => {
    const report = await served(buildApi({}), (baseURL) => checkServer({ api: buildApi({}), baseURL, runs: 40, seed: 7 }));
    expect(formatReport(report)).toContain('in 0 places');
    expect(report.requests).toBeGreaterThan(150);
  }, 60_000);

  it('finds a handler that throws for some input, with a minimal request', async () => {
    const api = buildApi({ throws: true });
    const report = await served(api, (baseURL) => checkServer({ api, baseURL, runs: 100, seed: 7 }));
    const failure = report.failures.find((f) => f.operationId === 'createItem');
    expect(failure?.problem).toBe('answered 500');
    // Shrunk: the smallest quantity that throws, the shortest name.
    expect(JSON.parse((failure?.request as TestRequest).body as string)).toEqual({ name: expect.any(String), qty: 1001 });
    expect((JSON.parse((failure?.request as TestRequest).body as string) as { name: string }).name).toHaveLength(1);
    expect(report.failures).toHaveLength(1);
  }, 60_000);

  it('finds a body that breaks its declared constraint', async () => {
    const api = buildApi({ longName: true });
    const report = await served(api, (baseURL) => checkServer({ api, baseURL, runs: 60, seed: 7 }));
    const failure = report.failures.find((f) => f.operationId === 'getItem');
    expect(failure?.problem).toMatch(/^the 200 body does not decode with the declared codec: .*name/);
    expect(failure?.request.target).toMatch(/^\/items\/[0-9a-f-]{36}$/);
  }, 60_000);

  it('reports a request the server never answers, gives up on it at the timeout, and leaves nothing open', async () => {
    const slow = rest.route({ method: 'GET', path: '/slow', response: item, meta: { operationId: 'slow' } });
    const api = rest.newServer({ title: 'slow', version: '1.0.0' });
    slow.withHandler(() => new Promise<never>(() => undefined)).register(api);
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const done = api.serve({ signal: stop.signal, shutdownTimeout: 100 });
    const { host, port } = await transport.listening();
    const started = performance.now();
    const report = await checkServer({ api, baseURL: `http://${host}:${port}`, runs: 5, seed: 7, timeout: 200 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]?.problem).toMatch(/^no response: /);
    expect(report.failures[0]?.response).toBeUndefined();
    // Two timeouts' time, not six: the five requests time out together, and the replay ends at
    // its first failure (nothing to shrink).
    expect(performance.now() - started).toBeLessThan(2000);
    stop.abort();
    await done;
    // The server's shutdown closed the abandoned connection: nothing holds the port.
    await expect(fetch(`http://${host}:${port}/slow`)).rejects.toThrow();
  }, 30_000);

  it('finds an undeclared status from a custom errorHandler, and assertServer reports it', async () => {
    const api = buildApi({ undeclaredStatus: true });
    const failed = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 30, seed: 7 }).then(() => undefined, (err: unknown) => err));
    expect(failed).toBeInstanceOf(Error);
    const message = (failed as Error).message;
    expect(message).toMatch(/answered 422, a status the route does not declare \(it declares [^)]*400/);
    expect(message).toContain('invalid on purpose');
    expect(message).toContain('seed 7');
  }, 60_000);
});

describe('checkServer: the statuses HTTP itself gives', () => {
  it('provokes the 406, 415 and 413 a route documents, and fails a server whose answer is another', async () => {
    const documented = buildApi({});
    const clean = await served(buildApi({}), (baseURL) => checkServer({ api: documented, baseURL, runs: 5, seed: 1 }));
    expect(clean.failures).toEqual([]);
    const create = clean.reach.find((r) => r.operationId === 'createItem');
    expect(create?.statuses).toMatchObject({ '406': 1, '413': 1, '415': 1 });
    expect(create?.unseen.filter((s) => s === 406 || s === 413 || s === 415)).toEqual([]);
    // The document states 1 MiB (1 048 576 bytes); this server takes 4 MiB.
    const lax = await served(buildApi({ largeBodies: true }), (baseURL) => checkServer({ api: documented, baseURL, runs: 5, seed: 1 }));
    expect(lax.failures.map((f) => [f.operationId, f.problem])).toEqual([
      ['createItem', 'answered 201 to a body of 1048577 bytes, over the documented limit of 1048576, where the route documents 413'],
    ]);
    expect(formatReport(lax)).toContain('(1048577 bytes)');
  }, 60_000);
});
