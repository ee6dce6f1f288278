/**
 * `@lib/rest/pipeline`: the transport-agnostic server pipeline, for adapters
 * (`@lib/node-http`, `@lib/router-adapter`). Applications do not need it.
 */
export { builtinStatus, defaultErrorHandler, errorEnvelopeResponse, prepareFallback, prepareRoute } from './pipeline/prepare.js';
export { RequestRefusedError } from './pipeline/prepare.js';
export type { FallbackRequest, FallbackResponses, RefusedStatus, PipelineRequest, PipelineResponse, PreparedRoute, ResponseBody } from './pipeline/prepare.js';
export { colonPath, fillTemplate, templateVars, transparentPath } from './path-template.js';
export { HTTP_PARAM_KINDS } from './transport.js';
export { nativeRequestKey, responseHeadersKey } from './context.js';
export { newTempFileStore } from './pipeline/temp-files.js';
export type { TempFileHandle, TempFileStore, TempFileSystem } from './pipeline/temp-files.js';
