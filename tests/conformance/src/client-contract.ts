/**
 * The client side of the request/response contract, over real HTTP on 127.0.0.1, for one
 * adapter: what the typed client refuses to send (and how it reports it), whose observer sees a
 * call, how a declared redirect is received, and how repeated query keys are sent. Each adapter's
 * test file calls {@link clientContract} with the same {@link AdapterUnderTest} as the suite.
 */
import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';
import { clientTransport } from './client-transport.js';

interface ParamsReq {
  id: string;
  q: string;
  key: string;
  sid: string;
}

/** One required value at every request location. */
const params = rest.newRoute(
  'GET',
  '/params/{id}',
  codec.empty<ParamsReq>(),
  codec.object({ id: codec.string(), q: codec.string(), key: codec.string(), sid: codec.string() }),
  rest.newPathParam('id', codec.string().refine(validate.minLength(2)), (r) => r.id, (r, v) => {
    r.id = v;
  }),
  rest.newRequiredQueryParam('q', codec.string(), (r) => r.q, (r, v) => {
    r.q = v;
  }),
  rest.newRequiredHeaderParam('X-Key', codec.string(), (r) => r.key, (r, v) => {
    r.key = v;
  }),
  rest.newRequiredCookieParam('sid', codec.string(), (r) => r.sid, (r, v) => {
    r.sid = v;
  }),
);

interface Item {
  n: number;
}
interface BodyReq {
  mode: string;
  name: string;
  items: Item[];
}

/** A body with nested fields, and one required query value. */
const withBody = rest.newRoute(
  'POST',
  '/body',
  codec.object({
    name: codec.string().refine(validate.minLength(1)),
    items: codec.array(codec.object({ n: codec.int().refine(validate.min(1)) })),
  }) as unknown as codec.Codec<BodyReq>,
  codec.object({ name: codec.string() }),
  rest.newRequiredQueryParam('mode', codec.string(), (r) => r.mode, (r, v) => {
    r.mode = v;
  }),
);

interface Pair {
  a?: string | undefined;
  b?: string | undefined;
}

/** A body whose constraint is on the whole value (an issue at the root). */
const pair = rest.newRoute(
  'POST',
  '/pair',
  codec.object({ a: codec.optional(codec.string()), b: codec.optional(codec.string()) }).refine(validate.minProperties(1)) as codec.Codec<Pair>,
  codec.empty<object>(),
);

/** A route the server observes with its own observer. */
const observed = rest.newRoute('GET', '/observed', codec.empty<object>(), codec.object({ ok: codec.boolean() }));

interface GoResp {
  location: string;
}
const locationParam = <R extends { location: string }>() =>
  rest.newRequiredResponseHeaderParam('Location', codec.string(), (r: R) => r.location, (r, v) => {
    r.location = v;
  });

/** A declared 302 without a body: the client returns the `Location`. */
const go = rest.newRoute('GET', '/go', codec.empty<object>(), codec.empty<GoResp>(), rest.routeMeta({ respStatus: 302 }), locationParam<GoResp>());

interface SeeOther {
  id: string;
  location: string;
}
/** A declared 303 with a body and a `Location`. */
const seeOther = rest.newRoute(
  'POST',
  '/see-other',
  codec.empty<object>(),
  codec.object({ id: codec.string() }) as unknown as codec.Codec<SeeOther>,
  rest.routeMeta({ respStatus: 303 }),
  locationParam<SeeOther>(),
);

/** The redirect target: the client must never reach it by following. */
const target = rest.newRoute('GET', '/target', codec.empty<object>(), codec.object({ reached: codec.boolean() }));

/** The client's view of `GET /go` that declares 200: the server's 302 is not its success. */
const goDeclared200 = rest.newRoute('GET', '/go', codec.empty<object>(), codec.object({ reached: codec.boolean() }));

interface TagsReq {
  tags?: string[];
}
/** Echoes every value of a repeated `tag` key. */
const tags = rest.newRoute(
  'GET',
  '/tags',
  codec.empty<TagsReq>(),
  codec.object({ tags: codec.array(codec.string()) }),
  rest.newOptionalQueryParam('tag', codec.array(codec.string()), (r) => r.tags, (r, v) => {
    r.tags = v;
  }),
);

