import type { MockOptions } from './mock-answers.js';
import type { AnyRoute } from './requests.js';

/** Options of {@link mockServer}: those of `mswHandlers` (`@lib/testing/msw`), and the port. */
export interface MockServerOptions extends MockOptions {
  /** The TCP port on 127.0.0.1; default 0, a free one (read it from `baseURL`). */
  readonly port?: number;
  /**
   * The path the routes are served under (`/api/v1`), as `rest.withBasePath` takes it. Default:
   * the base path of the builder the routes are registered with (`api.handles()`, or routes
   * registered with one), when they share one; else none.
   * @throws {TypeError} (rejects) as `rest.withBasePath` does for a path it refuses.
   */
  readonly basePath?: string;
}

/** A running mock server. */
export interface MockServer {
  /** The base URL of the API it serves: `http://127.0.0.1:<port>` and the base path (`/api/v1`) if any, for `nodeHttp.newClientTransport({ baseURL })`. */
  readonly baseURL: string;
  /**
   * Stops it: no new connections, idle keep-alive connections closed, requests in flight
   * answered; resolves once the listening socket and every connection are closed (no open
   * handle is left). Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * The mock of `mswHandlers` (`@lib/testing/msw`), served over real HTTP from a local server on `127.0.0.1`,
 * for callers that cannot use Mock Service Worker: another process, a client of your own, a
 * language other than JavaScript. The same answers (the same `seed` gives the same values), the
 * same refusals (400 with the error envelope for an invalid request, 406, 415, 413), the same
 * `overrides`; security requirements are not enforced (any credentials, or none, are accepted).
 * Paths are served under the routes' base path (`basePath`), as their server serves them.
 *
 * It listens with `@lib/router-adapter`'s Node server (node:http through `@hono/node-server`)
 * on a `hono` app: those modules are loaded when it starts (a dynamic `import()`), so importing
 * `@lib/testing` in a browser bundle pulls in no Node module, and needs no `hono` (an optional
 * peer dependency: install it to use the mock server).
 *
 * ```ts
 * const mock = await testing.mockServer(routes, { seed: 1 });
 * const client = rest.newClient();
 * client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
 * const user = await client.call(getUser, { id: '5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c11' });
 * await mock.close();
 * ```
 * @throws {TypeError} (rejects) as `mswHandlers` (an override of no route or of an undeclared
 * status, a codec that cannot be generated), or for a `port` that is not an integer from 0 to 65535.
 * @throws {Error} (rejects) when the server cannot listen (`EADDRINUSE`).
 */
export async function mockServer(routes: readonly AnyRoute[], options: MockServerOptions = {}): Promise<MockServer> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new TypeError(`testing.mockServer: port must be an integer from 0 to 65535, got ${String(port)}`);
  // Loaded here, not at the top: `hono` and `@lib/router-adapter` are loaded only when a mock
  // server starts, so importing `@lib/testing` needs neither.
  const { newMockRouter, sharedBasePath } = await import('./mock-router.js');
  const mock = newMockRouter(routes, options, `127.0.0.1:${port}`, options.basePath ?? sharedBasePath(routes));
  const controller = new AbortController();
  const served = mock.api.serve({ signal: controller.signal });
  served.catch(() => undefined);
  let address: { readonly port: number };
  try {
    address = await Promise.race([
      mock.transport.listening(),
      served.then(() => {
        throw new Error('testing.mockServer: the server stopped before it listened');
      }),
    ]);
  } catch (err) {
    controller.abort();
    await served.catch(() => undefined);
    throw err;
  }
  let closed: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${address.port}${mock.api.basePath}`,
    close() {
      controller.abort();
      // `serve` resolves once node:http's server closed; its socket handles are released by
      // libuv in the same turn of the event loop, after the callbacks: wait for that turn to end.
      return (closed ??= served.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0))));
    },
  };
}
