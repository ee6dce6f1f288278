// checkServer beyond single answers: how far a run gets into each route (reach), credentials as
// a dimension (without, malformed, optional sign-in), state carried the way an API's own flows
// carry it, and requests in flight together. Every server is real, on 127.0.0.1 port 0; each
// defect is planted in a server that otherwise keeps its contract.
import * as codec from '@lib/codec';
import type { SecurityRequirement } from '@lib/openapi';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { assertServer, checkServer } from './check-server.js';
import type { ServerReport } from './report.js';
import { formatReport } from './report.js';

/** `checkServer` of `declared` against a server built from `serving` (the same builder unless given). */
async function check(declared: rest.Server, options: { serving?: rest.Server; runs?: number; credentials?: { headers?: Record<string, string> }; concurrency?: number } = {}): Promise<ServerReport> {
  return served(options.serving ?? declared, (baseURL) =>
    checkServer({ api: declared, baseURL, runs: options.runs ?? 20, seed: 11, ...(options.credentials !== undefined && { credentials: options.credentials }), ...(options.concurrency !== undefined && { concurrency: options.concurrency }) }),
  );
}

const reachOf = (report: ServerReport, id: string) => report.reach.find((r) => r.operationId === id);

// --- reach ---------------------------------------------------------------------------------

const uuid = codec.string().refine(validate.uuid);
const item = codec.object({ id: uuid, name: codec.string().refine(validate.minLength(1), validate.maxLength(20)) });
class NoItem extends Error {}
const notFound = rest.errorPattern(NoItem, 404, codec.object({ error: codec.string() }), (e) => ({ error: e.message }));

/** Items, whose getItem looks them up under the wrong key when `lostItems`: it never finds one. */
function itemsApi(defects: { lostItems?: boolean } = {}): rest.Server {
  const items = new Map<string, codec.Infer<typeof item>>();
  const api = rest.newServer({ title: 'items', version: '1.0.0' });
  rest.route({ method: 'POST', path: '/items', body: item.omit('id'), response: item, meta: { operationId: 'createItem' } })
    .withHandler((_ctx, req) => {
      const created = { id: crypto.randomUUID(), ...req };
      items.set(created.id, created);
      return created;
    })
    .register(api);
  rest.route({ method: 'GET', path: '/items/{id}', pathParams: { id: uuid }, response: item, errors: [notFound], meta: { operationId: 'getItem' } })
    .withHandler((_ctx, req) => {
      const found = items.get(defects.lostItems === true ? req.id.toUpperCase() : req.id.toLowerCase());
      if (found === undefined) throw new NoItem(`no item ${req.id}`);
      return found;
    })
    .register(api);
  return api;
}

