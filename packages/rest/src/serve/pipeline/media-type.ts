import { mediaTypeOf, type Format } from '@lib/format';
import { UnsupportedMediaTypeError } from '../../declare/errors.js';
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

/** The media type stage (415) of a route with a request body; `undefined` for a route without one. */
export function compileMediaType(plan: RoutePlan): Step | undefined {
  if (!plan.hasBody) return undefined;
  const formatOf = requestFormatOf(plan.requestFormats);
  return {
    run(ex: Exchange): void {
      ex.contentType = ex.req.header('content-type') ?? '';
      ex.reqFormat = formatOf(ex.contentType);
    },
  };
}
