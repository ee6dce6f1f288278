import type { SecurityRequirement } from '@lib/openapi';
import type { CorsPolicy } from '../declare/cors.js';
import type { RouteRegistry } from '../declare/route.js';
import type { SecurityScheme } from '../declare/security.js';

/** What the builder says of every route's security: read by the pipeline (401) and the document. */
export interface SecuritySettings {
  /** The requirements of routes that declare none (`addGlobalSecurity`). */
  readonly globalSecurity: readonly SecurityRequirement[];
  /** The security schemes requirements name (`addSecurityScheme`), by name. */
  readonly securitySchemes: ReadonlyMap<string, SecurityScheme<unknown>>;
}

/** What the builder serving a route says about how every route is served. */
export interface ServingSettings extends SecuritySettings {
  /** The prefix every route is served under (`rest.withBasePath`): `/api`, or `''`. */
  readonly basePath: string;
  /** The CORS policy of every route (`rest.cors`), when any. */
  readonly cors: CorsPolicy | undefined;
}

/**
 * The settings a registry gives its routes, without a base path (a registry does not say one):
 * for a caller that prepares or describes a route on its own. `undefined` (a route registered
 * nowhere) gives no CORS and no security.
 */
export function registrySettings(registry: RouteRegistry | undefined): ServingSettings {
  return {
    basePath: '',
    cors: registry?.cors,
    globalSecurity: registry?.globalSecurity() ?? [],
    securitySchemes: registry?.securitySchemes() ?? new Map(),
  };
}
