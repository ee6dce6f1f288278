/**
 * Serves a `@lib/rest` API's own OpenAPI 3.1 document and an offline docs page (Swagger UI,
 * shipped inside this package's dependencies: no CDN) from the server itself. The routes it adds
 * are ordinary routes — both adapters serve them — declared `hidden`, so the document does not
 * describe them.
 *
 * @example
 * ```ts
 * import { serveDocs } from '@lib/openapi-ui';
 * serveDocs(api); // GET /openapi.json, /openapi.yaml and the page at /docs
 * ```
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import { Document } from '@lib/openapi';
import * as rest from '@lib/rest';
import type { SwaggerUiFile } from './swagger-ui-files.js';

/** Options of {@link serveDocs}. */
export interface DocsOptions {
  /**
   * Path of the document as JSON (`application/json`); a request whose `Accept` prefers
   * `application/yaml` gets YAML there too. Default `/openapi.json`.
   */
  readonly documentPath?: string;
  /** Path of the document as YAML (`application/yaml`); `false` for none. Default `/openapi.yaml`. */
  readonly yamlPath?: string | false;
  /**
   * Path of the docs page (`text/html`); its scripts and style sheet are served below it
   * (`/docs/swagger-ui-bundle.js`, …). `false` for none. Default `/docs`.
   */
  readonly uiPath?: string | false;
  /** The page's title. Default: the document's `info.title`. */
  readonly title?: string;
  /**
   * Lists the serving origin first in the served document's `servers` (`{ url: '/' }`), so that
   * the page's "Try it out" calls reach the server that served it, whatever its address (a port
   * chosen at start-up, a staging host). Default false: the document is served as rendered.
   */
  readonly sameOrigin?: boolean;
}

/** What {@link serveDocs} registered: the paths it serves. */
export interface ServedDocs {
  /** The JSON document's path. */
  readonly documentPath: string;
  /** The YAML document's path, if any. */
  readonly yamlPath?: string;
  /** The docs page's path, if any. */
  readonly uiPath?: string;
}

const DOCUMENT_JSON = 'application/json';
const DOCUMENT_YAML = 'application/yaml';

/** A response-only format that writes the document as the renderer does (key order, layout). */
function documentFormat(contentType: string, text: (doc: Document) => string): format.TypedFormat<unknown> {
  const cache = new WeakMap<object, Uint8Array>();
  const encoder = new TextEncoder();
  return format.newTyped(
    codec.any(),
    (value) => {
      if (!(value instanceof Document)) throw new TypeError('serveDocs: the document route answers a Document');
      let bytes = cache.get(value);
      if (bytes === undefined) cache.set(value, (bytes = encoder.encode(text(value))));
      return bytes;
    },
    () => {
      throw new TypeError('the OpenAPI document format is response-only');
    },
    contentType,
  );
}

/** A static asset: its bytes, read once at the first request. */
function asset(read: () => Uint8Array | Promise<Uint8Array>, contentType: string, path: string): rest.Route<Record<string, never>, Uint8Array> {
  let bytes: Uint8Array | Promise<Uint8Array> | undefined;
  const route = rest.route({
    method: 'GET',
    path,
    response: codec.bytes(),
    formats: [format.binary(codec.bytes()).withContentType(contentType)],
    meta: { hidden: true, security: [], respDescription: 'A file of the docs page.' },
  });
  return route.withHandler(() => {
    if (bytes === undefined) {
      const read1 = Promise.resolve(read());
      // A read that failed is tried again on the next request.
      bytes = read1.catch((err: unknown) => {
        bytes = undefined;
        throw err;
      });
    }
    return bytes;
  });
}

/** Text safe inside an HTML element or a double-quoted attribute. */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Registers on `api` the routes that serve its OpenAPI 3.1 document and a docs page:
 *
 * - `GET {documentPath}` (default `/openapi.json`): the document as JSON, or as YAML when the
 *   request's `Accept` prefers `application/yaml` (RFC 9110 §12.5.1); 406 for neither.
 * - `GET {yamlPath}` (default `/openapi.yaml`): the document as YAML.
 * - `GET {uiPath}` (default `/docs`): Swagger UI, offline — its script and style sheet come from
 *   the `swagger-ui-dist` package and are served below the page's path. The page lists every
 *   operation and can call them ("Try it out") against the document's first server.
 *
 * The document is rendered at the first request (so routes registered after this call are in it)
 * and kept. The routes are `hidden` (the document does not describe itself) and public
 * (`security: []`); builder middleware (`api.use`) runs for them as for any route. Call it before
 * `api.serve`.
 *
 * @returns the paths served.
 * @throws {import('@lib/rest').DuplicateRouteError} when a path is already taken by a route.
 * @throws {import('@lib/rest').InvalidPathError} when a path is not a valid path template.
 */
export function serveDocs(api: rest.Server, options: DocsOptions = {}): ServedDocs {
  const documentPath = options.documentPath ?? '/openapi.json';
  const yamlPath = options.yamlPath === false ? undefined : (options.yamlPath ?? '/openapi.yaml');
  const uiPath = options.uiPath === false ? undefined : (options.uiPath ?? '/docs');
  let doc: Document | undefined;
  const document = (): Document => {
    if (doc !== undefined) return doc;
    const rendered = api.openAPISpec();
    if (options.sameOrigin === true) {
      const others = (rendered.servers ?? []).filter((s) => s.url !== '/');
      rendered.servers = [{ url: '/', description: 'This server' }, ...others];
    }
    return (doc = rendered);
  };
  const json = documentFormat(DOCUMENT_JSON, (d) => d.marshalJSON());
  const yaml = documentFormat(DOCUMENT_YAML, (d) => d.marshalYAML());
  const meta = { hidden: true, security: [], respDescription: 'The OpenAPI 3.1 document of this API.' } as const;

  rest.route({ method: 'GET', path: documentPath, response: codec.any(), formats: [json, yaml], meta }).withHandler(document).register(api);
  if (yamlPath !== undefined) rest.route({ method: 'GET', path: yamlPath, response: codec.any(), formats: [yaml], meta }).withHandler(document).register(api);
  if (uiPath !== undefined) {
    const base = uiPath.replace(/\/+$/, '');
    // Loaded on the first request for them: an app that never serves the page never loads them.
    const file = (name: SwaggerUiFile) => () => import('./swagger-ui-files.js').then((m) => m.swaggerUiFile(name));
    const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(documentPath)}, dom_id: '#swagger-ui', deepLinking: true });\n`;
    const page = () => {
      const title = escapeHtml(options.title ?? document().info.title);
      return new TextEncoder().encode(
        `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${title}</title>\n` +
          `<link rel="stylesheet" href="${escapeHtml(`${base}/swagger-ui.css`)}">\n</head>\n<body>\n<div id="swagger-ui"></div>\n` +
          `<script src="${escapeHtml(`${base}/swagger-ui-bundle.js`)}"></script>\n<script src="${escapeHtml(`${base}/init.js`)}"></script>\n</body>\n</html>\n`,
      );
    };
    asset(page, 'text/html; charset=utf-8', uiPath).register(api);
    asset(file('swagger-ui-bundle.js'), 'text/javascript; charset=utf-8', `${base}/swagger-ui-bundle.js`).register(api);
    asset(file('swagger-ui.css'), 'text/css; charset=utf-8', `${base}/swagger-ui.css`).register(api);
    asset(() => new TextEncoder().encode(init), 'text/javascript; charset=utf-8', `${base}/init.js`).register(api);
  }
  return { documentPath, ...(yamlPath !== undefined && { yamlPath }), ...(uiPath !== undefined && { uiPath }) };
}
