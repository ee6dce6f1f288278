import { packageConfig } from '../../tsup.shared.js';

// `treeshake: false`: esbuild bundles the CommonJS entry, and keeps the modules the mock server
// loads with `import()` (hono, @lib/router-adapter) behind it: `require`d when it starts, not
// when `@lib/testing` is. (Rollup's tree shaking hoists their `require`s to the top of the file.)
export default packageConfig(['src/index.ts', 'src/msw.ts'], { treeshake: false });
