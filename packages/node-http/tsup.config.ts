import { packageConfig } from '../../tsup.shared.js';

// server-transport.ts loads find-my-way with `require` where there is one (CommonJS, a bundle)
// and `createRequire` otherwise: the ES module build keeps that `require` call as written.
export default packageConfig(['src/index.ts', 'src/client.ts'], {
  esbuildOptions(options) {
    options.logOverride = { ...options.logOverride, 'unsupported-require-call': 'silent' };
  },
});