interface NumsReq {
  n?: number[];
}
/** The server's `GET /nums` reads nothing; the client's declares a multi-valued `n`. */
const numsServer = rest.newRoute('GET', '/nums', codec.empty<object>(), codec.object({ ok: codec.boolean() }));
const nums = rest.newRoute(
  'GET',
  '/nums',
  codec.empty<NumsReq>(),
  codec.object({ ok: codec.boolean() }),
  rest.newOptionalQueryParam('n', codec.array(codec.intString()), (r) => r.n, (r, v) => {
    r.n = v;
  }),
);
interface RequiredNumsReq {
  n: number[];
}
const requiredNums = rest.newRoute(
  'GET',
  '/nums',
  codec.empty<RequiredNumsReq>(),
  codec.object({ ok: codec.boolean() }),
  rest.newRequiredQueryParam('n', codec.array(codec.intString()), (r) => r.n, (r, v) => {
    r.n = v;
  }),
);

interface Recorder {
  readonly observer: rest.Observer;
  readonly validation: string[];
  readonly responses: { route: string; status: number; error?: unknown }[];
}

function recorder(): Recorder {
  const validation: string[] = [];
  const responses: { route: string; status: number; error?: unknown }[] = [];
  return {
    validation,
    responses,
    observer: {
      onValidationError: (i) => validation.push(`${i.location}:${i.name}`),
      onResponse: (i) => responses.push({ route: i.route, status: i.status, ...(i.error !== undefined && { error: i.error }) }),
    },
  };
}

