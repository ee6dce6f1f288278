/**
 * The bookstore, implemented against the routes generated from openapi.yaml: one handler per
 * operation, registered on a server that `register` gave the document's security scheme and tags.
 * A handler answers a status the document declares by throwing the generated `ResponseError`.
 */
import { timingSafeEqual } from 'node:crypto';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { info, register, ResponseError, routes, securitySchemes } from './generated/bookstore.js';
import { Store, StoreError } from './store.js';

/** Who a write speaks for: set by the security check (a route behind bearerAuth reads it without `undefined`). */
export const staff = rest.principalKey<string>('staff');

/** The store's refusals as the statuses the document declares for them. */
function answer<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const status = err.code === 'not-found' ? 404 : 422;
    throw new ResponseError(status, { error: err.code, detail: err.message });
  }
}

/** The server with every generated route implemented. Writes need `Authorization: Bearer <apiKey>`. */
export function buildApi(apiKey: string, store: Store = new Store()): rest.Server {
  const key = Buffer.from(apiKey);
  const api = rest.newServer(
    info,
    rest.withDefaultOptions({
      // The document's bearerAuth: the token is the staff's API key. A throw answers 401.
      securityFunc: (ctx) => {
        const token = Buffer.from(securitySchemes.bearerAuth?.credential(ctx) ?? '');
        if (token.length !== key.length || !timingSafeEqual(token, key)) throw new Error('unknown API key');
        ctx.set(staff, 'staff');
      },
    }),
  );
  register(api);
  routes.listBooks.withHandler((_ctx, req) => store.list(req.author, req.limit ?? 20)).register(api);
  routes.createBook.withHandler((_ctx, req) => answer(() => store.create(req))).register(api);
  routes.getBook.withHandler((_ctx, req) => answer(() => store.get(req.bookId))).register(api);
  routes.updateBook
    .withHandler((_ctx, { bookId, ...book }) => answer(() => store.replace(bookId, book)))
    .register(api);
  routes.deleteBook.withHandler((_ctx, req) => answer(() => store.remove(req.bookId))).register(api);
  routes.listReviews.withHandler((_ctx, req) => answer(() => store.reviewsOf(req.bookId))).register(api);
  routes.addReview
    .withHandler((_ctx, { bookId, ...review }) => answer(() => store.addReview(bookId, review)))
    .register(api);
  return api;
}

/** Serves the bookstore on `addr` (`127.0.0.1:0` picks a port) until `signal` aborts. */
export async function startServer(addr: string, signal: AbortSignal, apiKey: string): Promise<{ api: rest.Server; address: { host: string; port: number }; done: Promise<void> }> {
  const api = buildApi(apiKey);
  const transport = nodeHttp.newServerTransport({ addr });
  api.attach(transport);
  const done = api.serve({ signal });
  const address = await transport.listening();
  return { api, address, done };
}
