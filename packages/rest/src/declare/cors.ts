/**
 * Cross-origin resource sharing (the CORS protocol of the WHATWG Fetch standard, §3.2): which
 * browser origins may call the API, with which methods and headers, and which response headers
 * their scripts may read.
 */

/** Which origins may call the API: `'*'`, one origin, a list, or a predicate. */
export type CorsOrigin = '*' | string | readonly string[] | ((origin: string) => boolean);

/** Options of {@link cors}. */
export interface CorsOptions {
  /** The allowed origins (`https://app.example.com`, scheme and host and port, no path). */
  readonly origin: CorsOrigin;
  /**
   * The methods a preflight allows. Default: the methods the requested path has routes for
   * (so a preflight never promises a method the server answers with 405).
   */
  readonly methods?: readonly string[];
  /**
   * The request headers a preflight allows. Default: the headers the preflight asks for
   * (`Access-Control-Request-Headers`), which is what a browser client of this API sends.
   */
  readonly allowHeaders?: readonly string[];
  /**
   * Response headers scripts may read, beyond those the route declares (the declared response
   * headers are exposed automatically, so the typed client in a browser can read them).
   */
  readonly exposeHeaders?: readonly string[];
  /** Allow cookies and `Authorization` (`Access-Control-Allow-Credentials: true`). Default false. With it, `'*'` answers with the request's origin. */
  readonly credentials?: boolean;
  /** How long a browser may cache a preflight, in seconds (`Access-Control-Max-Age`). Default: not sent (browsers use 5 s). */
  readonly maxAge?: number;
}

/** A builder option enabling CORS for every route of the builder ({@link cors}). */
export interface CorsOption {
  readonly optionKind: 'cors';
  readonly options: CorsOptions;
}

/**
 * CORS for every route of the builder, as a route-agnostic option:
 * `rest.newServer(info, rest.cors({ origin: 'https://app.example.com', credentials: true }))`.
 * Preflight `OPTIONS` requests are answered 204 for every path that has routes (before: 405);
 * actual requests from an allowed origin get `Access-Control-Allow-Origin` (and `Vary: Origin`)
 * on every answer, errors included, and `Access-Control-Expose-Headers` listing the route's
 * declared response headers.
 * @throws {TypeError} for a `maxAge` that is not a non-negative integer, or an origin list entry
 * that is not an origin (`scheme://host[:port]`).
 */
export function cors(options: CorsOptions): CorsOption {
  if (options.maxAge !== undefined && (!Number.isInteger(options.maxAge) || options.maxAge < 0)) {
    throw new TypeError(`cors maxAge must be a non-negative integer number of seconds, got ${String(options.maxAge)}`);
  }
  const list = typeof options.origin === 'string' ? (options.origin === '*' ? [] : [options.origin]) : Array.isArray(options.origin) ? options.origin : [];
  for (const o of list as readonly string[]) {
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i.test(o)) throw new TypeError(`cors origin ${JSON.stringify(o)} is not an origin (scheme://host[:port])`);
  }
  return { optionKind: 'cors', options };
}

/** CORS compiled for a builder: the headers of actual responses and the answer to preflights. */
export interface CorsPolicy {
  /** The CORS headers of an actual response to a request from `origin` (none when it is not allowed). */
  responseHeaders(origin: string | undefined, exposed: readonly string[]): [string, string][];
  /**
   * The headers of a preflight's 204, or `undefined` when the request is not a preflight (no
   * `Origin` or no `Access-Control-Request-Method`). An origin that is not allowed gets a 204
   * without `Access-Control-Allow-Origin`: the browser then refuses the call.
   */
  preflight(header: (name: string) => string | undefined, pathMethods: readonly string[]): [string, string][] | undefined;
}

/** Compiles {@link CorsOptions} once, at serve time. */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const o = options.origin;
  const allowed: (origin: string) => boolean =
    typeof o === 'function' ? o : o === '*' ? () => true : typeof o === 'string' ? (x) => x === o : (x) => (o as readonly string[]).includes(x);
  const credentials = options.credentials === true;
  const wildcard = o === '*' && !credentials;
  const allowOrigin = (origin: string): [string, string][] => {
    const out: [string, string][] = [['access-control-allow-origin', wildcard ? '*' : origin]];
    if (credentials) out.push(['access-control-allow-credentials', 'true']);
    return out;
  };
  // The answer depends on Origin unless it is always '*' (Fetch §3.2.5; RFC 9110 §12.5.5).
  const vary: [string, string][] = wildcard ? [] : [['vary', 'Origin']];
  const extra = options.exposeHeaders ?? [];
  return {
    responseHeaders(origin, exposed) {
      if (origin === undefined || !allowed(origin)) return [...vary];
      const out = [...allowOrigin(origin), ...vary];
      const expose = [...new Set([...exposed, ...extra].map((h) => h.toLowerCase()))].filter((h) => h !== 'set-cookie');
      if (expose.length > 0) out.push(['access-control-expose-headers', expose.join(', ')]);
      return out;
    },
    preflight(header, pathMethods) {
      const origin = header('origin');
      const method = header('access-control-request-method');
      if (origin === undefined || method === undefined) return undefined;
      const out: [string, string][] = [['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers']];
      if (!allowed(origin)) return out;
      const methods = options.methods ?? pathMethods;
      out.push(...allowOrigin(origin), ['access-control-allow-methods', methods.join(', ')]);
      const requested = header('access-control-request-headers');
      const headers = options.allowHeaders?.join(', ') ?? requested;
      if (headers !== undefined && headers !== '') out.push(['access-control-allow-headers', headers]);
      if (options.maxAge !== undefined) out.push(['access-control-max-age', String(options.maxAge)]);
      return out;
    },
  };
}
