/**
 * `@lib/router-adapter`: `@lib/rest` routes on a Hono app. `transport.router.fetch` serves them
 * on any runtime with `Request` and `Response` (Node, Bun, Deno, Workers); with an `addr`, the
 * transport listens on Node itself. The client side is the `fetch` transport.
 */
export { HonoServerTransport, honoContextFromContext, newServerTransport, requestFromContext } from './server-transport.js';
export type { ServerTransportOptions } from './server-transport.js';
export { FetchClientTransport, newClientTransport } from '@lib/node-http/client';
export type { ClientTransportOptions, FetchFunction } from '@lib/node-http/client';
export { ErrorPatternResponse, PipelineNoResponseError, RequestBuildError, RequestError, ResponseBodyError, responseHeadersFromContext, setCookie, UnexpectedStatusError, withResponseCookies } from '@lib/rest';
export type { CookieOptions, HeaderSink, Options, ResponseCookie, ResponseHeaderSink } from '@lib/rest';
