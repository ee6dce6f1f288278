/**
 * Security schemes that are enforced: credentials read from their location, checked by the
 * scheme's codec and by `securityFunc`, before the body is read; 401 with `WWW-Authenticate`;
 * alternatives and combinations as OpenAPI defines them; the principal reaching the handler.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { countingClient } from './counting-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, readReply } from './raw-socket.js';
import type { AdapterUnderTest } from './suite.js';

class Forbidden extends Error {}

/** A JWT-shaped bearer token: three base64url parts. */
const jwt = codec.string().refine(validate.pattern(/^[\w-]+\.[\w-]+\.[\w-]+$/));
const bearer = rest.bearerScheme('JWT').withCodec(jwt).withDescription('A signed token.');
const cookieKey = rest.apiKeyScheme('api_key', 'cookie');
const headerKey = rest.apiKeyScheme('X-API-Key', 'header').withCodec(codec.string().refine(validate.minLength(8)));
const queryKey = rest.apiKeyScheme('key', 'query');
const basic = rest.basicScheme();

interface Principal {
  readonly user: string;
}
const principal = rest.contextKey<Principal>('principal');
/** Set by securityFunc for a bearer token only: read without `?` where sign-in is required. */
const tokenHolder = rest.principalKey<Principal>('token holder');

