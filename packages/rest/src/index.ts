export { callWithTransport, Client, newClient } from './call/client.js';
export type { CallEachOptions, ClientCallOptions, ClientOptions, ConditionalGet, SafeResult } from './call/client.js';
export { Context, contextKey, credentialsKey, principalKey } from './declare/context.js';
export type { ContextKey, PrincipalKey, SignedInContext } from './declare/context.js';
export { setCookieHeader } from './serve/cookies.js';
export { responseHeadersFromContext, setCookie, withResponseCookies } from './serve/response-context.js';
export type { CookieOptions, HeaderSink, ResponseCookie, ResponseHeaderSink } from './serve/response-context.js';
export { describeRoute, errorEnvelope } from './serve/describe.js';
export { defaultStatus, mainStatus } from './declare/route.js';
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
} from './declare/error-rules.js';
export type { ErrorAction, ErrorBodyMatcher, ErrorCase, ErrorClass, ErrorGuard, ErrorRule, ErrorWitness, Status } from './declare/error-rules.js';
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
} from './declare/errors.js';
export { formats, requestFormats, RequestFormats, ResponseFormats } from './declare/formats.js';
export { ErrorPatternResponse, PipelineNoResponseError, RequestBuildError, RequestError, ResponseBodyError, UnexpectedStatusError } from './declare/http-errors.js';
export type { ErrorPatternValuer } from './declare/http-errors.js';
export { declaration, Declaration, Middleware, newMiddleware } from './declare/middleware.js';
export type { BoundReceiveFunc, BoundSendFunc, MiddlewareAttachment, MiddlewareFields, ReceiveFunc, SendFunc } from './declare/middleware.js';
export { DEFAULT_MAX_BODY_BYTES } from './declare/options.js';
export type { ClientRelevantOptions, ErrorEnvelope, ErrorHandler, Observer, Options, SecurityFunc, TraceEnd, TraceStart, ValidationLocation } from './declare/options.js';
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
} from './declare/params.js';
export type { AnyParam, CookieAttributes, MergeParamFields, OptionalRequestParam, OptionalResponseParam, ParamFields, ParamKind, ParamLocation, PlainParamConstructor, RequiredRequestParam, RequiredResponseParam } from './declare/params.js';
export { RouteDeclarationError } from './declare/path-template.js';
export { cors, corsPolicy } from './declare/cors.js';
export type { CorsOption, CorsOptions, CorsOrigin, CorsPolicy } from './declare/cors.js';
export { apiKeyScheme, basicCredentials, basicScheme, bearerScheme, oauth2Scheme, openIdConnectScheme, SecurityScheme } from './declare/security.js';
export type { ApiKeyLocation, CredentialPlacement, CredentialProvider, CredentialSource, OAuthFlows } from './declare/security.js';
export { redirect, Redirect } from './declare/redirect.js';
export { checkPreconditions, PreconditionFailedError } from './serve/conditional.js';
export { preconditionFailed } from './declare/preconditions.js';
export type { PreconditionFailed } from './declare/preconditions.js';
export type { Precondition } from './serve/conditional.js';
export { notModified, NotModified } from './declare/not-modified.js';
export type { Validators } from './declare/not-modified.js';
export { Answer } from './declare/success.js';
export type { AnswerArgs, DeclaredSuccess, Responder, SuccessResponseSpec, SuccessValue } from './declare/success.js';
export type { PathVars, RedirectStatus, RedirectTarget } from './declare/redirect.js';
export { CapabilityRequirement, requireHWM, requireQoS } from './declare/requirements.js';
export { ResponseMeta, responseMeta, RouteMeta, routeMeta } from './declare/route-meta.js';
export type { ResponseMetaFields, RouteMetaFields } from './declare/route-meta.js';
export type { RouteOption } from './declare/route-option.js';
export { isMultiValue } from './declare/param-values.js';
export { RouteHandle } from './declare/route.js';
export type { RegisteredRouteHandle } from './declare/route.js';
export { BODY_METHODS, newRoute, Route } from './declare/route.js';
export { named, Named, responseCookie, ResponseCookieField, styled } from './declare/param-entries.js';
export { route, success, SuccessField } from './declare/route-object.js';
export type { CookieParamEntry, EntryCodec, EntryFields, EntryInputFields, HeaderParamEntry, ParamEntries, ParamEntry, PathParamEntry, QueryParamEntry, ResponseCookieEntry } from './declare/param-entries.js';
export { Styled } from './declare/styled.js';
export type { CookieParamStyle, HeaderParamStyle, ParamStyle, ParamStyleOptions, PathParamStyle, PathVarValue, QueryParamStyle, StyledWire } from './declare/styled.js';
export type {
  AnyErrorRule,
  BodyFields,
  BodyInputFields,
  CheckedMethod,
  CheckedPath,
  DeclaredSuccesses,
  HandlerContext,
  MainStatus,
  RouteDefinition,
  RouteRequest,
  RouteRequestInput,
  RouteResponse,
  SuccessEntries,
  SuccessEntry,
  SuccessEntryValue,
} from './declare/route-object.js';
export type { DeclaredErrors } from './declare/route.js';
export type { DeclaredError, StatusNumber } from './declare/error-rules.js';
export { isSSERoute, newSSERoute } from './declare/sse.js';
export type { EventStream, SSERequest } from './declare/sse.js';
export { SSEErrorEvent } from '@lib/format';
export type { SSEEvent } from '@lib/format';
export type { Handler, HandlerResult, RouteRegistry } from './declare/route.js';
export { newServer, Server, withBasePath, withDefaultOptions, withErrors, withPathCodec, withPathConstraints, withProblemDetails } from './serve/server.js';
export { PROBLEM_JSON, problemDetails, problemDetailsHandler, validationIssue } from './declare/problem-details.js';
export type { ProblemDetails, ValidationIssue } from './declare/problem-details.js';
export { checkCoverage, HTTP_PARAM_KINDS } from './declare/coverage.js';
export type { TransportCoverage } from './declare/coverage.js';
export type { BasePathOption, DefaultOptionsOption, ErrorRulesOption, PathCheckOption, ServerOption } from './serve/server.js';
export { isFieldValue, isToken } from './declare/http-grammar.js';
export { DEFAULT_SHUTDOWN_TIMEOUT } from './serve/transport.js';
export type { ServeOptions, ServerTransport } from './serve/transport.js';
export type { ClientExchange, ClientReply, ClientStreamReply, ClientTransport } from './call/client-transport.js';
