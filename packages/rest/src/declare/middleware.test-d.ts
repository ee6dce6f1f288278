import * as codec from '@lib/codec';
import { expectTypeOf, test } from 'vitest';
import * as rest from '../index.js';

interface TraceIn {
  traceId?: string;
  sampled: boolean;
}
interface TraceOut {
  traceId: string;
}
interface GetReq {
  id: string;
}

const traceDecl = rest.declaration('trace', codec.empty<TraceIn>(), codec.empty<TraceOut>());
const route = rest.newRoute('GET', '/things/{id}', codec.empty<GetReq>(), codec.object({ id: codec.string() }),
  rest.newPathParam('id', codec.string(), (r) => r.id, (r, v) => {
    r.id = v;
  }),
);

test('declaration infers In and Out from the codecs; newMiddleware keeps them', () => {
  expectTypeOf(traceDecl).toEqualTypeOf<rest.Declaration<TraceIn, TraceOut>>();
  const inCodec = codec.object({ n: codec.int() });
  const decl = rest.declaration('n', inCodec, codec.object({ s: codec.string() }));
  expectTypeOf(decl).toEqualTypeOf<rest.Declaration<{ n: number }, { s: string }>>();
  expectTypeOf(decl.contextKey).toEqualTypeOf<rest.ContextKey<{ s: string }>>();
  const mw = rest.newMiddleware(decl);
  expectTypeOf(mw).toEqualTypeOf<rest.Middleware<codec.Infer<typeof inCodec>, { s: string }>>();
  expectTypeOf(mw.output).returns.toEqualTypeOf<{ s: string } | undefined>();
  expectTypeOf(rest.newMiddleware(traceDecl)).toEqualTypeOf<rest.Middleware<TraceIn, TraceOut>>();
  // @ts-expect-error a declaration needs both codecs
  rest.declaration('x', codec.empty<TraceIn>());
});

test('merge parameters are typed on In and Out without annotations', () => {
  const mw = rest
    .newMiddleware(traceDecl)
    .withRequestHeader(
      rest.newOptionalHeaderParam('X-Trace', codec.string(), (i) => i.traceId, (i, v) => {
        expectTypeOf(i).toEqualTypeOf<TraceIn>();
        expectTypeOf(v).toEqualTypeOf<string>();
        i.traceId = v;
      }),
    )
    .withRequestQuery(
      rest.newRequiredQueryParam('sampled', codec.boolString(), (i) => i.sampled, (i, v) => {
        expectTypeOf(v).toEqualTypeOf<boolean>();
        i.sampled = v;
      }),
    )
    .withRequestCookie(rest.newOptionalCookieParam('trace', codec.string(), (i) => i.traceId, (i, v) => void (i.traceId = v)))
    .withResponseHeader(
      rest.newRequiredResponseHeaderParam('X-Trace', codec.string(), (o) => o.traceId, (o, v) => {
        expectTypeOf(o).toEqualTypeOf<TraceOut>();
        o.traceId = v;
      }),
    )
    .withResponseCookie(
      rest
        .newOptionalResponseCookieParam('trace', codec.string(), (o: TraceOut) => o.traceId, (o, v) => void (o.traceId = v))
        .withAttributes((o) => {
          expectTypeOf(o).toEqualTypeOf<TraceOut>();
          return { sameSite: 'lax' };
        }),
    );
  expectTypeOf(mw).toEqualTypeOf<rest.Middleware<TraceIn, TraceOut>>();

  // @ts-expect-error In has no field `nope`
  mw.withRequestHeader(rest.newOptionalHeaderParam('X-Nope', codec.string(), (i) => i.nope, () => {}));
  // @ts-expect-error the codec's type must match the field's
  mw.withRequestQuery(rest.newRequiredQueryParam('sampled', codec.string(), (i) => i.sampled, (i, v) => void (i.sampled = v)));
  // @ts-expect-error a getter written for another type is rejected
  mw.withRequestHeader(rest.newOptionalHeaderParam('X-Other', codec.string(), (i: { other: string }) => i.other, () => {}));
  // @ts-expect-error a request parameter is not a response parameter
  mw.withResponseHeader(rest.newOptionalHeaderParam('X-Trace', codec.string(), (o: TraceOut) => o.traceId, () => {}));
  // @ts-expect-error a response parameter is not a request parameter
  mw.withRequestHeader(rest.newOptionalResponseHeaderParam('X-Trace', codec.string(), (i: TraceIn) => i.traceId, () => {}));
  // @ts-expect-error response parameters are typed on Out, not In
  mw.withResponseHeader(rest.newOptionalResponseHeaderParam('X-Trace', codec.string(), (i: TraceIn) => i.traceId, () => {}));
});

test('bundled and bound functions are typed by the route and the declaration', () => {
  const mw = rest.newMiddleware(traceDecl);
  mw.withReceive((ctx, input) => {
    expectTypeOf(ctx).toEqualTypeOf<rest.Context>();
    expectTypeOf(input).toEqualTypeOf<TraceIn>();
    return { traceId: input.traceId ?? 'new' };
  });
  mw.withReceive(async () => ({ traceId: 'async' }));
  mw.withSend(() => ({ sampled: true }));
  mw.withSend(async () => ({ sampled: false, traceId: 't' }));
  // @ts-expect-error a server function must return Out
  mw.withReceive(() => ({ traceId: 1 }));
  // @ts-expect-error a client function must return In
  mw.withSend(() => ({ traceId: 't' }));

  const bound = route
    .handleMW(mw, (ctx, req, input) => {
      expectTypeOf(ctx).toEqualTypeOf<rest.Context>();
      expectTypeOf(req).toEqualTypeOf<GetReq>();
      expectTypeOf(input).toEqualTypeOf<TraceIn>();
      return { traceId: `${req.id}-${input.traceId ?? ''}` };
    })
    .clientMW(mw, (req) => {
      expectTypeOf(req).toEqualTypeOf<GetReq>();
      return { sampled: req.id !== '' };
    });
  expectTypeOf(bound).toEqualTypeOf<typeof route>();
  expectTypeOf(route.use(mw.withReceive(() => ({ traceId: 'x' })))).toEqualTypeOf<typeof route>();
  // @ts-expect-error handleMW's function must return Out
  route.handleMW(mw, () => ({ other: 1 }));
  // @ts-expect-error clientMW's function must return In
  route.clientMW(mw, () => ({ traceId: 'no sampled' }));
  // @ts-expect-error the route's request is a GetReq
  route.handleMW(mw, (_ctx, req: { other: string }) => ({ traceId: req.other }));

  const api = rest.newServer({ title: 't', version: '1' });
  expectTypeOf(api.use(mw.withReceive(() => ({ traceId: 'x' })))).toEqualTypeOf<rest.Server>();
});

test('the handler reads Out from the context, typed', () => {
  const mw = rest.newMiddleware(traceDecl).withReceive(() => ({ traceId: 'x' }));
  route.use(mw).withHandler((ctx, req) => {
    const out = mw.output(ctx);
    expectTypeOf(out).toEqualTypeOf<TraceOut | undefined>();
    expectTypeOf(ctx.get(mw.contextKey)).toEqualTypeOf<TraceOut | undefined>();
    expectTypeOf(ctx.get(traceDecl.contextKey)).toEqualTypeOf<TraceOut | undefined>();
    return { id: `${req.id}:${out?.traceId ?? ''}` };
  });
  // @ts-expect-error Out has no field `nope`
  route.withHandler((ctx) => ({ id: mw.output(ctx)?.nope ?? '' }));
});
