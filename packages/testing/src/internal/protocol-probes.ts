// The requests that provoke the statuses a route documents for HTTP itself, not for its values:
// 406 (an `Accept` no response format matches, RFC 9110 §15.5.7), 415 (a `Content-Type` no
// request format reads, §15.5.16) and 413 (a body over the documented limit, §15.5.14). Each is
// a valid request with one thing changed, made only where the route's document lists the
// status: what the document promises is what the run checks the server sends.
import type { RouteDescriptor } from '@lib/openapi';
import { pipelineStage, type StageName } from '@lib/rest/pipeline';
import type { TestRequest } from '../requests.js';

/** The status the pipeline refuses with at a stage that refuses one way (`@lib/rest/pipeline`'s stage list). */
function refusalStatus(stage: StageName): number {
  return (pipelineStage(stage).refuses[0] as { readonly status: number }).status;
}
const NOT_ACCEPTABLE = refusalStatus('negotiation');
const UNSUPPORTED = refusalStatus('media-type');
const TOO_LARGE = refusalStatus('body-limit');

/** A probe: the request, the one status that must answer it (406, 415 or 413), and what it changed, in words. */
export interface ProtocolProbe {
  readonly status: number;
  readonly request: TestRequest;
  readonly what: string;
}

/** A media type no format reads or writes (RFC 6838 §3.4, unregistered tree). */
export const UNSUPPORTED_MEDIA_TYPE = 'application/x.lib-testing-unsupported';

/** The largest body a probe sends: limits above it are not probed (a 256 MiB upload per route is no test). */
export const MAX_PROBE_BYTES: number = 8 * 1024 * 1024;

/** Whether the route documents `status`. */
function documents(d: RouteDescriptor, status: number): boolean {
  return d.responses.some((r) => r.status === String(status));
}

/** The body limit the route documents on its 413 (`x-max-body-bytes`), in bytes. */
function documentedLimit(d: RouteDescriptor): number | undefined {
  const limit = d.responses.find((r) => r.status === String(TOO_LARGE))?.extensions?.['x-max-body-bytes'];
  return typeof limit === 'number' && Number.isInteger(limit) && limit >= 0 ? limit : undefined;
}

/** `body` grown to `size` bytes or more: text with trailing spaces (JSON whitespace), bytes and files with zero bytes. */
function grown(body: string | Uint8Array | Blob, size: number): string | Uint8Array | Blob {
  if (typeof body === 'string') {
    const bytes = new TextEncoder().encode(body).byteLength;
    return body + ' '.repeat(Math.max(0, size - bytes));
  }
  const missing = Math.max(0, size - (body instanceof Blob ? body.size : body.byteLength));
  if (body instanceof Blob) return new Blob([body, new Uint8Array(missing)], { type: body.type });
  const out = new Uint8Array(body.byteLength + missing);
  out.set(body);
  return out;
}

/** `headers` with `name` (lower case) set to `value`, any other spelling of it dropped. */
function withHeader(headers: Readonly<Record<string, string>>, name: string, value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== name) out[k] = v;
  out[name] = value;
  return out;
}

/**
 * The probes of a route, made from `valid` (a request its declaration accepts, with the route's
 * credentials): each where `d` documents its status — 406 with `Accept` set to a media type no
 * format writes; with a body, 415 with `Content-Type` set to one no format reads, and 413 with
 * the body grown one byte past the documented limit (`x-max-body-bytes`, at most
 * {@link MAX_PROBE_BYTES}).
 */
export function protocolProbes(d: RouteDescriptor, valid: TestRequest): ProtocolProbe[] {
  const probes: ProtocolProbe[] = [];
  if (documents(d, NOT_ACCEPTABLE)) {
    probes.push({ status: NOT_ACCEPTABLE, what: `Accept: ${UNSUPPORTED_MEDIA_TYPE}`, request: { ...valid, headers: withHeader(valid.headers, 'accept', UNSUPPORTED_MEDIA_TYPE) } });
  }
  const body = valid.body;
  if (body === undefined) return probes;
  if (documents(d, UNSUPPORTED)) {
    probes.push({ status: UNSUPPORTED, what: `Content-Type: ${UNSUPPORTED_MEDIA_TYPE}`, request: { ...valid, headers: withHeader(valid.headers, 'content-type', UNSUPPORTED_MEDIA_TYPE) } });
  }
  const limit = documentedLimit(d);
  if (documents(d, TOO_LARGE) && limit !== undefined && limit < MAX_PROBE_BYTES) {
    probes.push({ status: TOO_LARGE, what: `a body of ${limit + 1} bytes, over the documented limit of ${limit}`, request: { ...valid, body: grown(body, limit + 1) } });
  }
  return probes;
}
