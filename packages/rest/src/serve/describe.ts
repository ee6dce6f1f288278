import * as codec from '@lib/codec';
import { mediaTypeOf, type Format } from '@lib/format';
import type { HeaderDescriptor, MediaTypeDescriptor, ParameterDescriptor, ResponseCookieDescriptor, ResponseDescriptor, RouteDescriptor } from '@lib/openapi';
import { isConditional, PreconditionFailedError } from './conditional.js';
import { ErrorPattern, type ErrorRule } from '../declare/error-rules.js';
import { BodyTooLargeError, MethodNotAllowedError, MiddlewareError, MiddlewareInputError, NoRouteError, NotAcceptableError, ParamError, RequestBodyError, RequestValidationError, UnauthorizedError, UnsupportedMediaTypeError } from '../declare/errors.js';
import { middlewareParamSpecs } from '../declare/middleware.js';
import { PipelineNoResponseError } from '../declare/http-errors.js';
import type { AnyParam, ResponseMergeParam } from '../declare/params.js';
import { admitsNoBody, BODY_METHODS, defaultStatus, takesNothing } from '../declare/route.js';
import { PARAM_ERRORS } from '../declare/param-values.js';
import { documentedStyle } from '../declare/param-styles.js';
import type { RouteHandle } from '../declare/route.js';
import { reasonPhrase } from '@lib/openapi';
import type { ErrorClass } from '../declare/pipeline-errors.js';
import { PIPELINE_STAGES } from './pipeline/stages.js';
import { registrySettings, type SecuritySettings } from './settings.js';

/** `text`, a sentence, with `clause` before its full stop. */
const beforeStop = (text: string, clause: string): string => `${text.slice(0, -1)}${clause}.`;

/** The codec of the default error body `{ "error": message }`, named `ErrorEnvelope` in OpenAPI. */
export const errorEnvelope: codec.ObjectCodec<{ error: codec.StringCodec }> = codec
  .object({ error: codec.string().withDescription('What went wrong, naming the offending field or parameter.') })
  .withName('ErrorEnvelope');


function media<T>(formats: readonly Format<T>[], schemaName: string | undefined): MediaTypeDescriptor[] {
  return formats.map((f) => ({
    mediaType: f.contentType,
    codec: f.codec as codec.Codec<unknown>,
    ...(schemaName !== undefined && f.itemCodec === undefined && { schemaName }),
    // A sequence of items (NDJSON, events) is text on the wire; its items have their own schema.
    ...(f.bodySchema !== undefined ? { schema: f.bodySchema } : f.itemCodec !== undefined && { schema: { type: 'string' } }),
    // Part codecs by the document's generator: a named one is a reference to its component.
    ...(f.bodySchemaWith !== undefined && { schemaWith: (gen: codec.SchemaGenerator) => (f.bodySchemaWith as (g: codec.SchemaGenerator) => codec.JsonSchema).call(f, gen) }),
    ...(f.itemCodec !== undefined && { itemCodec: f.itemCodec }),
    ...(f.encoding !== undefined && Object.keys(f.encoding).length > 0 && { encoding: f.encoding }),
  }));
}

function responseParts(params: readonly (AnyParam | ResponseMergeParam<unknown, unknown>)[]): { headers: HeaderDescriptor[]; cookies: ResponseCookieDescriptor[] } {
  const headers: HeaderDescriptor[] = [];
  const cookies: ResponseCookieDescriptor[] = [];
  for (const p of params) {
    if (p.kind !== 'responseHeader' && p.kind !== 'responseCookie') continue;
    const d = {
      name: p.name,
      required: p.required,
      ...(p.description !== undefined && { description: p.description }),
      ...(p.codec !== undefined && { codec: p.codec as codec.Codec<unknown> }),
    };
    (p.kind === 'responseHeader' ? headers : cookies).push(d);
  }
  return { headers, cookies };
}

/**
 * The headers of an error status that one more case joins (a rule, or a pipeline answer, of the
 * same status), each listed once: required only where every case sends it.
 */
function joinHeaders(slot: readonly HeaderDescriptor[] | undefined, joining: readonly HeaderDescriptor[]): readonly HeaderDescriptor[] | undefined {
  if (slot === undefined && joining.length === 0) return undefined;
  const out = (slot ?? []).map((h) => (h.required && !joining.some((j) => j.name.toLowerCase() === h.name.toLowerCase() && j.required) ? { ...h, required: false } : h));
  for (const j of joining) if (!out.some((h) => h.name.toLowerCase() === j.name.toLowerCase())) out.push(j.required ? { ...j, required: false } : j);
  return out;
}