describe('checkServer: reach', () => {
  it('reports the requests, statuses and success of every route, and the declared statuses never seen', async () => {
    const report = await check(itemsApi());
    expect(report.failures).toEqual([]);
    expect(report.reach.map((r) => r.operationId)).toEqual(['createItem', 'getItem']);
    const get = reachOf(report, 'getItem');
    expect(get?.succeeded).toBe(true);
    expect(get?.statuses['200']).toBeGreaterThan(0);
    expect(get?.statuses['404']).toBeGreaterThan(0);
    expect(get?.unseen).toContain(500);
    expect(get?.unseen).not.toContain(200);
    expect(get?.requests).toBe(Object.values(get?.statuses ?? {}).reduce((a, b) => a + b, 0));
    expect(report.reach.reduce((n, r) => n + r.requests, 0)).toBe(report.requests);
    const text = formatReport(report);
    expect(text).toMatch(/^reach:$/m);
    expect(text).toMatch(/^ {2}getItem +\d+ {2}yes +200×\d+ 400×\d+ 404×\d+/m);
    expect(report.timing.totalMs).toBeGreaterThanOrEqual(report.timing.generationMs + report.timing.httpMs);
  }, 60_000);

  it('assertServer fails on a route that never reached a success, unless allowUnreached lists it', async () => {
    // A builder serves once: each run gets its own.
    const assert = (allowUnreached?: string[]) => {
      const api = itemsApi({ lostItems: true });
      return served(api, (baseURL) => assertServer({ api, baseURL, runs: 20, seed: 11, ...(allowUnreached !== undefined && { allowUnreached }) }));
    };
    const failed = await assert().then(() => undefined, (err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    const message = (failed as Error).message;
    expect(message).toMatch(/in 0 places \(\d+ requests, seed 11\); 1 route never reached a success: getItem/);
    expect(message).toMatch(/^ {2}getItem +\d+ {2}NO +/m);
    expect(message).toMatch(/└ valid requests got 404 ×20/);
    const report = await assert(['getItem']);
    expect(reachOf(report, 'getItem')?.succeeded).toBe(false);
    expect(formatReport(report, { allowUnreached: ['getItem'] })).toMatch(/^ {2}getItem +\d+ {2}no \(allowed\) +/m);
    const stale = await assert(['getItem', 'getItems']).then(() => undefined, (err: unknown) => err);
    expect((stale as Error).message).toMatch(/^allowUnreached names no route: getItems/);
  }, 60_000);
});

// --- credentials ---------------------------------------------------------------------------

const bearer = rest.bearerScheme();
const principal = rest.contextKey<string>('principal');
const profile = codec.object({ name: codec.string(), signedIn: codec.boolean() });
const TOKEN = 'token-of-ada';

interface Guarding {
  /** The security of readProfile (secured) and of readPublicProfile (optional sign-in), as served. */
  readonly secured?: SecurityRequirement[];
  readonly optional?: SecurityRequirement[];
  /** The securityFunc accepts any token. */
  readonly anyToken?: boolean;
}

/** A secured route and one where sign-in is optional; `guarding` plants defects in how they are guarded. */
function profilesApi(guarding: Guarding = {}): rest.Server {
  const api = rest.newServer(
    { title: 'profiles', version: '1.0.0' },
    rest.withDefaultOptions({
      securityFunc: (ctx) => {
        const token = bearer.credential(ctx);
        if (token !== TOKEN && guarding.anyToken !== true) throw new Error('unknown token');
        ctx.set(principal, 'ada');
      },
    }),
  );
  api.addSecurityScheme('bearer', bearer);
  rest.route({ method: 'GET', path: '/profile', response: profile, security: guarding.secured ?? [{ bearer: [] }], meta: { operationId: 'readProfile' } })
    .withHandler((ctx) => ({ name: ctx.get(principal) ?? 'anonymous', signedIn: ctx.get(principal) !== undefined }))
    .register(api);
  rest.route({ method: 'GET', path: '/profiles/{name}', pathParams: { name: codec.string().refine(validate.slug) }, response: profile, security: guarding.optional ?? [{ bearer: [] }, {}], meta: { operationId: 'readPublicProfile' } })
    .withHandler((ctx, req) => ({ name: req.name, signedIn: ctx.get(principal) !== undefined }))
    .register(api);
  return api;
}
const signedIn = { headers: { authorization: `Bearer ${TOKEN}` } };

describe('checkServer: credentials', () => {
  it('calls a secured route without credentials and with a malformed one, an optional one both ways: a server that guards them passes', async () => {
    const report = await check(profilesApi(), { credentials: signedIn });
    expect(report.failures).toEqual([]);
    expect(report.warnings).toEqual([]);
    // 20 valid, 4 without credentials, 4 with a malformed one (401 each), the 406 probe; no invalid request (nothing to break).
    expect(reachOf(report, 'readProfile')).toEqual(expect.objectContaining({ requests: 29, statuses: { '200': 20, '401': 8, '406': 1 }, succeeded: true }));
    // Optional sign-in: 20 signed in, 4 anonymous (200 both), 4 malformed (401), 20 invalid (400), the 406 probe.
    expect(reachOf(report, 'readPublicProfile')).toEqual(expect.objectContaining({ requests: 49, statuses: { '200': 24, '401': 4, '400': 20, '406': 1 }, succeeded: true }));
  }, 60_000);

  it('reports a secured route that answers without credentials', async () => {
    const report = await check(profilesApi(), { serving: profilesApi({ secured: [] }), credentials: signedIn });
    expect(report.failures.map((f) => [f.operationId, f.problem])).toEqual([
      ['readProfile', 'secured route answered without credentials (200)'],
      ['readProfile', 'accepted a malformed credential (200)'],
    ]);
    expect(report.failures[0]?.request.headers).toEqual({});
    expect(report.failures[1]?.request.headers).toEqual({ authorization: 'Bearer token-pf-ada' });
  }, 60_000);

  it('reports a server that takes any credential, with the tampered one it took', async () => {
    const report = await check(profilesApi(), { serving: profilesApi({ anyToken: true }), credentials: signedIn });
    expect(report.failures.map((f) => [f.operationId, f.problem, f.request.headers['authorization']])).toEqual([
      ['readProfile', 'accepted a malformed credential (200)', 'Bearer token-pf-ada'],
      ['readPublicProfile', 'accepted a malformed credential (200)', 'Bearer token-pf-ada'],
    ]);
  }, 60_000);

  it('reports a route with optional sign-in that refuses anonymous readers', async () => {
    const report = await check(profilesApi(), { serving: profilesApi({ optional: [{ bearer: [] }] }), credentials: signedIn });
    expect(report.failures.map((f) => [f.operationId, f.problem])).toEqual([['readPublicProfile', 'refused a request without credentials (401), though sign-in is optional ({} among its security requirements)']]);
  }, 60_000);

  it('says plainly when most answers are 401 or 403: credentials missing, or wrong', async () => {
    // Both routes secured (sign-in no longer optional on the second): every answer is 401 without credentials.
    const secured = () => profilesApi({ optional: [{ bearer: [] }] });
    const none = await check(secured(), {});
    expect(none.warnings).toEqual([expect.stringMatching(/^most answers were 401 or 403 \(\d+ of \d+\): the credentials are missing or wrong — none were given \(option credentials\)/)]);
    expect(reachOf(none, 'readProfile')?.note).toBe('no credential for bearer (Authorization: Bearer) was given, nor answered by an earlier route');
    const api = secured();
    const wrong = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 20, seed: 11, credentials: { headers: { authorization: 'Bearer not-the-token' } } }).then(() => undefined, (err: unknown) => err));
    const message = (wrong as Error).message;
    expect(message).toMatch(/^warning: most answers were 401 or 403 \(\d+ of \d+\): the credentials are missing or wrong — those given are refused/m);
    expect(message).toMatch(/2 routes never reached a success: readProfile, readPublicProfile/);
    expect(message).toContain('└ every valid request was refused with 401 or 403: the credentials are wrong, expired, or lack a scope');
  }, 60_000);
});

