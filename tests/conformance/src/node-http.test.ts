import * as nodeHttp from '@lib/node-http';
import { conformance } from './suite.js';

conformance({
  name: '@lib/node-http',
  async serve(api) {
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const served = api.serve({ signal: stop.signal });
    const { port } = await transport.listening();
    return {
      baseURL: `http://127.0.0.1:${port}`,
      stop: async () => {
        stop.abort();
        await served;
      },
    };
  },
});