/**
 * True when `c` can refuse some text a parameter arrives as: anything but a plain
 * `codec.string()` without constraints, which takes every string.
 */
function refusesText(c: codec.Codec<unknown>): boolean {
  return !(c.kind === 'string' && c.constraints.length === 0);
}

/** An error class, as the pipeline's own errors are. */

/** True when every instance of `cls` matches a rule whose witness is a class `cls` extends: the rule, not the pipeline, then answers it. */
function captured(rules: readonly ErrorRule[], cls: ErrorClass): boolean {
  return rules.some((r) => {
    const w = r.witness as unknown;
    if (typeof w !== 'function') return false;
    const isClass = w === Error || (typeof w.prototype === 'object' && w.prototype instanceof Error);
    return isClass && (w === cls || cls.prototype instanceof w);
  });
}

/** One error status of the document being assembled: its description and every body the server may send with it. */
interface ErrorSlot {
  readonly key: string;
  /** The status sent on the wire (a declared `'4XX'` sends 400). */
  readonly wire: number;
  description: string;
  readonly bodies: codec.Codec<unknown>[];
  /** The bodies of `ErrorRespond` patterns: written in the negotiated format where it can carry them. */
  readonly typed: codec.Codec<unknown>[];
  /** Specification extensions of the response (`x-max-body-bytes` on a 413). */
  extensions?: Readonly<Record<`x-${string}`, unknown>>;
  /** Headers sent with it: the pipeline's (`WWW-Authenticate` on a 401), a pattern's (`withHeaders`). */
  headers?: readonly HeaderDescriptor[] | undefined;
  /** The media types of a typed body whose pattern names them (`withMediaTypes`), by body. */
  readonly ownTypes: Map<codec.Codec<unknown>, readonly string[]>;
}

/**
 * The OpenAPI descriptor of a registered route (OpenAPI 3.1 §4.8.10 Operation Object, §4.8.16
 * Responses Object): its parameters, request body (POST, PUT, PATCH with a non-empty codec),
 * success response with headers and cookies, `responseMeta` responses, and every error status
 * the server can send, each with the bodies it really sends there:
 *
 * - an `ErrorRespond` pattern (the default action): the pattern's body codec, under
 *   `application/json` and then, in the route's response-format order, under the media type of
 *   every response format that can carry another codec (`withCodec`: json, yaml, toml, cbor) —
 *   the server writes the body in the negotiated format when it can, and in JSON otherwise;
 * - an `ErrorHandle` or `ErrorLog` pattern and an `errorStatus` rule: the `errorHandler`'s body,
 *   whose codec is `options.errorBody` (the effective options, `handle.options`: the builder's
 *   `withDefaultOptions` under the route's own), default {@link errorEnvelope};
 * - the pipeline's own answers, with the `errorHandler`'s body — each only where the route can
 *   give it: 400 when a value can fail validation (a body, a required query, header or cookie
 *   parameter, or a parameter whose codec can refuse text: not a plain `codec.string()`); 406
 *   when the response has a body and the route does not `disregardAccept` (an `Accept` no
 *   response format matches); 413 and 415 when a body is read; 503 when the handler may end
 *   without a value (its response codec takes `undefined`: `codec.optional`, `codec.any`); 500
 *   on every route (an unexpected handler error, a response that breaks
 *   the route's contract — and, when the `errorHandler` itself fails, the default envelope).
 *   A pipeline status is left out when every error that raises it matches a rule whose witness
 *   is a class the error extends: the rule answers instead.
 *
 * 304 Not Modified (RFC 9110 §15.4.5), no content, is listed on a GET or HEAD route that can
 * send it: one that declares an `ETag` or `Last-Modified` response header (the server compares
 * the request's validators on its own, and the document adds `If-None-Match` and
 * `If-Modified-Since` to its parameters), or that reads `If-None-Match` or `If-Modified-Since`
 * as a declared request header, its own or a middleware's (its handler answers with
 * `rest.notModified`). Its headers are the declared ones a 304 keeps, and whichever of `ETag`
 * and `Last-Modified` the route does not declare, optional: what `rest.notModified` may name.
 *
 * The middleware the server runs for the route (`api.use`, then the route's) add their request
 * parameters after the route's, their response headers and cookies to the success response, and
 * 400 (a `MiddlewareInputError` or `MiddlewareError` the route's rules do not capture).
 *
 * A status answered by several of these gets every body (`MediaTypeDescriptor.alternatives`,
 * rendered `anyOf`, JSON Schema 2020-12 §10.2.1.2): a 400 pattern's body and the envelope of a
 * failed validation. The `errorHandler`'s bodies are JSON only, so the other media types of such
 * a status carry the `ErrorRespond` bodies alone. A pipeline status joins the rule whose status
 * is sent as that code (`'4XX'` sends 400). The success response and `responseMeta` responses
 * are the route's own word: no error body is added to a status they declare.
 *
 * Transport headers the server adds on its own are not documented (`Content-Type`, `Vary: Accept`
 * on a route with several response formats, `WWW-Authenticate`, CORS, a format's own such as an
 * event stream's `Cache-Control`): only the route's declared response headers and cookies are.
 *
 * `settings` are the builder's global security requirements and schemes
 * (`api.servingSettings()`); without them, those of the registry the route is registered with.
 */
