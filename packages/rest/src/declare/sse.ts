import { string, type Codec } from '@lib/codec';
import { mediaTypeOf, sse, SSEFormat, type Format, type SSEEvent } from '@lib/format';
import { formats, ResponseFormats } from './formats.js';
import { RequestMergeParam } from './params.js';
import { RouteDeclarationError } from './path-template.js';
import type { DeclaredError } from './error-rules.js';
import { declareRoute, type PositionalOptions, type Route } from './route.js';
import type { RouteOption } from './route-option.js';

/** What every SSE route's request carries: the id of the last event a reconnecting client saw. */
export interface SSERequest {
  /** `Last-Event-ID` (WHATWG HTML §9.2.4), sent by a client resuming a stream. */
  lastEventId?: string | undefined;
}

/** The response value of an SSE route: its events, as they happen. */
export type EventStream<E> = AsyncIterable<SSEEvent<E>>;

/**
 * An SSE route (server-sent events, `text/event-stream`, WHATWG HTML §9.2): the same method,
 * path, parameters, error rules, security and middleware as `newRoute`, and a response that is a
 * stream of typed events. The handler returns (or is) an `AsyncIterable<{ data, event?, id?,
 * retry? }>`; each event's `data` is encoded by `eventCodec` as one JSON `data:` line.
 *
 * ```ts
 * const userEvents = rest.newSSERoute('GET', '/users/events', codec.empty<object>(), userEvent);
 * userEvents.withHandler(async function* (ctx, req) {
 *   for await (const e of bus.subscribe(ctx.signal, req.lastEventId)) yield { data: e, id: e.seq };
 * });
 * for await (const ev of await client.call(userEvents, {})) console.log(ev.data);
 * ```
 *
 * - The request gets an optional `Last-Event-ID` header merged into `lastEventId`.
 * - Errors thrown before the stream opens (by the handler, or by the event source before its
 *   first event or within `openAfterMs`) go through the error rules (status and body). After,
 *   the stream ends with an `event: error` whose data the format declares (`format.sse(codec,
 *   { errorEvent })`, default `{ "error": "internal server error" }`).
 * - The server sends `Cache-Control: no-cache`, a heartbeat comment every `heartbeatMs` of
 *   silence (15 s), and stops the source when the client goes away (`ctx.signal` aborts, the
 *   iterator's `return()` runs).
 * - The client's call resolves once the stream is open, to an `AsyncIterable` of decoded,
 *   checked events; `ClientCallOptions.reconnect` resumes a broken stream with `Last-Event-ID`.
 * - A browser bundle carries the format's declaration only: its reader, writer and parser load
 *   with a dynamic `import()` when the first stream opens (see `format.SSEFormat`).
 *
 * `rest.route({ method, path, events: eventCodec, ... })` declares the same route in the object form.
 *
 * Options: any route option (error patterns among the first sixteen type the error bodies, as in
 * `newRoute`); `rest.formats(format.sse(eventCodec, options))` sets the SSE
 * options (heartbeat, error event); it must be an SSE format of the same event codec.
 * @throws {RouteDeclarationError} as `newRoute`, or when the declared formats are not one SSE format.
 */
export function newSSERoute<Req, E, const P extends string = string, E1 extends DeclaredError = never, E2 extends DeclaredError = never, E3 extends DeclaredError = never, E4 extends DeclaredError = never, E5 extends DeclaredError = never, E6 extends DeclaredError = never, E7 extends DeclaredError = never, E8 extends DeclaredError = never, E9 extends DeclaredError = never, E10 extends DeclaredError = never, E11 extends DeclaredError = never, E12 extends DeclaredError = never, E13 extends DeclaredError = never, E14 extends DeclaredError = never, E15 extends DeclaredError = never, E16 extends DeclaredError = never>(
  method: string,
  path: P,
  reqCodec: Codec<Req>,
  eventCodec: Codec<E>,
  ...opts: PositionalOptions<Req & SSERequest, EventStream<E>, E1, E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13, E14, E15, E16>
): Route<Req & SSERequest, EventStream<E>, P, Req & SSERequest, E1 | E2 | E3 | E4 | E5 | E6 | E7 | E8 | E9 | E10 | E11 | E12 | E13 | E14 | E15 | E16> {
  const declared = opts.filter((o): o is ResponseFormats<EventStream<E>> => o instanceof ResponseFormats).at(-1);
  const rest = opts.filter((o) => !(o instanceof ResponseFormats)) as RouteOption<never, never, unknown>[];
  const codec = eventStreamOptions(`${method.toUpperCase()} ${path}`, eventCodec, declared?.formats, rest);
  return declareRoute<Req & SSERequest, EventStream<E>, P>(method, path, reqCodec as Codec<Req & SSERequest>, codec as Codec<EventStream<E>>, rest);
}

/**
 * What makes a route an event stream, shared by {@link newSSERoute} and the object form's
 * `events`: appends to `opts` the optional `Last-Event-ID` header (merged into `lastEventId`)
 * and the one response format — the declared one (`format.sse(eventCodec, options)`), else
 * `format.sse(eventCodec)` — and returns the response codec. A client loads the format's reader
 * when it first opens a stream.
 * @throws {RouteDeclarationError} when the declared formats are not one event-stream format.
 * @internal
 */
export function eventStreamOptions(routeId: string, eventCodec: Codec<unknown>, declared: readonly Format<unknown>[] | undefined, opts: RouteOption<never, never, unknown>[]): Codec<unknown> {
  const fmt = declared === undefined ? sse(eventCodec) : declared[0];
  if (!(fmt instanceof SSEFormat) || (declared !== undefined && declared.length > 1)) {
    throw new RouteDeclarationError(routeId, 'an SSE route serves one format, format.sse(eventCodec, options)');
  }
  const lastEventId = new RequestMergeParam<SSERequest, string>({
    kind: 'header',
    name: 'Last-Event-ID',
    codec: string(),
    required: false,
    get: (r) => r.lastEventId,
    set: (r, v) => {
      r.lastEventId = v;
    },
    description: 'The id of the last event a reconnecting client received; the stream resumes after it.',
  });
  opts.push(lastEventId as RouteOption<never, never, unknown>, formats(fmt) as RouteOption<never, never, unknown>);
  return fmt.codec;
}

/** True for an event-stream route ({@link newSSERoute}, or `rest.route({ events })`): its one response format is an event stream. */
export function isSSERoute(route: Pick<Route<unknown, unknown>, 'responseFormats'>): boolean {
  const f = route.responseFormats;
  return f !== undefined && f.length === 1 && f[0] !== undefined && mediaTypeOf(f[0].contentType) === 'text/event-stream';
}
