/**
 * `@lib/rest/pipeline`: the transport-agnostic server pipeline, for adapters
 * (`@lib/node-http`, `@lib/router-adapter`). Applications do not need it.
 */
export { builtinStatus, defaultErrorHandler, errorEnvelopeResponse, prepareFallback, prepareRoute } from './serve/pipeline/prepare.js';
export { RequestRefusedError } from './serve/pipeline/prepare.js';
export { PIPELINE_STAGES, pipelineStage } from './serve/pipeline/stages.js';
export type { PipelineStage, StageName } from './serve/pipeline/stages.js';
export type { SecuritySettings, ServingSettings } from './serve/settings.js';
export type { FallbackRequest, FallbackResponses, RefusedStatus, PipelineRequest, PipelineResponse, PreparedRoute, ResponseBody } from './serve/pipeline/exchange.js';
export { colonPath, fillEncodedTemplate, fillTemplate, templateShape, templateSource, templateVars, transparentPath } from './declare/path-template.js';
export { DEFAULT_PARAM_STYLES, percentDecode, percentEncode, rawQueryPairs, readsBack, readStyledQuery, readStyledText, resolveParamStyle, writeStyled } from './declare/param-styles.js';
export type { ResolvedParamStyle, StyledRead } from './declare/param-styles.js';
export { HTTP_PARAM_KINDS } from './declare/coverage.js';
export { nativeRequestKey, responseHeadersKey } from './declare/context.js';
export { PIPELINE_ERRORS, pipelineError } from './declare/pipeline-errors.js';
export type { ErrorClass, PipelineError } from './declare/pipeline-errors.js';
export { newTempFileStore } from './serve/pipeline/temp-files.js';
export type { TempFileHandle, TempFileStore, TempFileSystem } from './serve/pipeline/temp-files.js';