// --- state ---------------------------------------------------------------------------------

const account = codec.object({ email: codec.string().refine(validate.email), password: codec.string().refine(validate.minLength(8), validate.maxLength(64)) });
// A registration says more than a sign-in: its bodies are drawn differently, so that a sign-in
// finds the e-mail and password of a registration only by taking them from it.
// (fast-check draws an object's fields in order: the name comes first.)
const registration = codec.object({ displayName: codec.string().refine(validate.minLength(1), validate.maxLength(40)), email: account.shape.email, password: account.shape.password });
const me = codec.object({ id: uuid, email: codec.string() });
class Taken extends Error {}
class WrongPassword extends Error {}

/** Register, sign in with the same e-mail and password for a token, read yourself with it. */
function signInApi(): rest.Server {
  const accounts = new Map<string, { id: string; password: string }>();
  const tokens = new Map<string, string>();
  const api = rest.newServer(
    { title: 'accounts', version: '1.0.0' },
    rest.withDefaultOptions({
      securityFunc: (ctx) => {
        const id = tokens.get(bearer.credential(ctx) ?? '');
        if (id === undefined) throw new Error('unknown token');
        ctx.set(principal, id);
      },
    }),
  );
  api.addSecurityScheme('bearer', bearer);
  rest.route({ method: 'POST', path: '/accounts', body: registration, response: me, errors: [rest.errorPattern(Taken, 409, codec.object({ error: codec.string() }), (e) => ({ error: e.message }))], meta: { operationId: 'register' } })
    .withHandler((_ctx, req) => {
      if (accounts.has(req.email)) throw new Taken(`${req.email} is taken`);
      const id = crypto.randomUUID();
      accounts.set(req.email, { id, password: req.password });
      return { id, email: req.email };
    })
    .register(api);
  rest.route({ method: 'POST', path: '/sessions', body: account, response: codec.object({ token: codec.string() }), errors: [rest.errorPattern(WrongPassword, 401, codec.object({ error: codec.string() }), () => ({ error: 'wrong e-mail or password' }))], meta: { operationId: 'signIn' } })
    .withHandler((_ctx, req) => {
      const a = accounts.get(req.email);
      if (a === undefined || a.password !== req.password) throw new WrongPassword();
      const token = crypto.randomUUID();
      tokens.set(token, a.id);
      return { token };
    })
    .register(api);
  rest.route({ method: 'GET', path: '/me', response: me, security: [{ bearer: [] }], meta: { operationId: 'readMe' } })
    .withHandler((ctx) => {
      const id = ctx.get(principal) as string;
      const email = [...accounts].find(([, a]) => a.id === id)?.[0] as string;
      return { id, email };
    })
    .register(api);
  return api;
}

