/**
 * The routes the hostile-input suite ({@link hostile}) attacks: each one copies client input
 * somewhere dangerous (a response header, a cookie, a decoded body, a parameter).
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';

/** A text no answer may ever carry: the message of an error a handler throws on purpose. */
export const HOSTILE_SECRET = 'hostile-secret-9f2c41';

/** What the handlers saw, for assertions that need the server's side. */
export interface HostileState {
  /** Calls of `GET /smuggled`: no hostile request ever legitimately reaches it. */
  smuggled: number;
  /** Calls of every handler. */
  handled: number;
}

interface Ref {
  ref: string;
}
interface RefOut {
  ok: boolean;
  ref?: string;
}
const refParam = rest.newRequiredQueryParam('ref', codec.string(), (r: Ref) => r.ref, (r, v) => {
  r.ref = v;
});

/** `GET /echo-header?ref=…`: the query value goes out as the `X-Ref` response header. */
export const echoHeader = rest.newRoute('GET', '/echo-header', codec.empty<Ref>(), codec.object({ ok: codec.boolean() }) as codec.Codec<RefOut>,
  refParam,
  rest.newOptionalResponseHeaderParam('X-Ref', codec.string(), (r: RefOut) => r.ref, (r, v) => {
    r.ref = v;
  }),
);

/** `GET /echo-cookie?ref=…`: the query value goes out as the `ref` response cookie. */
export const echoCookie = rest.newRoute('GET', '/echo-cookie', codec.empty<Ref>(), codec.object({ ok: codec.boolean() }) as codec.Codec<RefOut>,
  refParam,
  rest.newOptionalResponseCookieParam('ref', codec.string(), (r: RefOut) => r.ref, (r, v) => {
    r.ref = v;
  }),
);

/** The structured body of `POST /things`: strings, ints, a nested object, an array. */
export const thing = codec.object({
  name: codec.string(),
  count: codec.int(),
  tags: codec.array(codec.string()),
  owner: codec.object({ id: codec.string(), level: codec.int() }),
  note: codec.optional(codec.string()),
});
export type Thing = codec.Infer<typeof thing>;
/** `POST /things`: decodes a structured body and answers it (201). `name: "boom"` throws {@link HOSTILE_SECRET}. */
export const createThing = rest.newRoute('POST', '/things', thing, thing);

/** `POST /any`: any JSON value, echoed back as `{ value }`. */
export const echoAny = rest.newRoute('POST', '/any', codec.any(), codec.object({ value: codec.optional(codec.any()) }));

/** A recursive codec: decoding a deeply nested body recurses once per level. */
export interface Tree {
  a?: Tree | undefined;
}
export const tree: codec.Codec<Tree> = codec.object({ a: codec.optional(codec.lazy(() => tree)) });
/** `POST /tree`: decodes (and echoes) a recursive body. */
export const echoTree = rest.newRoute('POST', '/tree', tree, tree);

interface ItemReq {
  id: string;
  tenant: string;
  session: string;
  n?: number;
}
const item = codec.object({ id: codec.string(), tenant: codec.string(), session: codec.string(), n: codec.optional(codec.int()) });
/** `GET /items/{id}`: a path parameter, a required header, a required cookie and an optional int query. */
export const getItem = rest.newRoute('GET', '/items/{id}', codec.empty<ItemReq>(), item,
  rest.newPathParam('id', codec.string(), (r: ItemReq) => r.id, (r, v) => {
    r.id = v;
  }),
  rest.newRequiredHeaderParam('X-Tenant', codec.string(), (r: ItemReq) => r.tenant, (r, v) => {
    r.tenant = v;
  }),
  rest.newRequiredCookieParam('session', codec.string(), (r: ItemReq) => r.session, (r, v) => {
    r.session = v;
  }),
  rest.newOptionalQueryParam('n', codec.intString(), (r: ItemReq) => r.n, (r, v) => {
    r.n = v;
  }),
);

/** `GET /health`: the normal request sent after every batch. */
export const health = rest.newRoute('GET', '/health', codec.empty<object>(), codec.object({ ok: codec.boolean() }));

/** `GET /smuggled`: the target of every request-smuggling attempt; never legitimately reached. */
export const smuggled = rest.newRoute('GET', '/smuggled', codec.empty<object>(), codec.object({ ok: codec.boolean() }));

/** A builder serving every hostile route, and the state its handlers record. */
export function hostileServer(): { readonly api: rest.Server; readonly state: HostileState } {
  const state: HostileState = { smuggled: 0, handled: 0 };
  const api = rest.newServer({ title: 'Hostile', version: '1.0.0' });
  echoHeader
    .withHandler((_ctx, req) => {
      state.handled++;
      return { ok: true, ref: req.ref };
    })
    .register(api);
  echoCookie
    .withHandler((_ctx, req) => {
      state.handled++;
      return { ok: true, ref: req.ref };
    })
    .register(api);
  createThing
    .withHandler((_ctx, req) => {
      state.handled++;
      if (req.name === 'boom') throw new Error(`${HOSTILE_SECRET}: the handler failed`);
      return req;
    })
    .register(api);
  echoAny
    .withHandler((_ctx, req) => {
      state.handled++;
      return { value: req };
    })
    .register(api);
  echoTree
    .withHandler((_ctx, req) => {
      state.handled++;
      return req;
    })
    .register(api);
  getItem
    .withHandler((_ctx, req) => {
      state.handled++;
      return req;
    })
    .register(api);
  health
    .withHandler(() => {
      state.handled++;
      return { ok: true };
    })
    .register(api);
  smuggled
    .withHandler(() => {
      state.smuggled++;
      return { ok: true };
    })
    .register(api);
  return { api, state };
}
