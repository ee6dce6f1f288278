import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';
import type { AdapterUnderTest } from './suite.js';

/** A server transport that listens on an address it reports once bound. */
type ListeningTransport = rest.ServerTransport & { listening(): Promise<{ readonly port: number }> };

/** An adapter under test whose transport `make()` listens on 127.0.0.1, port 0, served until `stop()`. */
export function listeningAdapter(name: string, make: () => ListeningTransport): AdapterUnderTest {
  return {
    name,
    async serve(api, options) {
      const transport = make();
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
}

/** The node:http adapter under test. */
export const nodeHttpAdapter: AdapterUnderTest = listeningAdapter('@lib/node-http', () => nodeHttp.newServerTransport({ addr: '127.0.0.1:0' }));
