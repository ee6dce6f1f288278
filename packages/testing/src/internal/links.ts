import type { LinkDescriptor } from '@lib/openapi';
import type { Scalar, StateRecord } from './state.js';

/** What a link's runtime expressions read: one exchange of the run. */
export interface LinkSource {
  readonly status: number;
  /** The request's parameter values by name (header names in lower case). */
  readonly params: Readonly<Record<string, Scalar>>;
  /** The request body's wire value, when it had one. */
  readonly body: unknown;
  /** The answer's body parsed as JSON, when it was. */
  readonly json: unknown;
  readonly headers: Headers;
}

/** The value at an RFC 6901 JSON pointer (`''` is the whole value). */
function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let v = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * The value of a runtime expression (OpenAPI 3.1 §4.8.20.4) for one exchange: `$statusCode`, a
 * request's path, query or header parameter or body, a response's header or body; a constant as
 * it is. `undefined` where the exchange has nothing scalar there (or for `$url` and `$method`).
 */
export function evaluate(expression: string, x: LinkSource): Scalar | undefined {
  if (!expression.startsWith('$')) return expression;
  if (expression === '$statusCode') return x.status;
  const m = /^\$(request|response)\.(header|query|path|body)(?:\.(.+)|#(.*))?$/.exec(expression);
  if (m === null) return undefined;
  const [, side, part, name, pointer] = m;
  let v: unknown;
  if (part === 'body') v = at(side === 'request' ? x.body : x.json, pointer ?? '');
  else if (side === 'response') v = part === 'header' && name !== undefined ? (x.headers.get(name) ?? undefined) : undefined;
  else if (name !== undefined) v = x.params[part === 'header' ? name.toLowerCase() : name];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/**
 * The record a successful exchange offers through a route's links: each link's parameters,
 * evaluated, under the target's parameter names (a `path.`, `query.`, `header.` or `cookie.`
 * qualifier dropped). Parameters with nothing to give are left out.
 */
export function linkRecords(links: Readonly<Record<string, LinkDescriptor>> | undefined, x: LinkSource): StateRecord[] {
  const out: StateRecord[] = [];
  for (const link of Object.values(links ?? {})) {
    const r: Record<string, Scalar> = {};
    for (const [param, expression] of Object.entries(link.parameters ?? {})) {
      const v = evaluate(expression, x);
      if (v !== undefined) r[param.replace(/^(?:path|query|header|cookie)\./, '')] = v;
    }
    if (Object.keys(r).length > 0) out.push(r);
  }
  return out;
}
