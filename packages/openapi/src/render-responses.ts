import type { SchemaGenerator } from '@lib/codec';
import type { HeaderDescriptor, ResponseCookieDescriptor, ResponseDescriptor, RouteDescriptor } from './descriptor.js';
import type { HeaderObject, ResponseObject, ResponsesObject, SetCookieExtension } from './model.js';
import { omitUndefined } from './omit-undefined.js';
import { renderContent } from './render-content.js';
import { routeError } from './render-error.js';
import { describedValue } from './render-parameters.js';

const STATUS_KEY = /^(?:[1-5](?:[0-9][0-9]|XX)|default)$/;

/**
 * The `responses` of a route's operation, keyed by status string, in ascending order: codes,
 * then ranges (`'4XX'`), then `'default'` (JavaScript orders integer-like keys first anyway).
 * A range written in lower case (`'2xx'`) is upper-cased.
 * @throws {OpenAPIRenderError} `invalidStatus`, `duplicateResponse`, and the errors of the
 * responses' content and headers.
 */
export function renderResponses(route: RouteDescriptor, gen: SchemaGenerator): ResponsesObject {
  const byStatus = new Map<string, ResponseDescriptor>();
  for (const r of route.responses) {
    const status = r.status === 'default' ? r.status : r.status.toUpperCase();
    if (!STATUS_KEY.test(status)) {
      throw routeError(route, 'invalidStatus', `response status "${r.status}" is not 100-599, 1XX-5XX or "default"`, r.status);
    }
    if (byStatus.has(status)) throw routeError(route, 'duplicateResponse', `two responses are declared for status ${status}`, status);
    byStatus.set(status, r);
  }
  const out: ResponsesObject = {};
  for (const status of [...byStatus.keys()].sort(compareStatus)) {
    out[status] = renderResponse(route, status, byStatus.get(status) as ResponseDescriptor, gen);
  }
  return out;
}

/** Orders `'200'` < `'404'` < `'2XX'` < `'4XX'` < `'default'`. */
function compareStatus(a: string, b: string): number {
  const rank = (s: string): number => (s === 'default' ? 2 : s.endsWith('XX') ? 1 : 0);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function renderResponse(route: RouteDescriptor, status: string, r: ResponseDescriptor, gen: SchemaGenerator): ResponseObject {
  const headers = renderHeaders(route, status, r, gen);
  const content = renderContent(route, r.content, gen);
  return omitUndefined<ResponseObject>({
    // As given, an empty one too: the field is required, text in it is not (OpenAPI 3.1 §4.8.17.1).
    description: r.description,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    content: Object.keys(content).length > 0 ? content : undefined,
    links: r.links === undefined || Object.keys(r.links).length === 0 ? undefined : Object.fromEntries(Object.entries(r.links).map(([name, l]) => [name, omitUndefined({ operationId: l.operationId, parameters: l.parameters === undefined ? undefined : { ...l.parameters }, requestBody: l.requestBody, description: l.description })])),
    ...r.extensions,
  });
}

/** Declared response headers in order, then one `Set-Cookie` header for all response cookies. */
function renderHeaders(
  route: RouteDescriptor,
  status: string,
  r: ResponseDescriptor,
  gen: SchemaGenerator,
): Record<string, HeaderObject> {
  const out: Record<string, HeaderObject> = {};
  const seen = new Set<string>();
  const claim = (name: string): void => {
    const key = name.toLowerCase();
    if (seen.has(key)) {
      throw routeError(route, 'duplicateResponseHeader', `response ${status} declares header "${name}" twice`, name);
    }
    seen.add(key);
  };
  for (const h of r.headers) {
    claim(h.name);
    out[h.name] = renderHeader(h, gen);
  }
  if (r.cookies.length > 0) {
    claim('Set-Cookie');
    out['Set-Cookie'] = renderSetCookie(route, status, r.cookies, gen);
  }
  return out;
}

function renderHeader(h: HeaderDescriptor, gen: SchemaGenerator): HeaderObject {
  const { description, schema } = describedValue(h.description, h.codec, gen);
  return omitUndefined<HeaderObject>({
    description,
    required: h.required ? true : undefined,
    schema,
  });
}

/**
 * The `Set-Cookie` header that documents a response's cookies (OpenAPI has no response-cookie
 * object: they are documented at `responses[status].headers["Set-Cookie"]`). Its description names
 * every cookie; `required` is true when any cookie is; its schema is a string starting with one
 * of the cookie names and `=`; the `x-cookies` extension gives each cookie's value schema.
 */
function renderSetCookie(
  route: RouteDescriptor,
  status: string,
  cookies: readonly ResponseCookieDescriptor[],
  gen: SchemaGenerator,
): HeaderObject {
  const ext: SetCookieExtension = {};
  for (const c of cookies) {
    if (Object.hasOwn(ext, c.name)) {
      throw routeError(route, 'duplicateResponseCookie', `response ${status} declares cookie "${c.name}" twice`, c.name);
    }
    const { description, schema } = describedValue(c.description, c.codec, gen);
    ext[c.name] = omitUndefined<SetCookieExtension[string]>({ description, required: c.required, schema });
  }
  const described = cookies.map((c): ResponseCookieDescriptor => {
    const d = ext[c.name]?.description;
    return d === undefined ? c : { ...c, description: d };
  });
  const names = cookies.map((c) => escapeRegExp(c.name));
  const pattern = names.length === 1 ? `^${names[0] as string}=` : `^(?:${names.join('|')})=`;
  return {
    description: setCookieDescription(described),
    ...(cookies.some((c) => c.required) ? { required: true } : {}),
    schema: { type: 'string', pattern },
    'x-cookies': ext,
  };
}

function setCookieDescription(cookies: readonly ResponseCookieDescriptor[]): string {
  const [only] = cookies;
  if (cookies.length === 1 && only !== undefined) {
    return only.description !== undefined && only.description !== ''
      ? `Sets the cookie \`${only.name}\`: ${only.description}`
      : `Sets the cookie \`${only.name}\`.`;
  }
  const lines = cookies.map((c) => {
    const text = c.description !== undefined && c.description !== '' ? `: ${c.description}` : '';
    return `- \`${c.name}\` (${c.required ? 'required' : 'optional'})${text}`;
  });
  return `Sets these cookies, one \`Set-Cookie\` header each:\n\n${lines.join('\n')}`;
}

/** Escapes the regex syntax characters of a cookie name (valid in ECMA-262 `u` mode too). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
