import * as hono from '@lib/router-adapter';
import { listeningAdapter } from './node-http-adapter.js';
import type { AdapterUnderTest } from './suite.js';

/** The router adapter under test: a Hono app served on Node. */
export const routerAdapter: AdapterUnderTest = listeningAdapter('@lib/router-adapter', () => hono.newServerTransport({ addr: '127.0.0.1:0' }));
