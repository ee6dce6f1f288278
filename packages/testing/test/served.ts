// Serves a builder on 127.0.0.1 port 0 with @lib/node-http for the length of `use`, then shuts
// it down and waits for it: the real server the kit's tests check.
import * as nodeHttp from '@lib/node-http';
import type * as rest from '@lib/rest';

export async function served<T>(api: rest.Server, use: (baseURL: string) => Promise<T>): Promise<T> {
  const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
  api.attach(transport);
  const stop = new AbortController();
  const done = api.serve({ signal: stop.signal });
  const { host, port } = await transport.listening();
  try {
    return await use(`http://${host}:${port}`);
  } finally {
    stop.abort();
    await done;
  }
}