export function clientContract(adapter: AdapterUnderTest): void {
  describe(`client contract: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let targetHits = 0;
    const serverSide = recorder();
    /** Every URL the counting client asked `fetch` for, with its `redirect` mode. */
    const sent: { url: URL; redirect: RequestInit['redirect'] }[] = [];
    let client: rest.Client;

    beforeAll(async () => {
      const api = rest.newServer({ title: 'Client contract', version: '1.0.0' });
      params.withHandler((_ctx, req) => ({ id: req.id, q: req.q, key: req.key, sid: req.sid })).register(api);
      withBody.withHandler((_ctx, req) => ({ name: req.name })).register(api);
      pair.withHandler(() => ({})).register(api);
      observed
        .withHandler(() => ({ ok: true }))
        .withOptions({ observer: serverSide.observer })
        .register(api);
      go.withHandler(() => ({ location: '/target' })).register(api);
      seeOther.withHandler(() => ({ id: 'w-1', location: '/target?id=w-1' })).register(api);
      target
        .withHandler(() => {
          targetHits++;
          return { reached: true };
        })
        .register(api);
      tags.withHandler((_ctx, req) => ({ tags: req.tags ?? [] })).register(api);
      numsServer.withHandler(() => ({ ok: true })).register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client = rest.newClient();
      client.attach(
        nodeHttp.newClientTransport({
          baseURL: base,
          httpClient: (input, init) => {
            sent.push({ url: new URL(input), redirect: init.redirect });
            return fetch(input, init);
          },
        }),
      );
    });

    afterAll(() => stop());

    const failure = (p: Promise<unknown>): Promise<unknown> => p.then(
      () => {
        throw new Error('the call succeeded');
      },
      (err: unknown) => err,
    );

    describe('pre-flight', () => {
      const good: ParamsReq = { id: 'ab', q: 'x', key: 'k', sid: 's' };

      it('sends a call whose every value is valid', async () => {
        const before = sent.length;
        expect(await client.call(params, good)).toEqual(good);
        expect(sent.length).toBe(before + 1);
      });

      it('refuses an empty required query, header or cookie value, from the request or explicit, and sends nothing', async () => {
        const before = sent.length;
        const cases: [Promise<unknown>, new (...args: never[]) => rest.ParamError, string][] = [
          [client.call(params, { ...good, q: '' }), rest.QueryParamError, 'query parameter "q": must not be empty'],
          [client.call(params, { ...good, key: '' }), rest.HeaderParamError, 'header "X-Key": must not be empty'],
          [client.call(params, { ...good, sid: '' }), rest.CookieParamError, 'cookie "sid": must not be empty'],
          [client.call(params, good, { queryParams: { q: '' } }), rest.QueryParamError, 'query parameter "q": must not be empty'],
          [client.call(params, good, { headerParams: { 'x-key': '' } }), rest.HeaderParamError, 'header "X-Key": must not be empty'],
          [client.call(params, good, { cookieParams: { sid: '' } }), rest.CookieParamError, 'cookie "sid": must not be empty'],
        ];
        for (const [call, ErrorClass, message] of cases) {
          const err = await failure(call);
          expect(err).toBeInstanceOf(ErrorClass);
          expect((err as Error).message).toBe(message);
        }
        expect(sent.length).toBe(before);
      });

      it('checks every parameter, reports each failure, and throws them together', async () => {
        const before = sent.length;
        const rec = recorder();
        const err = await failure(client.call(params, { id: 'x', q: '', key: '', sid: '' }, { observer: rec.observer }));
        expect(err).toBeInstanceOf(rest.RequestValidationError);
        const errors = (err as rest.RequestValidationError).errors as unknown[];
        expect(errors.map((e) => (e as Error).constructor)).toEqual([rest.PathParamError, rest.QueryParamError, rest.HeaderParamError, rest.CookieParamError]);
        expect(rec.validation).toEqual(['path:id', 'query:q', 'header:X-Key', 'cookie:sid']);
        expect(rec.responses).toEqual([{ route: 'GET /params/{id}', status: 0, error: err }]);
        expect(sent.length).toBe(before);
      });

      it('throws a single failure as itself, and reports it once', async () => {
        const rec = recorder();
        const err = await failure(client.call(params, { ...good, id: 'x' }, { observer: rec.observer }));
        expect(err).toBeInstanceOf(rest.PathParamError);
        expect(rec.validation).toEqual(['path:id']);
        expect(rec.responses).toMatchObject([{ status: 0 }]);
      });

      it('reports every issue of an invalid body by its path, and throws RequestBuildError', async () => {
        const before = sent.length;
        const rec = recorder();
        const err = await failure(client.call(withBody, { mode: 'm', name: '', items: [{ n: 1 }, { n: 0 }] }, { observer: rec.observer }));
        expect(err).toBeInstanceOf(rest.RequestBuildError);
        expect(rec.validation).toEqual(['body:name', 'body:items[1].n']);
        expect(rec.responses).toMatchObject([{ route: 'POST /body', status: 0 }]);
        const root = recorder();
        expect(await failure(client.call(pair, {}, { observer: root.observer }))).toBeInstanceOf(rest.RequestBuildError);
        expect(root.validation).toEqual(['body:body']);
        expect(sent.length).toBe(before);
        expect(await client.call(withBody, { mode: 'm', name: 'n', items: [{ n: 1 }] })).toEqual({ name: 'n' });
      });

      it('throws parameter and body failures together', async () => {
        const rec = recorder();
        const err = await failure(client.call(withBody, { mode: '', name: '', items: [] }, { observer: rec.observer }));
        expect(err).toBeInstanceOf(rest.RequestValidationError);
        const errors = (err as rest.RequestValidationError).errors as unknown[];
        expect(errors[0]).toBeInstanceOf(rest.QueryParamError);
        expect(errors[1]).toBeInstanceOf(rest.RequestBuildError);
        expect(rec.validation).toEqual(['query:mode', 'body:name']);
      });
    });

    describe('observer', () => {
      it("uses the client's observer, never the route's: a served route's observer sees the server response once", async () => {
        serverSide.responses.length = 0;
        expect(await client.call(observed, {})).toEqual({ ok: true });
        expect(serverSide.responses).toEqual([{ route: 'GET /observed', status: 200 }]);

        const clientSide = recorder();
        const observing = rest.newClient({ observer: clientSide.observer });
        observing.attach(clientTransport({ baseURL: base }));
        await observing.call(observed, {});
        expect(clientSide.responses).toEqual([{ route: 'GET /observed', status: 200 }]);
        expect(serverSide.responses).toHaveLength(2);

        const perCall = recorder();
        await observing.call(observed, {}, { observer: perCall.observer });
        expect(perCall.responses).toHaveLength(1);
        expect(clientSide.responses).toHaveLength(1);
        expect(serverSide.responses).toHaveLength(3);
      });
    });

    describe('redirects', () => {
      it('receives a declared 302 without following it, and returns its Location', async () => {
        targetHits = 0;
        const before = sent.length;
        expect(await client.call(go, {})).toEqual({ location: '/target' });
        expect(sent.slice(before).map((s) => [s.url.pathname, s.redirect])).toEqual([['/go', 'manual']]);
        expect(targetHits).toBe(0);
      });

      it('decodes the body of a declared 3xx that has one', async () => {
        targetHits = 0;
        expect(await client.call(seeOther, {})).toEqual({ id: 'w-1', location: '/target?id=w-1' });
        expect(targetHits).toBe(0);
      });

      it('turns a 3xx the route does not declare into UnexpectedStatusError', async () => {
        targetHits = 0;
        const err = await failure(client.call(goDeclared200, {}));
        expect(err).toBeInstanceOf(rest.UnexpectedStatusError);
        expect(err).toMatchObject({ statusCode: 302, path: '/go' });
        expect(targetHits).toBe(0);
      });

      it("explains a browser's opaque-redirect response", async () => {
        const browserLike = rest.newClient();
        browserLike.attach(
          nodeHttp.newClientTransport({
            baseURL: base,
            httpClient: (_input, init) => {
              expect(init.redirect).toBe('manual');
              // What a browser's fetch gives for `redirect: 'manual'`: status 0, no headers.
              return Promise.resolve({ type: 'opaqueredirect', status: 0, ok: false, headers: new Headers(), arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)) } as unknown as Response);
            },
          }),
        );
        const err = await failure(browserLike.call(go, {}));
        expect(err).toBeInstanceOf(rest.ResponseBodyError);
        expect((err as Error).message).toMatch(/browsers hide redirect responses from scripts/);
      });
    });

    describe('repeated query keys', () => {
      const searchOf = async (call: () => Promise<unknown>): Promise<string> => {
        const before = sent.length;
        await call();
        expect(sent.length).toBe(before + 1);
        return (sent[sent.length - 1] as { url: URL }).url.search;
      };

      it('sends one key per element of a multi-valued merge parameter, and nothing for an empty array', async () => {
        expect(await searchOf(() => client.call(nums, { n: [1, 2] }))).toBe('?n=1&n=2');
        expect(await searchOf(() => client.call(nums, { n: [] }))).toBe('');
        expect(await searchOf(() => client.call(nums, {}))).toBe('');
      });

      it('refuses an empty array for a required multi-valued parameter, and an element that fails its codec', async () => {
        const before = sent.length;
        const empty = await failure(client.call(requiredNums, { n: [] }));
        expect(empty).toBeInstanceOf(rest.QueryParamError);
        expect((empty as Error).message).toBe('query parameter "n": must not be empty');
        expect(await failure(client.call(nums, {}, { queryParams: { n: ['3', 'x'] } }))).toBeInstanceOf(rest.QueryParamError);
        expect(sent.length).toBe(before);
      });

      it('sends one key per element of an explicit array, declared or not', async () => {
        expect(await searchOf(() => client.call(nums, { n: [1] }, { queryParams: { n: ['3', '4'], extra: ['x', 'y'] } }))).toBe('?n=3&n=4&extra=x&extra=y');
        expect(await searchOf(() => client.call(nums, {}, { queryParams: { n: '5' } }))).toBe('?n=5');
      });

      it('round-trips an array query parameter through the server', async () => {
        expect(await client.call(tags, { tags: ['a', 'b'] })).toEqual({ tags: ['a', 'b'] });
        expect(await client.call(tags, { tags: ['solo'] })).toEqual({ tags: ['solo'] });
        expect(await client.call(tags, {})).toEqual({ tags: [] });
      });
    });
  });
}
