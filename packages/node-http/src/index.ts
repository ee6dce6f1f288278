export * from './client.js';
export { PipelineNoResponseError } from '@lib/rest';
export type { Options } from '@lib/rest';
export { responseHeadersFromContext, setCookie, withResponseCookies } from '@lib/rest';
export type { CookieOptions, HeaderSink, ResponseCookie, ResponseHeaderSink } from '@lib/rest';
export {
  clientErrorListener,
  closeUnreadBodies,
  connectListener,
  DEFAULT_HEADERS_TIMEOUT,
  DEFAULT_KEEP_ALIVE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
  NodeHost,
  NodeServerTransport,
  newServerTransport,
  parseAddr,
  readBody,
  sendResponse,
  writeResponse,
} from './server-transport.js';
export { bodyStream } from './streams.js';
export type { Address, Mux, NodeHostOptions, RefuseFunc, ServerTransportOptions } from './server-transport.js';
export { newUndiciClientTransport, UndiciClientTransport } from './undici-transport.js';
export type { UndiciClientTransportOptions } from './undici-transport.js';
