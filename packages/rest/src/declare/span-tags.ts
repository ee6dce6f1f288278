import type { ErrorRule } from './error-rules.js';

/**
 * Span attributes of an error response, named as OpenTelemetry's HTTP semantic conventions name
 * them (`http.route`, `http.response.status_code`, `error.type`), plus `error.pattern`: the
 * class or guard name of the matched error rule, or `none`.
 */
export function spanTags(path: string, status: number, err: unknown, rule: ErrorRule | undefined): Record<string, string | number> {
  // OpenTelemetry's error.type: the class name of the error (its constructor), else its JavaScript type.
  const ctor = typeof err === 'object' && err !== null ? (err as { constructor?: { name?: unknown } }).constructor?.name : undefined;
  const type = typeof ctor === 'string' && ctor !== '' ? ctor : typeof err;
  return { 'http.route': path, 'http.response.status_code': status, 'error.type': type, 'error.pattern': rule === undefined ? 'none' : rule.witness.name || 'anonymous' };
}
