import * as codec from '@lib/codec';
import type { Format } from '@lib/format';
import type { HeaderDescriptor, MediaTypeDescriptor, ResponseCookieDescriptor, ResponseDescriptor, RouteDescriptor } from '@lib/openapi';
import { ErrorPattern } from './error-rules.js';
import type { AnyParam } from './params.js';
import { BODY_METHODS } from './route.js';
import type { RouteHandle } from './route-handle.js';
import { reasonPhrase } from '@lib/openapi';

/** The codec of the default error body `{ "error": message }`, named `ErrorEnvelope` in OpenAPI. */
export const errorEnvelope: codec.ObjectCodec<{ error: codec.StringCodec }> = codec
  .object({ error: codec.string().withDescription('What went wrong, naming the offending field or parameter.') })
  .withName('ErrorEnvelope');

/** The default success status of a method: 201 for POST, 200 otherwise (TYPESCRIPT.md §6.1). */
export function defaultStatus(method: string): number {
  return method === 'POST' ? 201 : 200;
}

function media<T>(formats: readonly Format<T>[], schemaName: string | undefined): MediaTypeDescriptor[] {
  return formats.map((f) => ({
    mediaType: f.contentType,
    codec: f.codec as codec.Codec<unknown>,
    ...(schemaName !== undefined && { schemaName }),
    ...(f.bodySchema !== undefined && { schema: f.bodySchema }),
  }));
}

function responseParts(params: readonly AnyParam[]): { headers: HeaderDescriptor[]; cookies: ResponseCookieDescriptor[] } {
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

const envelopeContent: readonly MediaTypeDescriptor[] = [{ mediaType: 'application/json', codec: errorEnvelope as codec.Codec<unknown> }];

/**
 * The OpenAPI descriptor of a registered route: its parameters, request body (POST, PUT,
 * PATCH with a non-empty codec), success response with headers and cookies, `responseMeta`
 * responses, every error rule's response, and the built-in errors the pipeline can send
 * (400 when anything is validated; 413 and 415 for bodies) unless a rule claims the status.
 */
export function describeRoute(handle: RouteHandle<unknown, unknown>): RouteDescriptor {
  const route = handle.route;
  const meta = route.meta;
  const hasBody = BODY_METHODS.has(route.method) && route.reqCodec.kind !== 'empty';
  const responses: ResponseDescriptor[] = [];
  const add = (r: ResponseDescriptor): void => {
    if (!responses.some((x) => x.status === r.status)) responses.push(r);
  };

  const status = String(meta.respStatus ?? defaultStatus(route.method));
  add({
    status,
    description: meta.respDescription ?? reasonPhrase(status),
    content: route.respCodec.kind === 'empty' ? [] : media(handle.responseFormats, meta.respSchemaName),
    ...responseParts(route.params),
  });
  for (const r of route.responses) {
    add({ status: String(r.status), description: r.description, content: [], ...responseParts(r.headers ?? []), cookies: [] });
  }
  for (const rule of route.errorRules) {
    if (rule instanceof ErrorPattern) {
      const s = String(rule.declaredStatus);
      add({ status: s, description: rule.description ?? reasonPhrase(s), content: [{ mediaType: 'application/json', codec: rule.body }], headers: [], cookies: [] });
    } else {
      add({ status: String(rule.status), description: reasonPhrase(rule.status), content: envelopeContent, headers: [], cookies: [] });
    }
  }
  const validates = hasBody || handle.requestParams.length > 0;
  if (validates) add({ status: '400', description: 'The request is invalid: a parameter or the body failed validation.', content: envelopeContent, headers: [], cookies: [] });
  if (hasBody) {
    add({ status: '413', description: 'The request body is larger than the server accepts.', content: envelopeContent, headers: [], cookies: [] });
    add({ status: '415', description: 'The request body has an unsupported Content-Type.', content: envelopeContent, headers: [], cookies: [] });
  }

  return {
    method: route.method,
    path: route.path,
    ...(meta.operationId !== undefined && { operationId: meta.operationId }),
    ...(meta.summary !== undefined && { summary: meta.summary }),
    ...(meta.description !== undefined && { description: meta.description }),
    ...(meta.tags !== undefined && { tags: meta.tags }),
    ...(meta.deprecated !== undefined && { deprecated: meta.deprecated }),
    parameters: handle.requestParams.map((p) => ({
      in: p.kind,
      name: p.name,
      required: p.required,
      ...(p.codec !== undefined && { codec: p.codec }),
      ...(describedParam(route.params, p.kind, p.name) ?? {}),
    })),
    ...(hasBody && { requestBody: { required: route.reqCodec.kind !== 'optional', content: media(handle.requestFormats, meta.reqSchemaName) } }),
    responses,
    ...(meta.security !== undefined && { security: meta.security }),
  };
}

function describedParam(params: readonly AnyParam[], kind: string, name: string): { description: string } | undefined {
  const p = params.find((q) => q.kind === kind && q.name === name);
  return p?.description === undefined ? undefined : { description: p.description };
}