export function security(adapter: AdapterUnderTest): void {
  describe(`security: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let handlerRuns = 0;
    const checked: string[] = [];
    let api: rest.Server;
    const routes: Record<string, rest.Route<object, { user: string }, string>> = {};

    beforeAll(async () => {
      api = rest.newServer(
        { title: 'Secured', version: '1.0.0' },
        rest.withDefaultOptions({
          securityFunc: (ctx, _request, requirements) => {
            const names = Object.keys(requirements[0] ?? {});
            checked.push(names.join('+'));
            const token = bearer.credential(ctx);
            if (token !== undefined) {
              if (token.endsWith('.forbidden')) throw new Forbidden('not yours');
              if (!token.endsWith('.sig')) throw new Error('bad signature: secret detail');
              ctx.set(principal, { user: token.split('.')[0] as string });
              ctx.set(tokenHolder, { user: token.split('.')[0] as string });
              return;
            }
            const b = basic.credential(ctx);
            if (b !== undefined) {
              const c = rest.basicCredentials(b);
              if (c?.password !== 'open sesame') throw new Error('wrong password');
              ctx.set(principal, { user: c.userId });
              return;
            }
            ctx.set(principal, { user: `key:${names.join('+')}` });
          },
        }),
      );
      api.addSecurityScheme('bearerAuth', bearer).addSecurityScheme('cookieKey', cookieKey).addSecurityScheme('headerKey', headerKey);
      api.addSecurityScheme('queryKey', queryKey).addSecurityScheme('basicAuth', basic);
      api.addGlobalSecurity({ bearerAuth: [] });
      const whoami = codec.object({ user: codec.string() });
      const me = (path: string, ...opts: rest.RouteOption<object, { user: string }>[]): void => {
        const route = rest.newRoute('GET', path, codec.empty<object>(), whoami, rest.errorStatus(Forbidden, 403), ...opts);
        routes[path] = route;
        route
          .withHandler((ctx) => {
            handlerRuns++;
            return { user: ctx.get(principal)?.user ?? 'anonymous' };
          })
          .register(api);
      };
      me('/s/global');
      me('/s/public', rest.routeMeta({ security: [] }));
      me('/s/either', rest.routeMeta({ security: [{ headerKey: [] }, { queryKey: [] }] }));
      me('/s/both', rest.routeMeta({ security: [{ cookieKey: [], headerKey: [] }] }));
      me('/s/basic', rest.routeMeta({ security: [{ basicAuth: [] }] }));
      // Optional sign-in (OpenAPI 3.1 §4.8.30: `{}` among the alternatives), in both orders.
      me('/s/optional', rest.routeMeta({ security: [{ bearerAuth: [] }, {}] }));
      me('/s/optional-first', rest.routeMeta({ security: [{}, { bearerAuth: [] }] }));
      me('/s/optional-both', rest.routeMeta({ security: [{ cookieKey: [], headerKey: [] }, {}] }));
      // The principal typed by the route: required sign-in reads it without `?`; optional may not.
      const whoRequired = rest.route({ method: 'GET', path: '/s/holder', response: whoami, security: [{ bearerAuth: [] }] });
      whoRequired.withHandler((ctx) => ({ user: ctx.get(tokenHolder).user })).register(api);
      const keyOnly = rest.route({ method: 'GET', path: '/s/holder-by-key', response: whoami, security: [{ headerKey: [] }] });
      keyOnly
        .withHandler((ctx) => {
          handlerRuns++;
          // Were the read to give undefined, this would answer as anonymous, silently.
          const holder: Principal | undefined = ctx.get(tokenHolder);
          return { user: holder?.user ?? 'anonymous' };
        })
        .register(api);
      const whoOptional = rest.route({ method: 'GET', path: '/s/holder-optional', response: whoami, security: [{ bearerAuth: [] }, {}] });
      whoOptional.withHandler((ctx) => ({ user: ctx.get(tokenHolder)?.user ?? 'anonymous' })).register(api);
      rest
        .newRoute('POST', '/s/upload', codec.object({ a: codec.string() }), codec.object({ a: codec.string() }))
        .withHandler((_ctx, req) => {
          handlerRuns++;
          return req;
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });

    afterAll(() => stop());

    const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${base}${path}`, { headers });

    it('answers 401 with a Bearer challenge when the credential is missing; the handler never runs', async () => {
      const before = handlerRuns;
      const res = await get('/s/global');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      expect(await res.json()).toEqual({ error: 'missing credentials' });
      expect(handlerRuns).toBe(before);
    });

    it('refuses a credential its codec rejects, or a scheme other than Bearer', async () => {
      for (const auth of ['Bearer not-a-jwt', 'Basic YTpi', 'Bearer', 'bearer']) {
        const res = await get('/s/global', { authorization: auth });
        expect(res.status).toBe(401);
      }
      const invalid = await get('/s/global', { authorization: 'Bearer not-a-jwt' });
      expect(await invalid.json()).toEqual({ error: 'invalid credentials' });
    });

    it('runs securityFunc: a valid token reaches the handler with its principal; a refused one is 401 without the reason', async () => {
      const ok = await get('/s/global', { authorization: 'bEaReR ada.payload.sig' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ user: 'ada' });
      const refused = await get('/s/global', { authorization: 'Bearer ada.payload.forged' });
      expect(refused.status).toBe(401);
      const text = await refused.text();
      expect(JSON.parse(text)).toEqual({ error: 'unauthorized' });
      expect(text).not.toMatch(/secret|signature/);
    });

    it('lets an error rule map a securityFunc error: 403', async () => {
      const res = await get('/s/global', { authorization: 'Bearer ada.payload.forbidden' });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBeNull();
    });

    it('optional sign-in: no credential is anonymous; a sent one is checked (a bad one is 401), in either order', async () => {
      for (const path of ['/s/optional', '/s/optional-first']) {
        const runs = checked.length;
        const anonymous = await get(path);
        expect(anonymous.status, path).toBe(200);
        expect(await anonymous.json()).toEqual({ user: 'anonymous' });
        expect(checked.length, 'securityFunc does not run for an anonymous request').toBe(runs);
        const signedIn = await get(path, { authorization: 'Bearer ada.payload.sig' });
        expect(await signedIn.json()).toEqual({ user: 'ada' });
        expect(checked.slice(runs)).toEqual(['bearerAuth']);
        const malformed = await get(path, { authorization: 'Bearer not-a-jwt' });
        expect(malformed.status).toBe(401);
        expect(await malformed.json()).toEqual({ error: 'invalid credentials' });
        const forged = await get(path, { authorization: 'Bearer ada.payload.forged' });
        expect(forged.status).toBe(401);
        expect(forged.headers.get('www-authenticate')).toBe('Bearer realm="api"');
        // The typed client sends a credential when it has one, and none when it has none.
        const { client } = countingClient(base);
        const token = { current: undefined as string | undefined };
        const r = (routes[path] as rest.Route<object, { user: string }, string>).clientMW(bearer, () => token.current);
        expect(await client.call(r, {})).toEqual({ user: 'anonymous' });
        token.current = 'grace.payload.sig';
        expect(await client.call(r, {})).toEqual({ user: 'grace' });
      }
      // The document says what the server does: the alternatives as declared, and the 401 a bad credential gets.
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { security?: unknown; responses: Record<string, unknown> } }> };
      expect(doc.paths['/s/optional']?.get.security).toEqual([{ bearerAuth: [] }, {}]);
      expect(Object.keys(doc.paths['/s/optional']?.get.responses ?? {})).toContain('401');
      expect(Object.keys(doc.paths['/s/public']?.get.responses ?? {})).not.toContain('401');
      // One scheme of an AND alternative sent alone is a credential: checked, and refused.
      expect((await get('/s/optional-both', { 'x-api-key': 'long-enough-key' })).status).toBe(401);
      expect((await get('/s/optional-both')).status).toBe(200);
      expect(await (await get('/s/optional-both', { 'x-api-key': 'long-enough-key', cookie: 'api_key=c1' })).json()).toEqual({ user: 'key:cookieKey+headerKey' });
    });

    it('gives a route that requires sign-in its principal, and answers 500 when securityFunc set none', async () => {
      const ok = await get('/s/holder', { authorization: 'Bearer ada.payload.sig' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ user: 'ada' });
      expect((await get('/s/holder')).status).toBe(401);
      // The API key is accepted, but securityFunc sets no token holder: a server bug, never an anonymous answer.
      const before = handlerRuns;
      const missing = await get('/s/holder-by-key', { 'x-api-key': 'long-enough-key' });
      expect(missing.status).toBe(500);
      expect(await missing.text()).not.toMatch(/token holder|securityFunc/);
      expect(handlerRuns).toBe(before + 1);
      expect(missing.status).not.toBe(200);
      // Optional sign-in: anonymous reads nothing, without an error; signed in reads the holder.
      expect(await (await get('/s/holder-optional')).json()).toEqual({ user: 'anonymous' });
      expect(await (await get('/s/holder-optional', { authorization: 'Bearer grace.payload.sig' })).json()).toEqual({ user: 'grace' });
    });

    it('lets security: [] opt out of the global requirement', async () => {
      const res = await get('/s/public');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ user: 'anonymous' });
    });

    it('accepts any one alternative (OR) and needs every scheme of one requirement (AND)', async () => {
      checked.length = 0;
      expect((await get('/s/either', { 'x-api-key': 'abcdefgh' })).status).toBe(200);
      expect((await get('/s/either?key=k1')).status).toBe(200);
      const none = await get('/s/either');
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBeNull();
      expect((await get('/s/either', { 'x-api-key': 'short' })).status).toBe(401);
      expect((await get('/s/both', { 'x-api-key': 'abcdefgh' })).status).toBe(401);
      expect((await get('/s/both', { cookie: 'api_key=c1' })).status).toBe(401);
      const both = await get('/s/both', { 'x-api-key': 'abcdefgh', cookie: 'api_key=c1' });
      expect(both.status).toBe(200);
      expect(await both.json()).toEqual({ user: 'key:cookieKey+headerKey' });
      expect(checked).toEqual(['headerKey', 'queryKey', 'cookieKey+headerKey']);
    });

    it('reads HTTP Basic credentials (RFC 7617) and challenges with Basic', async () => {
      const auth = `Basic ${Buffer.from('grace:open sesame').toString('base64')}`;
      const ok = await get('/s/basic', { authorization: auth });
      expect(await ok.json()).toEqual({ user: 'grace' });
      const wrong = await get('/s/basic', { authorization: `Basic ${Buffer.from('grace:nope').toString('base64')}` });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="api", charset="UTF-8"');
    });

    it('checks credentials before reading the body: a 401, not a 413, and the upload is not read', async () => {
      const before = handlerRuns;
      const socket = await open(base);
      socket.on('error', () => undefined);
      const reply = readReply(socket, 3000, true);
      socket.write(`POST /s/upload HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n`);
      socket.write(Buffer.alloc(64 * 1024, 0x20));
      const r = await reply;
      socket.destroy();
      expect(r.status).toBe(401);
      expect(r.headers.connection).toBe('close');
      expect(r.closedByServer).toBe(true);
      expect(handlerRuns).toBe(before);
    });

    describe('the typed client gives credentials with clientMW(scheme, fn)', () => {
      let counted: ReturnType<typeof countingClient>;
      beforeAll(() => {
        counted = countingClient(base);
      });
      const route = (path: string): rest.Route<object, { user: string }, string> => routes[path] as rest.Route<object, { user: string }, string>;

      it('success: the credential goes where the scheme says', async () => {
        expect(await counted.client.call(route('/s/global').clientMW(bearer, () => 'ada.payload.sig'), {})).toEqual({ user: 'ada' });
        expect(await counted.client.call(route('/s/basic').clientMW(basic, async () => 'grace:open sesame'), {})).toEqual({ user: 'grace' });
        const both = route('/s/both').clientMW(cookieKey, () => 'c1').clientMW(headerKey, () => 'abcdefgh');
        expect(await counted.client.call(both, {})).toEqual({ user: 'key:cookieKey+headerKey' });
        expect(await counted.client.call(route('/s/either').clientMW(queryKey, () => 'k1'), {})).toEqual({ user: 'key:queryKey' });
      });

      it('no credential: nothing is added and the server answers 401', async () => {
        const err = await counted.client.call(route('/s/global').clientMW(bearer, () => undefined), {}).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(nodeHttp.UnexpectedStatusError);
        expect(err).toMatchObject({ statusCode: 401 });
      });

      it('a credential function that throws, or a credential the codec refuses, aborts before anything is sent', async () => {
        const before = counted.sent();
        const thrown = await counted.client
          .call(
            route('/s/global').clientMW(bearer, () => {
              throw new Error('no token in the keychain');
            }),
            {},
          )
          .catch((e: unknown) => e);
        expect(thrown).toBeInstanceOf(nodeHttp.RequestBuildError);
        expect((thrown as Error).cause).toMatchObject({ message: 'no token in the keychain' });
        const refused = await counted.client.call(route('/s/global').clientMW(bearer, () => 'not-a-jwt'), {}).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(nodeHttp.RequestBuildError);
        await expect(counted.client.call(route('/s/basic').clientMW(basic, () => 'no-colon'), {})).rejects.toBeInstanceOf(nodeHttp.RequestBuildError);
        expect(counted.sent()).toBe(before);
      });

      it('lets an explicit per-call Authorization win', async () => {
        const r = route('/s/global').clientMW(bearer, () => 'eve.payload.sig');
        expect(await counted.client.call(r, {}, { headerParams: { Authorization: 'Bearer ada.payload.sig' } })).toEqual({ user: 'ada' });
      });
    });

    it('documents the schemes, the requirements and the 401', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as {
        security: unknown;
        components: { securitySchemes: Record<string, unknown> };
        paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      };
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      expect(doc.components.securitySchemes).toEqual({
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A signed token.' },
        cookieKey: { type: 'apiKey', name: 'api_key', in: 'cookie' },
        headerKey: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
        queryKey: { type: 'apiKey', name: 'key', in: 'query' },
        basicAuth: { type: 'http', scheme: 'basic' },
      });
      expect(doc.paths['/s/either']?.['get']?.security).toEqual([{ headerKey: [] }, { queryKey: [] }]);
      expect(doc.paths['/s/public']?.['get']?.security).toEqual([]);
      expect(Object.keys(doc.paths['/s/global']?.['get']?.responses ?? {})).toContain('401');
      expect(Object.keys(doc.paths['/s/public']?.['get']?.responses ?? {})).not.toContain('401');
    });

    it('refuses to serve a secured route without a securityFunc, or with an unknown scheme', async () => {
      const open1 = rest.newServer({ title: 't', version: '1' });
      open1.addSecurityScheme('bearerAuth', bearer);
      rest.newRoute('GET', '/x', codec.empty<object>(), codec.empty<object>(), rest.routeMeta({ security: [{ bearerAuth: [] }] })).withHandler(() => ({})).register(open1);
      await expect(adapter.serve(open1)).rejects.toThrow(/no securityFunc/);
      const open2 = rest.newServer({ title: 't', version: '1' }, rest.withDefaultOptions({ securityFunc: () => undefined }));
      rest.newRoute('GET', '/x', codec.empty<object>(), codec.empty<object>(), rest.routeMeta({ security: [{ nope: [] }] })).withHandler(() => ({})).register(open2);
      await expect(adapter.serve(open2)).rejects.toThrow(/"nope" is not registered/);
    });
  });
}
