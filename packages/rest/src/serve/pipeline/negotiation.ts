import Negotiator from 'negotiator';
import { mediaTypeOf, type Format } from '@lib/format';
import { NotAcceptableError } from '../../declare/errors.js';
import type { Exchange, RoutePlan, Step } from './stage.js';

/**
 * The response format an `Accept` header chooses among `formats` (RFC 9110 §12.5.1): the first
 * format for no `Accept`, an empty one or `*` / `*`; else the best match by q-value. When none
 * matches, the first format if `disregardAccept` (the server may disregard an `Accept` it
 * cannot satisfy), else a refusal.
 * @throws {NotAcceptableError} (406) no format matches and `disregardAccept` is off.
 */
export function negotiator(formats: readonly Format<unknown>[], disregardAccept: boolean): (accept: string | undefined) => Format<unknown> {
  const types = formats.map((f) => mediaTypeOf(f.contentType));
  const first = formats[0] as Format<unknown>;
  // An Accept that names one media type exactly (what clients usually send) needs no q-value parsing.
  const exact = new Map<string, Format<unknown>>(formats.map((f, i) => [types[i] as string, f]));
  return (accept) => {
    if (accept === undefined || accept === '' || accept === '*/*') return first;
    const named = exact.get(accept.toLowerCase());
    if (named !== undefined) return named;
    const type = new Negotiator({ headers: { accept } }).mediaType(types);
    if (type !== undefined) return formats[types.indexOf(type)] as Format<unknown>;
    if (disregardAccept) return first;
    throw new NotAcceptableError(accept, types);
  };
}

/** The negotiation stage (406) of a route with a response body and formats for it; `undefined` for any other route. */
export function compileNegotiation(plan: RoutePlan): Step | undefined {
  const formats = plan.handle.responseFormats;
  if (plan.respEmpty || formats.length === 0) return undefined;
  const negotiate = negotiator(formats, plan.options.disregardAccept === true);
  return {
    run(ex: Exchange): void {
      ex.respFormat = ex.negotiated = negotiate(ex.req.header('accept'));
    },
  };
}
