import * as nodeHttp from '@lib/node-http';
import type { AdapterUnderTest } from './suite.js';

/** The node:http adapter under test: a transport on 127.0.0.1, port 0, served until `stop()`. */
export const nodeHttpAdapter: AdapterUnderTest = {
  name: '@lib/node-http',
  async serve(api, options) {
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
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
