import * as nodeHttp from '@lib/node-http';
import { clientContract } from './client-contract.js';
import { contract } from './contract.js';
import { hardening } from './hardening.js';
import { openapiContract } from './openapi-contract.js';
import { conformance, type AdapterUnderTest } from './suite.js';

const adapter: AdapterUnderTest = {
  name: '@lib/node-http',
  async serve(api, options) {
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const served = api.serve({ signal: stop.signal, ...options });
    const { port } = await transport.listening();
    return {
      baseURL: `http://127.0.0.1:${port}`,
      stop: async () => {
        stop.abort();
        await served;
      },
    };
  },
};

conformance(adapter);
clientContract(adapter);
hardening(adapter);
contract(adapter);
openapiContract(adapter);
