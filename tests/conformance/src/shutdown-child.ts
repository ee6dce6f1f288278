/**
 * A server in a process of its own, for the shutdown case that only a whole process shows: a
 * handler that never settles while the client's unread body has paused the connection. It
 * prints its port, aborts its serve signal when stdin closes, and prints `served` once
 * `await api.serve()` returned — a process that ends first exits with "unsettled top-level await".
 * Usage: `node --import tsx --conditions lib-source shutdown-child.ts node-http|router-adapter`.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as nodeHttp from '@lib/node-http';
import * as hono from '@lib/router-adapter';

const waitRoute = rest.route({ method: 'GET', path: '/wait', response: codec.object({ ok: codec.boolean() }) });
const api = rest.newServer({ title: 'Shutdown', version: '1.0.0' });
waitRoute.withHandler(() => new Promise<never>(() => undefined)).register(api);
const transport = process.argv[2] === 'router-adapter' ? hono.newServerTransport({ addr: '127.0.0.1:0' }) : nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
api.attach(transport);
const stop = new AbortController();
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => stop.abort());
const served = api.serve({ signal: stop.signal, shutdownTimeout: 1500 });
const { port } = await transport.listening();
process.stdout.write(`port ${port}\n`);
await served;
process.stdout.write('served\n');
