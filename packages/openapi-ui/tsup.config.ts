import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Options } from 'tsup';
import { packageConfig } from '../../tsup.shared.js';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Builds `src/swagger-ui-files.ts` as a module that holds the text of the Swagger UI files
 * (from `swagger-ui-dist`, Apache-2.0, see NOTICE): the published package serves the docs page
 * on every runtime, without a file system, and does not need `swagger-ui-dist` installed.
 */
const embedSwaggerUi: Plugin = {
  name: 'embed-swagger-ui',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]swagger-ui-files\.ts$/ }, () => {
      const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      const files = Object.fromEntries(['swagger-ui-bundle.js', 'swagger-ui.css'].map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
      const contents = `/** The Swagger UI files the docs page loads (swagger-ui-dist, Apache-2.0), embedded at build time. */
const FILES = ${JSON.stringify(files)};
export async function swaggerUiFile(name) {
  return new TextEncoder().encode(FILES[name]);
}
`;
      return { contents, loader: 'js' };
    });
  },
};

export default packageConfig(['src/index.ts'], { esbuildPlugins: [embedSwaggerUi] });
