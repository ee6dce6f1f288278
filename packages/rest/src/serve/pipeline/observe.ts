import { ErrorLog, type ErrorRule } from '../../declare/error-rules.js';
import type { Observer } from '../../declare/options.js';
import { spanTags } from '../../declare/span-tags.js';

/**
 * Calls an observer's callback: what it throws is dropped, so that an observer never breaks a
 * request. Every observer call of the server goes through it.
 */
export function observeSafely(call: () => void): void {
  try {
    call();
  } catch {
    // An observer never breaks a request.
  }
}

/**
 * Tells `observer` how an error was mapped: the match or miss of the route's rules
 * (`onErrorPattern`), an `ErrorLog` pattern's match (`onErrorLog`), and the span attributes
 * `http.route`, `http.response.status_code`, `error.type` and `error.pattern` (`onSpanTags`),
 * each call through {@link observeSafely}.
 */
export function observeErrorMapping(observer: Observer, route: { readonly id: string; readonly path: string }, m: { readonly rule: ErrorRule; readonly value: unknown } | undefined, status: number, err: unknown): void {
  observeSafely(() => observer.onErrorPattern?.({ route: route.id, matched: m !== undefined, status, error: err }));
  if (m !== undefined && m.rule.optionKind === 'errorPattern' && m.rule.action === ErrorLog) observeSafely(() => observer.onErrorLog?.({ route: route.id, status, error: err, value: m.value }));
  observeSafely(() => observer.onSpanTags?.({ route: route.id, tags: spanTags(route.path, status, err, m?.rule) }));
}
