/**
 * `@lib/testing/msw`: Mock Service Worker handlers of an API from its routes. An entry of its
 * own, so that `@lib/testing` imports neither `msw` nor `hono`: install `msw` (2) and `hono` (4),
 * optional peer dependencies, to use it.
 */
export { mswHandlers } from './msw-handlers.js';
export type { MswHandlersOptions } from './msw-handlers.js';
export type { MockOptions, MockOverride } from './mock-answers.js';