export function describeRoute(handle: RouteHandle<unknown, unknown>, settings: SecuritySettings = registrySettings(handle.server)): RouteDescriptor {
  const route = handle.route;
  const meta = route.meta;
  // The route's own rules, then the builder's (rest.withErrors): what answers its errors.
  const rules = handle.errorRules;
  // A custom errorHandler's body has the shape errorBody says; without it the document cannot know (no schema).
  const errorBody = handle.options.errorBody ?? (handle.options.errorHandler === undefined ? (errorEnvelope as codec.Codec<unknown>) : UNDECLARED_BODY);
  const hasBody = BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty';
  // A route whose response admits no value (codec.never()) never succeeds: it documents its errors only.
  const succeeds = route.respCodec.kind !== 'never';
  const respBody = succeeds && route.respCodec.kind !== 'empty';

  const declared: ResponseDescriptor[] = [];
  const slots: ErrorSlot[] = [];
  const order: (ResponseDescriptor | ErrorSlot)[] = [];
  const claimed = (key: string): boolean => declared.some((r) => r.status.toUpperCase() === key.toUpperCase());
  const declare = (r: ResponseDescriptor): void => {
    if (claimed(r.status)) return;
    declared.push(r);
    order.push(r);
  };
  /** A rule's status: its own slot, merged with an earlier rule's of the same status. */
  const ruleSlot = (key: string, wire: number, description: string, body: codec.Codec<unknown>, typed: boolean, mediaTypes?: readonly string[], headers: readonly HeaderDescriptor[] = []): void => {
    if (claimed(key)) return;
    const slot = slots.find((s) => s.key.toUpperCase() === key.toUpperCase());
    if (slot !== undefined) {
      slot.headers = joinHeaders(slot.headers, headers);
      if (!slot.bodies.includes(body)) slot.bodies.push(body);
      if (typed && !slot.typed.includes(body)) slot.typed.push(body);
      if (typed && mediaTypes !== undefined && !slot.ownTypes.has(body)) slot.ownTypes.set(body, mediaTypes);
      return;
    }
    const created: ErrorSlot = { key, wire, description, bodies: [body], typed: typed ? [body] : [], ownTypes: new Map(typed && mediaTypes !== undefined ? [[body, mediaTypes]] : []), ...(headers.length > 0 && { headers }) };
    slots.push(created);
    order.push(created);
  };
  /** A pipeline status: joins the slot of a rule sent with that code, else a slot of its own. */
  const pipelineSlot = (wire: number, description: string, bodies: readonly codec.Codec<unknown>[], extensions?: ErrorSlot['extensions'], headers?: ErrorSlot['headers']): void => {
    const key = String(wire);
    if (claimed(key)) return;
    const slot = slots.find((s) => s.key === key) ?? slots.find((s) => s.wire === wire);
    if (slot === undefined) {
      const created: ErrorSlot = { key, wire, description, bodies: [...bodies], typed: [], ownTypes: new Map(), ...(extensions !== undefined && { extensions }), ...(headers !== undefined && { headers }) };
      slots.push(created);
      order.push(created);
      return;
    }
    if (extensions !== undefined) slot.extensions = { ...slot.extensions, ...extensions };
    slot.headers = joinHeaders(slot.headers, headers ?? []);
    const added = bodies.filter((b) => !slot.bodies.includes(b));
    if (added.length === 0) return;
    slot.bodies.push(...added);
    // The rule's description comes first; the pipeline's case is named after it.
    slot.description = `${slot.description}\n\nOr: ${description}`;
  };

  // Middleware the server runs (api.use, then the route's): their parameters and response fields are the operation's too.
  const middleware = handle.serverMiddleware;
  const allParams: readonly AnyParam[] = middleware.length === 0 ? route.params : [...route.params, ...middleware.flatMap((a) => a.middleware.params)];
  const safe = route.method === 'GET' || route.method === 'HEAD';
  // Declared preconditions (meta.preconditions): a read's validators (304), or a write's (412).
  const writePreconditions = meta.preconditions === true && !safe;
  const readValidators = isConditional(route) || (meta.preconditions === true && safe);
  const status = String(meta.respStatus ?? defaultStatus(route.method));
  if (succeeds) {
    declare({
      status,
      description: meta.respDescription ?? reasonPhrase(status),
      content: respBody ? media(handle.responseFormats, meta.respSchemaName) : [],
      ...responseParts(allParams),
      ...(meta.links !== undefined && { links: meta.links }),
    });
  }
  // The other declared successes, each with its own body, headers and cookies (or the route's).
  for (const sr of route.successes) {
    const key = String(sr.status);
    declare({
      status: key,
      description: sr.description ?? reasonPhrase(key),
      content: sr.codec.kind === 'empty' ? [] : media(handle.successFormats(sr), undefined),
      ...responseParts(sr.params ?? allParams),
    });
  }
  // RFC 9110 §13.2: a GET or HEAD route declaring a validator answers a matching conditional request with 304.
  const conditional = isConditional(route);
  // A GET or HEAD that reads the client's validators (declared preconditions, a declared
  // If-None-Match or If-Modified-Since, the route's or a middleware's) answers 304 through its
  // handler's rest.checkPreconditions or rest.notModified.
  if (conditional || (safe && (meta.preconditions === true || allParams.some((p) => p.kind === 'header' && READ_VALIDATORS.has(p.name.toLowerCase()))))) {
    const declaredHeaders = responseParts(allParams).headers;
    const kept = declaredHeaders.filter((h) => NOT_MODIFIED_HEADERS.has(h.name.toLowerCase())).map((h) => ({ ...h, required: false }));
    // The validators a handler's rest.notModified({ etag, lastModified }) names, where the route declares none.
    for (const v of NOT_MODIFIED_VALIDATORS) if (!declaredHeaders.some((h) => h.name.toLowerCase() === v.name.toLowerCase())) kept.push(v);
    declare({
      status: '304',
      description: "Not Modified: the representation named by the request's If-None-Match or If-Modified-Since is current. No content.",
      content: [],
      headers: kept,
      cookies: [],
    });
  }
  for (const r of route.responses) {
    declare({ status: String(r.status), description: r.description, content: [], ...responseParts(r.headers ?? []), cookies: [] });
  }
  // What the pipeline can raise for this route: a builder rule (rest.withErrors) on one of its
  // own errors is documented only where the route can raise it; the route's own rules always are.
  // A value that can fail: a required one that can be missing, or one whose codec can refuse text.
  const validated: ErrorClass[] = handle.requestParams
    .filter((p) => (p.codec !== undefined && refusesText(p.codec)) || (p.required && p.kind !== 'path'))
    .map((p) => PARAM_ERRORS[p.kind]);
  if (hasBody) validated.push(RequestBodyError);
  // Any middleware function may refuse a request (MiddlewareError), and its input be invalid.
  if (middleware.length > 0) validated.push(MiddlewareInputError, MiddlewareError);
  const requirements = meta.security ?? settings.globalSecurity;
  const readsCredentials = requirements.some((r) => Object.keys(r).length > 0);
  const guardsWrites = writePreconditions || allParams.some((p) => p.kind === 'header' && WRITE_PRECONDITIONS.has(p.name.toLowerCase()));
  const negotiates = respBody && handle.responseFormats.length > 0 && handle.options.disregardAccept !== true;
  // A handler whose response type admits no value (codec.optional, codec.any) may end without one: 503.
  const mayAnswerNothing = respBody && takesNothing(route.respCodec);
  // Whether this route can raise each of the pipeline's own errors; one not named here (a middleware's) always may.
  const raisable = new Map<ErrorClass, boolean>([
    [NoRouteError, false],
    [MethodNotAllowedError, false],
    [RequestValidationError, validated.length > 0],
    [ParamError, validated.some((c) => c.prototype instanceof ParamError)],
    [RequestBodyError, hasBody],
    [UnauthorizedError, readsCredentials],
    [PreconditionFailedError, guardsWrites],
    [NotAcceptableError, negotiates],
    [BodyTooLargeError, hasBody],
    [UnsupportedMediaTypeError, hasBody],
    [PipelineNoResponseError, mayAnswerNothing],
  ]);
  // The pipeline's refusals, stage by stage (pipeline/stages.ts), with their statuses and words.
  const refusals = PIPELINE_STAGES.flatMap((stage) => stage.refuses);
  const ownRules = new Set<ErrorRule>(route.errorRules);
  const canRaise = (rule: ErrorRule): boolean => {
    if (ownRules.has(rule)) return true;
    const w = rule.witness as unknown;
    if (typeof w !== 'function') return true;
    for (const { error } of refusals) if (w === error || (w as ErrorClass).prototype instanceof error) return raisable.get(error) ?? true;
    return true;
  };
  for (const rule of rules) {
    if (!canRaise(rule)) continue;
    if (rule instanceof ErrorPattern) {
      const key = String(rule.declaredStatus);
      // Only an ErrorRespond pattern writes its own body; ErrorHandle and ErrorLog go through the errorHandler.
      ruleSlot(key, rule.status, rule.description ?? reasonPhrase(key), rule.action === 'respond' ? rule.body : errorBody, rule.action === 'respond', rule.mediaTypes, responseParts(rule.headers).headers);
    } else {
      ruleSlot(String(rule.status), rule.status, reasonPhrase(rule.status), errorBody, false);
    }
  }

  // The pipeline's own answers, in the order of its stages, where this route can give them.
  const answers = (classes: readonly ErrorClass[]): boolean => !classes.every((c) => captured(rules, c));
  for (const { error, status, description } of refusals) {
    // Every validation failure is one RequestValidationError (400), which rules match as itself or through its members.
    if (error === RequestValidationError) {
      if (validated.length > 0 && !captured(rules, RequestValidationError) && answers(validated)) pipelineSlot(status, middleware.length > 0 ? beforeStop(description, ', or a middleware refused it') : description, [errorBody]);
      continue;
    }
    if (WITHIN_VALIDATION.has(error) || raisable.get(error) !== true || !answers([error])) continue;
    if (error === UnauthorizedError) {
      // A route that reads credentials (its own requirements, else the builder's global ones) answers
      // 401: when they are missing, or, where sign-in is optional ({} among them), when sent ones are bad.
      // RFC 9110 §11.6.1: a 401 carries the challenges of the route's HTTP schemes.
      const http = requirements.some((r) => Object.keys(r).some((name) => settings.securitySchemes.get(name)?.object.type === 'http'));
      pipelineSlot(status, description, [errorBody], undefined, http ? [WWW_AUTHENTICATE] : undefined);
    } else if (error === BodyTooLargeError) {
      const { stated, largest } = bodyLimits(handle);
      pipelineSlot(status, beforeStop(description, `: ${stated}`), [errorBody], { 'x-max-body-bytes': largest });
    } else {
      pipelineSlot(status, description, [errorBody]);
    }
  }
  const envelope = errorEnvelope as codec.Codec<unknown>;
  pipelineSlot(
    500,
    "An unexpected error: the handler failed, or its response broke the route's contract." +
      (errorBody === envelope ? '' : ' When the errorHandler itself fails, the body is the default `ErrorEnvelope`.'),
    // When the errorHandler itself fails, the answer is the default envelope.
    [errorBody, envelope],
  );

  // Typed error bodies go out in the negotiated format when it can carry another codec (json,
  // yaml, toml, cbor), else in JSON (pipeline/error-mapping.ts): JSON first, then those media types.
  // A route without a response body negotiates nothing: its typed error bodies are JSON.
  const carriers = respBody ? handle.responseFormats.filter((f) => f.withCodec !== undefined && mediaTypeOf(f.contentType) !== 'application/json') : [];
  // The errorHandler's body goes out as errorMediaType (application/problem+json with problem
  // details); typed pattern bodies and the last-resort envelope are JSON.
  const errorMediaType = handle.options.errorMediaType ?? 'application/json';
  const ownType = (b: codec.Codec<unknown>): boolean => errorMediaType !== 'application/json' && b === errorBody;
  const responses = order.map((r): ResponseDescriptor => {
    if ('status' in r) return r;
    const content: MediaTypeDescriptor[] = [];
    // A typed body whose pattern names its media types (withMediaTypes) goes under those, and only those.
    const inJson = r.bodies.filter((b) => !ownType(b) && !r.ownTypes.has(b));
    const [first, ...alternatives] = inJson;
    if (first !== undefined) content.push({ mediaType: 'application/json', codec: first, ...(alternatives.length > 0 && { alternatives }) });
    if (r.bodies.some(ownType)) content.push({ mediaType: errorMediaType, codec: errorBody });
    for (const [body, types] of r.ownTypes) {
      for (const t of types) {
        const at = content.findIndex((c) => mediaTypeOf(c.mediaType) === mediaTypeOf(t));
        const same = content[at];
        // A rule's own body comes first; the pipeline's answers of that status and type after it.
        if (same === undefined) content.push({ mediaType: t, codec: body });
        else content[at] = { ...same, codec: body, alternatives: [same.codec, ...(same.alternatives ?? [])] };
      }
    }
    const [typed, ...otherTyped] = r.typed.filter((b) => !r.ownTypes.has(b));
    if (typed !== undefined) for (const f of carriers) content.push({ mediaType: f.contentType, codec: typed, ...(otherTyped.length > 0 && { alternatives: otherTyped }) });
    return {
      status: r.key,
      description: r.description,
      content,
      headers: r.headers ?? [],
      cookies: [],
      ...(r.extensions !== undefined && { extensions: r.extensions }),
    };
  });

  return {
    method: route.method,
    path: route.path,
    ...(meta.operationId !== undefined && { operationId: meta.operationId }),
    ...(meta.summary !== undefined && { summary: meta.summary }),
    ...(meta.description !== undefined && { description: meta.description }),
    ...(meta.tags !== undefined && { tags: meta.tags }),
    ...(meta.deprecated !== undefined && { deprecated: meta.deprecated }),
    parameters: [
      ...[...handle.requestParams, ...middleware.flatMap((a) => middlewareParamSpecs(a.middleware))].map((p) => ({
        in: p.kind,
        name: p.name,
        required: p.required,
        ...(p.codec !== undefined && { codec: p.codec }),
        ...(describedParam(allParams, p.kind, p.name) ?? {}),
        // OpenAPI 3.1 §4.8.12.4: `style` and `explode` where they differ from their defaults.
        ...documentedStyle(p.style),
      })),
      // The validators a conditional request sends (a conditional GET's, or those a route's
      // declared preconditions read), unless the route declares them itself.
      ...(readValidators || writePreconditions ? (readValidators ? CONDITIONAL_PARAMS : PRECONDITION_PARAMS).filter((c) => !handle.requestParams.some((p) => p.kind === 'header' && p.name.toLowerCase() === c.name.toLowerCase())) : []),
    ],
    ...(hasBody && { requestBody: { required: !admitsNoBody(route.reqCodec), content: media(handle.requestFormats, meta.reqSchemaName) } }),
    responses,
    ...(meta.security !== undefined && { security: meta.security }),
    ...(meta.externalDocs !== undefined && { externalDocs: meta.externalDocs }),
    ...(route.requirements.length > 0 && { capabilities: Object.fromEntries(route.requirements.map((r) => [r.capability, r.level])) }),
  };
}

