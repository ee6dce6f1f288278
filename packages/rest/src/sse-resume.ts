/**
 * Recognising an event-stream route. Kept apart from the declaration (sse.ts) so that a client
 * can ask without carrying the event-stream code.
 */
import { mediaTypeOf } from '@lib/format';
import type { Route } from './route.js';

/** True for a route declared with `rest.newSSERoute`: its one response format is an event stream. */
export function isSSERoute(route: Route<unknown, unknown>): boolean {
  const f = route.responseFormats;
  return f !== undefined && f.length === 1 && f[0] !== undefined && mediaTypeOf(f[0].contentType) === 'text/event-stream';
}
