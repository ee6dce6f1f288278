// checkServer follows the links a route declares (OpenAPI 3.1 §4.8.20): an answer's value goes to
// the linked operation under the parameter name the link gives, which the answer's own field
// names do not match. Servers are real, on 127.0.0.1 port 0.
import * as codec from '@lib/codec';
import type { LinkDescriptor } from '@lib/openapi';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { served } from '../test/served.js';
import { checkServer } from './check-server.js';
import { evaluate } from './internal/links.js';

const accountNumber = codec.string().refine(validate.pattern(/^ACC-[0-9a-f]{8}$/));
const account = codec.object({ number: accountNumber, owner: codec.string().refine(validate.minLength(1), validate.maxLength(20)) });
class NoAccount extends Error {}

/** Accounts: creating one answers its `number`; reading one takes it as `{id}`. */
function accountsApi(links: Record<string, LinkDescriptor> | undefined): rest.Server {
  const accounts = new Map<string, codec.Infer<typeof account>>();
  const api = rest.newServer({ title: 'accounts', version: '1.0.0' });
  rest
    .route({ method: 'POST', path: '/accounts', body: account.omit('number'), response: account, meta: { operationId: 'createAccount' }, ...(links !== undefined && { links }) })
    .withHandler((_ctx, req) => {
      const created = { number: `ACC-${crypto.randomUUID().slice(0, 8)}`, ...req };
      accounts.set(created.number, created);
      return created;
    })
    .register(api);
  rest
    .route({
      method: 'GET',
      path: '/accounts/{id}',
      pathParams: { id: accountNumber },
      response: account,
      errors: [rest.errorPattern(NoAccount, 404, codec.object({ error: codec.string() }), (e) => ({ error: e.message }))],
      meta: { operationId: 'getAccount' },
    })
    .withHandler((_ctx, req) => {
      const found = accounts.get(req.id);
      if (found === undefined) throw new NoAccount(`no account ${req.id}`);
      return found;
    })
    .register(api);
  return api;
}

function run(api: rest.Server) {
  return served(api, (baseURL) => checkServer({ api, baseURL, runs: 20, seed: 5 }));
}

describe('checkServer follows declared links', () => {
  it('reaches an operation only a link leads to, and not without the link', async () => {
    const linked = await run(accountsApi({ getAccount: { operationId: 'getAccount', parameters: { id: '$response.body#/number' } } }));
    expect(linked.failures).toEqual([]);
    expect(linked.reach.find((r) => r.operationId === 'getAccount')?.succeeded).toBe(true);
    const unlinked = await run(accountsApi(undefined));
    expect(unlinked.reach.find((r) => r.operationId === 'getAccount')?.succeeded).toBe(false);
  });

  it('evaluates runtime expressions of the request and the response', () => {
    const x = { status: 201, params: { id: '7', 'x-tenant': 't1' }, body: { email: 'a@example.com' }, json: { user: { id: 'u1' }, 'a/b': 2 }, headers: new Headers({ location: '/users/u1' }) };
    expect(evaluate('$response.body#/user/id', x)).toBe('u1');
    expect(evaluate('$response.body#/a~1b', x)).toBe(2);
    expect(evaluate('$response.header.Location', x)).toBe('/users/u1');
    expect(evaluate('$request.path.id', x)).toBe('7');
    expect(evaluate('$request.header.X-Tenant', x)).toBe('t1');
    expect(evaluate('$request.body#/email', x)).toBe('a@example.com');
    expect(evaluate('$statusCode', x)).toBe(201);
    expect(evaluate('constant', x)).toBe('constant');
    expect(evaluate('$response.body#/user', x)).toBeUndefined();
  });
});