/** The `WWW-Authenticate` header of a 401 (RFC 9110 §11.6.1). */
const WWW_AUTHENTICATE: HeaderDescriptor = {
  name: 'WWW-Authenticate',
  required: true,
  description: 'The challenges of the HTTP authentication schemes the operation accepts (RFC 9110 §11.6.1), such as `Bearer`.',
  codec: codec.string(),
};

/** The body of an `errorHandler` whose shape is not declared (`errorBody` not set): any JSON value, no schema. */
const UNDECLARED_BODY: codec.Codec<unknown> = codec.any().withDescription('What the errorHandler returns; its shape is not declared (set the errorBody option).');

/** The request headers of a conditional write (RFC 9110 §13.1.1, §13.1.4). */
const WRITE_PRECONDITIONS: ReadonlySet<string> = new Set(['if-match', 'if-unmodified-since']);
/** The request headers of a conditional read, whose answer may be 304 (RFC 9110 §13.1.2, §13.1.3). */
const READ_VALIDATORS: ReadonlySet<string> = new Set(['if-none-match', 'if-modified-since']);
/** The validators a 304 carries when the handler's `rest.notModified` names them (RFC 9110 §15.4.5). */
const NOT_MODIFIED_VALIDATORS: readonly HeaderDescriptor[] = [
  { name: 'ETag', required: false, codec: codec.string(), description: 'The current entity tag (RFC 9110 §8.8.3), when the handler names it.' },
  { name: 'Last-Modified', required: false, codec: codec.httpDate(), description: 'The current modification time (RFC 9110 §8.8.2), when the handler names it.' },
];
/** The response headers a 304 keeps (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS: ReadonlySet<string> = new Set(['etag', 'last-modified', 'cache-control', 'expires', 'content-location', 'vary']);
/** The validators of a conditional GET, as documented request headers. */
const CONDITIONAL_PARAMS: readonly ParameterDescriptor[] = [
  { in: 'header', name: 'If-None-Match', required: false, codec: codec.string(), description: 'Entity tags of representations the client holds (RFC 9110 §13.1.2): 304 when one is current.' },
  { in: 'header', name: 'If-Modified-Since', required: false, codec: codec.string(), description: 'An HTTP date (RFC 9110 §13.1.3): 304 when the representation has not changed since.' },
];

