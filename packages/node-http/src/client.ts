/**
 * `@lib/node-http/client`: the client side, without any `node:` module (browsers, Deno, Bun,
 * Workers).
 */
export { FetchClientTransport, newClientTransport } from './client-transport.js';
export type { ClientTransportOptions, FetchFunction } from './client-transport.js';
export { ErrorPatternResponse, RequestBuildError, RequestError, ResponseBodyError, UnexpectedStatusError } from '@lib/rest';
