import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';

/** A typed client whose transport counts the requests it really sends, to prove pre-flight refusals send nothing. */
export function countingClient(baseURL: string): { readonly client: rest.Client; sent(): number } {
  let sent = 0;
  const client = rest.newClient();
  client.attach(
    nodeHttp.newClientTransport({
      baseURL,
      httpClient: (input, init) => {
        sent++;
        return fetch(input, init);
      },
    }),
  );
  return { client, sent: () => sent };
}