/** The preconditions of a write, as documented request headers (RFC 9110 §13.1). */
const PRECONDITION_PARAMS: readonly ParameterDescriptor[] = [
  { in: 'header', name: 'If-Match', required: false, codec: codec.string(), description: 'Entity tags the change is based on (RFC 9110 §13.1.1): 412 when none is current.' },
  { in: 'header', name: 'If-Unmodified-Since', required: false, codec: codec.string(), description: 'An HTTP date (RFC 9110 §13.1.4): 412 when the representation changed since.' },
  { in: 'header', name: 'If-None-Match', required: false, codec: codec.string(), description: 'Entity tags, or `*` to create only what does not exist yet (RFC 9110 §13.1.2): 412 when one is current.' },
];

/** The errors the document gives with the 400 of a `RequestValidationError`, not a response of their own. */
const WITHIN_VALIDATION: ReadonlySet<ErrorClass> = new Set<ErrorClass>([ParamError, RequestBodyError, MiddlewareInputError, MiddlewareError]);

/**
 * The limits a route's 413 states: the one each request format is read with (route, format,
 * builder, default: `handle.bodyLimit`), a total derived from a format's part limits named with
 * them as they were written; and the largest, for `x-max-body-bytes`.
 */
function bodyLimits(handle: RouteHandle<unknown, unknown>): { readonly stated: string; readonly largest: number } {
  const limits = handle.requestFormats.map((f) => {
    const from = handle.bodyLimitFrom(f as Format<unknown>);
    return [mediaTypeOf(f.contentType), handle.bodyLimit(f as Format<unknown>), from === undefined ? '' : ` (${from})`] as const;
  });
  const largest = Math.max(...limits.map(([, n]) => n));
  const stated =
    new Set(limits.map(([, n, from]) => `${n}${from}`)).size === 1 ? `at most ${byteCount(largest)}${limits[0]?.[2] ?? ''}` : limits.map(([t, n, from]) => `at most ${byteCount(n)} as ${t}${from}`).join(', ');
  return { stated, largest };
}

/** A size in bytes as people read it: `5242880 bytes (5 MiB)`. */
function byteCount(n: number): string {
  const units = [
    [1024 * 1024 * 1024, 'GiB'],
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ] as const;
  const unit = units.find(([size]) => n >= size && n % (size / 1024) === 0);
  if (unit === undefined) return `${n} bytes`;
  const value = n / unit[0];
  return `${n} bytes (${Number.isInteger(value) ? value : value.toFixed(2)} ${unit[1]})`;
}

/** The parameter-level documentation of a declared parameter: its description, and whether it is deprecated. */
function describedParam(params: readonly AnyParam[], kind: string, name: string): { description?: string; deprecated?: true } | undefined {
  const p = params.find((q) => q.kind === kind && q.name === name);
  if (p === undefined) return undefined;
  return { ...(p.description !== undefined && { description: p.description }), ...(p.deprecated && { deprecated: true as const }) };
}
