import { UnsupportedParamKindError } from './errors.js';
import type { ParamKind } from './params.js';
import type { Route } from './route.js';
import type { SecurityScheme } from './security.js';

/** What a transport, server or client, implements: checked against each route it carries. */
export interface TransportCoverage {
  /** The adapter's name, for error messages (`node-http`, `router-adapter`). */
  readonly adapter: string;
  /** The parameter kinds the adapter implements. */
  readonly paramKinds: ReadonlySet<ParamKind>;
  /** Capability levels the adapter supplies (`qos`, `hwm`); the HTTP adapters supply none. */
  readonly capabilities: ReadonlyMap<string, number>;
}

/** The parameter kinds of an HTTP adapter: all of them. */
export const HTTP_PARAM_KINDS: ReadonlySet<ParamKind> = new Set<ParamKind>(['path', 'query', 'header', 'cookie', 'responseHeader', 'responseCookie']);

/**
 * Checks that `transport` implements every parameter kind and capability the route declares,
 * and the location of every security scheme the route uses (`schemes`: an API key in a cookie
 * needs cookies; HTTP, OAuth 2 and OpenID Connect schemes the `Authorization` header).
 * @throws {UnsupportedParamKindError} @throws {CapabilityCoverageError}
 */
export function checkCoverage(route: Route<unknown, unknown>, transport: TransportCoverage, schemes: Iterable<SecurityScheme<unknown>> = []): void {
  const kinds = transport.paramKinds;
  for (const p of route.params) if (!kinds.has(p.kind)) throw new UnsupportedParamKindError(p.kind, transport.adapter);
  for (const a of route.middleware) for (const p of a.middleware.params) if (!kinds.has(p.kind)) throw new UnsupportedParamKindError(p.kind, transport.adapter);
  for (const s of schemes) {
    const kind = s.object.type === 'apiKey' ? (s.object.in ?? 'header') : 'header';
    if (!kinds.has(kind)) throw new UnsupportedParamKindError(kind, transport.adapter);
  }
  route.requirements[0]?.checkCoverage(route.id, route.requirements, transport.capabilities);
}
