// The architecture, checked on every `pnpm test` (dependency-cruiser). Type-only imports count:
// a reader follows them as much as the code does.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      comment: 'No module reaches itself through its imports, in any package: each package reads top to bottom.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'rest-declare-is-pure',
      comment: '@lib/rest: declarations (routes, parameters, error rules, middleware, security schemes) import neither the server (serve/) nor the client (call/).',
      severity: 'error',
      from: { path: '^packages/rest/src/declare/', pathNot: '\\.test(-d)?\\.ts$' },
      to: { path: '^packages/rest/src/(serve|call)/' },
    },
    {
      name: 'rest-call-without-serve',
      comment: '@lib/rest: the client (call/) never imports the server (serve/): a browser bundle carries none of it.',
      severity: 'error',
      from: { path: '^packages/rest/src/call/', pathNot: '\\.test(-d)?\\.ts$' },
      to: { path: '^packages/rest/src/serve/' },
    },
    {
      name: 'rest-rooms-only',
      comment: '@lib/rest: every module lives in a room (declare/, serve/, call/); only the entry points sit at the top.',
      severity: 'error',
      from: { path: '^packages/rest/src/(index|pipeline)\\.ts$' },
      to: { path: '^packages/rest/src/[^/]+\\.ts$', pathNot: '^packages/rest/src/(index|pipeline)\\.ts$' },
    },
    {
      name: 'kernel-below-declaration',
      comment: 'The kernel (@lib/codec, @lib/validate, @lib/format) and the reflection (@lib/openapi) never import the declaration (@lib/rest) or an adapter.',
      severity: 'error',
      from: { path: '^packages/(codec|validate|format|openapi|openapi-import)/src/' },
      to: { path: '^packages/(rest|node-http|router-adapter|otel|openapi-ui)/' },
    },
    {
      name: 'testing-is-imported-by-none',
      comment: '@lib/testing (the contract-testing kit) builds on the packages it tests; no package imports it, so no service ships it.',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/testing/' },
      to: { path: '^packages/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\\.generated|\\.vitest)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, '../../tsconfig.base.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['lib-source', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
