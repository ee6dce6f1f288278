import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';

/**
 * The client transport the suites call through: the fetch transport, or the undici transport
 * when `CONFORMANCE_CLIENT=undici` (the package's test script runs the node-http suite both
 * ways). Tests that need fetch itself (an `httpClient` spy, a browser's opaque redirect) build
 * the fetch transport directly.
 */
export function clientTransport(options: { readonly baseURL: string }): rest.ClientTransport {
  return process.env['CONFORMANCE_CLIENT'] === 'undici' ? nodeHttp.newUndiciClientTransport(options) : nodeHttp.newClientTransport(options);
}
