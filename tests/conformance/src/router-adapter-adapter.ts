import * as hono from '@lib/router-adapter';
import type { AdapterUnderTest } from './suite.js';

/** The router adapter under test: a Hono app served on Node at 127.0.0.1, port 0, until `stop()`. */
export const routerAdapter: AdapterUnderTest = {
  name: '@lib/router-adapter',
  async serve(api, options) {
    const transport = hono.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const served = api.serve({ signal: stop.signal, ...options });
    // A serve that fails before listening (a route it refuses) rejects here instead of hanging.
    const { port } = await Promise.race([transport.listening(), served.then(() => Promise.reject(new Error('serve resolved before listening')))]);
    return {
      baseURL: `http://127.0.0.1:${port}`,
      stop: async () => {
        stop.abort();
        await served;
      },
    };
  },
};
