/**
 * The files of Swagger UI the docs page loads, by name. From the TypeScript sources (tests, the
 * `lib-source` condition) they are read from `swagger-ui-dist` with the runtime's `node:fs`; the
 * build replaces this module with one that holds their text (see `tsup.config.ts`), so that the
 * published package serves them on every runtime — Workers included — without a file system.
 */

/** The Swagger UI files the docs page loads. */
export type SwaggerUiFile = 'swagger-ui-bundle.js' | 'swagger-ui.css';

/** A file's bytes. @throws {Error} where the runtime has no `node:fs` (only the sources read files). */
export async function swaggerUiFile(name: SwaggerUiFile): Promise<Uint8Array> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  const mod = proc?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (fs === undefined || mod === undefined) throw new Error('@lib/openapi-ui: the sources read Swagger UI from node_modules; the built package embeds it');
  const dir = mod.createRequire(import.meta.url).resolve('swagger-ui-dist/package.json').replace(/package\.json$/, '');
  return new Uint8Array(fs.readFileSync(`${dir}${name}`));
}
