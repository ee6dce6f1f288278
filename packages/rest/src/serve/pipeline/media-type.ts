import { mediaTypeOf, type Format } from '@lib/format';
import { UnsupportedMediaTypeError } from '../../declare/errors.js';
import type { PipelineRequest } from './exchange.js';
import type { Exchange, RoutePlan, Step } from './stage.js';

/**
 * The request format a `Content-Type` names among `formats` (by media type, lower case, its
 * parameters left out).
 * @throws {UnsupportedMediaTypeError} (415) no format has that media type (an absent `Content-Type` is `''`).
 */
export function requestFormatOf(formats: ReadonlyMap<string, Format<unknown>>): (contentType: string) => Format<unknown> {
  const supported = [...formats.keys()];
  return (contentType) => {
    const f = formats.get(mediaTypeOf(contentType));
    if (f === undefined) throw new UnsupportedMediaTypeError(contentType, supported);
    return f;
  };
}

/**
 * True when a request has no content (RFC 9112 §6.3): neither `Transfer-Encoding` nor a
 * `Content-Length` other than 0.
 */
export function hasNoContent(req: PipelineRequest): boolean {
  const length = req.header('content-length');
  return req.header('transfer-encoding') === undefined && (length === undefined || length.trim() === '0');
}

/**
 * The media type stage (415) of a route with a request body; `undefined` for a route without
 * one. Where the body may be absent (`plan.bodyOptional`), a request without `Content-Type` and
 * without content has none: no format is chosen, and the body stage decodes no value.
 */
export function compileMediaType(plan: RoutePlan): Step | undefined {
  if (!plan.hasBody) return undefined;
  const formatOf = requestFormatOf(plan.requestFormats);
  const optional = plan.bodyOptional;
  return {
    run(ex: Exchange): void {
      const contentType = ex.req.header('content-type');
      ex.contentType = contentType ?? '';
      if (optional && contentType === undefined && hasNoContent(ex.req)) return;
      ex.reqFormat = formatOf(ex.contentType);
    },
  };
}
