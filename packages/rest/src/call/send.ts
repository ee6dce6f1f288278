import { RequestBuildError } from '../declare/http-errors.js';
import type { ClientExchange, ClientReply, ClientStreamReply, ClientTransport } from './client-transport.js';

/** A reply as the transport gave it: its body read whole, or as it arrives (an async iterable of chunks). */
export type Reply = ClientReply | ClientStreamReply;

/**
 * Step two of a call: sends `request` through the transport. A call whose response formats read
 * their body as it arrives (`streaming`) is sent with `exchangeStream` where the transport has
 * it; any other with `exchange`. The transport's own promise is returned, so that reading a
 * streamed body starts as soon as the response head arrives. The transport must not follow
 * redirects itself.
 * @throws {RequestBuildError} (rejects) the signal was already aborted (nothing sent), or the transport could not build or send the request.
 * @throws {RequestError} (rejects) the transport failed after sending.
 * @throws {ResponseBodyError} (rejects) the transport could not read the body.
 */
export function sendRequest(transport: ClientTransport, request: ClientExchange, streaming: boolean): Promise<Reply> {
  const signal = request.signal;
  if (signal?.aborted) return Promise.reject(new RequestBuildError('the call was aborted before sending', signal.reason));
  return streaming && transport.exchangeStream !== undefined ? transport.exchangeStream(request) : transport.exchange(request);
}
