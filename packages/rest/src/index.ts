export { callWithTransport, Client, newClient } from './client.js';
export type { CallEachOptions, ClientCallOptions, ClientOptions, ConditionalGet, SafeResult } from './client.js';
export { Context, contextKey, credentialsKey } from './context.js';
export type { ContextKey } from './context.js';
export { setCookieHeader } from './cookies.js';
export { responseHeadersFromContext, setCookie, withResponseCookies } from './response-context.js';
export type { CookieOptions, HeaderSink, ResponseCookie, ResponseHeaderSink } from './response-context.js';
export { describeRoute, errorEnvelope } from './describe.js';
export { defaultStatus } from './route.js';
export {
  errorCase,
  ErrorHandle,
  ErrorLog,
  errorPattern,
  ErrorPattern,
  errorPatternAs,
  ErrorRespond,
  errorStatus,
  ErrorStatusRule,
  findError,
  handleErrorPattern,
  isErrorPatternValuer,
  isFinalStatus,
  wireStatus,
} from './error-rules.js';
export type { ErrorAction, ErrorBodyMatcher, ErrorCase, ErrorClass, ErrorGuard, ErrorRule, ErrorWitness, Status } from './error-rules.js';
export {
  AmbiguousMiddlewareAttachmentError,
  BodyTooLargeError,
  CapabilityCoverageError,
  ClientTransportAlreadyAttachedError,
  ClientTransportNotAttachedError,
  CookieParamError,
  DuplicateErrorStatusError,
  DuplicateMiddlewareNameError,
  DuplicateRouteError,
  HeaderParamError,
  InvalidPathError,
  MethodNotAllowedError,
  MiddlewareError,
  MiddlewareInputError,
  MiddlewareOutputError,
  MissingPathVarError,
  NoRouteError,
  NotAcceptableError,
  ParamError,
  PathParamError,
  QueryParamError,
  RequestBodyError,
  RequestValidationError,
  ResponseContractError,
  TransportTypeMismatchError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  UnsupportedParamKindError,
} from './errors.js';
export { formats, requestFormats, RequestFormats, ResponseFormats } from './formats.js';
export { ErrorPatternResponse, PipelineNoResponseError, RequestBuildError, RequestError, ResponseBodyError, UnexpectedStatusError } from './http-errors.js';
export type { ErrorPatternValuer } from './http-errors.js';
export { declaration, Declaration, Middleware, newMiddleware } from './middleware.js';
export type { BoundReceiveFunc, BoundSendFunc, MiddlewareAttachment, MiddlewareFields, ReceiveFunc, SendFunc } from './middleware.js';
export { DEFAULT_MAX_BODY_BYTES } from './options.js';
export type { ClientRelevantOptions, ErrorEnvelope, ErrorHandler, Observer, Options, SecurityFunc, TraceEnd, TraceStart, ValidationLocation } from './options.js';
export {
  cookieParam,
  headerParam,
  MergeParam,
  newOptionalCookieParam,
  newOptionalHeaderParam,
  newOptionalQueryParam,
  newOptionalResponseCookieParam,
  newOptionalResponseHeaderParam,
  newPathParam,
  newRequiredCookieParam,
  newRequiredHeaderParam,
  newRequiredQueryParam,
  newRequiredResponseCookieParam,
  newRequiredResponseHeaderParam,
  pathParam,
  PlainParam,
  queryParam,
  RequestMergeParam,
  ResponseMergeParam,
  responseCookieParam,
  responseHeaderParam,
} from './params.js';
export type { AnyParam, CookieAttributes, MergeParamFields, OptionalRequestParam, OptionalResponseParam, ParamFields, ParamKind, ParamLocation, PlainParamConstructor, RequiredRequestParam, RequiredResponseParam } from './params.js';
export { RouteDeclarationError } from './path-template.js';
export { cors, corsPolicy } from './cors.js';
export type { CorsOption, CorsOptions, CorsOrigin, CorsPolicy } from './cors.js';
export { apiKeyScheme, basicCredentials, basicScheme, bearerScheme, oauth2Scheme, openIdConnectScheme, SecurityScheme } from './security.js';
export type { ApiKeyLocation, CredentialPlacement, CredentialProvider, CredentialSource, OAuthFlows } from './security.js';
export { redirect, Redirect } from './redirect.js';
export { checkPreconditions, PreconditionFailedError } from './conditional.js';
export type { Precondition } from './conditional.js';
export { notModified, NotModified } from './not-modified.js';
export type { Validators } from './not-modified.js';
export { Answer } from './success.js';
export type { AnswerArgs, DeclaredSuccess, Responder, SuccessResponseSpec, SuccessValue } from './success.js';
export type { PathVars, RedirectStatus, RedirectTarget } from './redirect.js';
export { CapabilityRequirement, requireHWM, requireQoS } from './requirements.js';
export { ResponseMeta, responseMeta, RouteMeta, routeMeta } from './route-meta.js';
export type { ResponseMetaFields, RouteMetaFields } from './route-meta.js';
export type { RouteOption } from './route-option.js';
export { isMultiValue, RouteHandle } from './route-handle.js';
export { BODY_METHODS, newRoute, Route } from './route.js';
export { named, Named, responseCookie, ResponseCookieField, route, success, SuccessField } from './route-object.js';
export type {
  AnyErrorRule,
  BodyFields,
  BodyInputFields,
  CheckedMethod,
  CheckedPath,
  DeclaredSuccesses,
  EntryCodec,
  EntryFields,
  EntryInputFields,
  MainStatus,
  ParamEntries,
  ParamEntry,
  PathParamEntry,
  ResponseCookieEntry,
  RouteDefinition,
  RouteRequest,
  RouteRequestInput,
  RouteResponse,
  SuccessEntries,
  SuccessEntry,
  SuccessEntryValue,
} from './route-object.js';
export type { DeclaredError, DeclaredErrors, StatusNumber } from './route.js';
export { isSSERoute, newSSERoute } from './sse.js';
export type { EventStream, SSERequest } from './sse.js';
export { SSEErrorEvent } from '@lib/format';
export type { SSEEvent } from '@lib/format';
export type { Handler, HandlerResult } from './route.js';
export { checkCoverage, newServer, Server, withDefaultOptions, withPathCodec, withPathConstraints } from './server.js';
export type { DefaultOptionsOption, PathCheckOption, ServerOption } from './server.js';
export { isFieldValue, isToken } from './http-grammar.js';
export { DEFAULT_SHUTDOWN_TIMEOUT, HTTP_PARAM_KINDS } from './transport.js';
export type { ClientExchange, ClientReply, ClientStreamReply, ClientTransport, ServeOptions, ServerTransport } from './transport.js';