describe('checkServer: state the way the API carries it', () => {
  it('registers, signs in with the same e-mail and password, and reads with the token it got: a success on every route', async () => {
    const api = signInApi();
    const report = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 30, seed: 5 }));
    expect(report.reach.map((r) => [r.operationId, r.succeeded])).toEqual([
      ['register', true],
      ['signIn', true],
      ['readMe', true],
    ]);
    // Signed in with the token signIn answered; without it, and with it tampered, refused; the 406 probe.
    expect(reachOf(report, 'readMe')?.statuses).toEqual({ '200': 30, '401': 12, '406': 1 });
  }, 60_000);

  it('creates before it reads and updates, and deletes last, whatever the order the routes were registered in', async () => {
    const items = new Map<string, codec.Infer<typeof item>>();
    const methods: string[] = [];
    const api = rest.newServer({ title: 'items', version: '1.0.0' });
    const find = (id: string) => {
      const found = items.get(id.toLowerCase());
      if (found === undefined) throw new NoItem(`no item ${id}`);
      return found;
    };
    const log = (m: string) => methods.at(-1) !== m && methods.push(m);
    rest.route({ method: 'DELETE', path: '/items/{id}', pathParams: { id: uuid }, errors: [notFound], meta: { operationId: 'deleteItem', respStatus: 204 } })
      .withHandler((_ctx, req) => void (log('DELETE'), items.delete(find(req.id).id)))
      .register(api);
    rest.route({ method: 'PUT', path: '/items/{id}', pathParams: { id: uuid }, body: item.omit('id'), response: item, errors: [notFound], meta: { operationId: 'renameItem' } })
      .withHandler((_ctx, { id, name }) => {
        log('PUT');
        const renamed = { ...find(id), name };
        items.set(renamed.id, renamed);
        return renamed;
      })
      .register(api);
    rest.route({ method: 'GET', path: '/items/{id}', pathParams: { id: uuid }, response: item, errors: [notFound], meta: { operationId: 'getItem' } })
      .withHandler((_ctx, req) => (log('GET'), find(req.id)))
      .register(api);
    rest.route({ method: 'POST', path: '/items', body: item.omit('id'), response: item, meta: { operationId: 'createItem' } })
      .withHandler((_ctx, req) => {
        log('POST');
        const created = { id: crypto.randomUUID(), ...req };
        items.set(created.id, created);
        return created;
      })
      .register(api);
    const report = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 20, seed: 5 }));
    expect(methods).toEqual(['POST', 'PUT', 'GET', 'DELETE']);
    expect(report.reach.map((r) => r.operationId)).toEqual(['createItem', 'renameItem', 'getItem', 'deleteItem']);
  }, 60_000);
});

describe('checkServer: records the run starts from', () => {
  it('reaches a fixture no route creates when the records name it', async () => {
    const reportApi = () => {
      const api = rest.newServer({ title: 'reports', version: '1.0.0' });
      rest.route({ method: 'GET', path: '/reports/{id}', pathParams: { id: codec.string().refine(validate.slug) }, response: item, errors: [notFound], meta: { operationId: 'getReport' } })
        .withHandler((_ctx, req) => {
          if (req.id !== 'q3-2026') throw new NoItem(`no report ${req.id}`);
          return { id: '5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c11', name: 'Q3' };
        })
        .register(api);
      return api;
    };
    const without = await check(reportApi());
    expect(reachOf(without, 'getReport')?.succeeded).toBe(false);
    const api = reportApi();
    const report = await served(api, (baseURL) => assertServer({ api, baseURL, runs: 20, seed: 11, records: [{ id: 'q3-2026' }] }));
    expect(reachOf(report, 'getReport')?.statuses['200']).toBeGreaterThan(0);
  }, 60_000);
});

// --- requests in flight together -----------------------------------------------------------

describe('checkServer: requests in flight together', () => {
  /** A route that takes 5 ms and counts the requests in flight; `racy`: it fails when another is in flight. */
  function slowApi(racy = false): { api: rest.Server; most: () => number } {
    let inFlight = 0;
    let most = 0;
    const api = rest.newServer({ title: 'slow', version: '1.0.0' });
    rest.route({ method: 'GET', path: '/slow', query: { n: codec.intString().refine(validate.min(0), validate.max(9)) }, response: codec.object({ n: codec.int() }), meta: { operationId: 'slow' } })
      .withHandler(async (_ctx, req) => {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          await new Promise((r) => setTimeout(r, 5));
          if (racy && inFlight > 1) throw new Error('a race');
          return { n: req.n };
        } finally {
          inFlight--;
        }
      })
      .register(api);
    return { api, most: () => most };
  }

  it('sends the requests of a route `concurrency` at a time, the same requests whatever it is', async () => {
    const together = slowApi();
    const a = await check(together.api, { runs: 40 });
    expect(together.most()).toBeGreaterThan(1);
    expect(together.most()).toBeLessThanOrEqual(16);
    const alone = slowApi();
    const b = await check(alone.api, { runs: 40, concurrency: 1 });
    expect(alone.most()).toBe(1);
    expect(a.failures).toEqual([]);
    expect(a.reach).toEqual(b.reach);
  }, 60_000);

  it('reports a failure seen only with requests in flight together, unshrunk, and says so', async () => {
    const { api } = slowApi(true);
    const report = await check(api, { runs: 40 });
    expect(report.failures.map((f) => f.problem)).toEqual(['answered 500 (seen with requests in flight together; not seen again one at a time, so not shrunk)']);
  }, 60_000);
});
