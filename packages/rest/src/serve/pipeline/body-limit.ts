import { DecodeError } from '@lib/codec';
import { BodyLimitError, type Format } from '@lib/format';
import { BodyTooLargeError, RequestBodyError } from '../../declare/errors.js';
import type { RouteHandle } from '../../declare/route.js';
import type { PipelineRequest } from './exchange.js';
import { isAsyncIterable, type Exchange, type RoutePlan, type Step, type StreamedBody } from './stage.js';

/**
 * Reads a request body up to the limit of its format (413). A streamed format (multipart) reads it
 * as it arrives and gives its value, or the refusal of a body it could not decode, kept for the
 * 400 that names every failure; the other formats get the bytes, decoded by the body stage.
 */
export type BodyReader = (req: PipelineRequest, f: Format<unknown>, contentType: string) => Promise<Uint8Array | StreamedBody>;

/**
 * The body reader of a route's request formats. Each format's limit follows the one rule the
 * document's 413 states too (`handle.bodyLimit`): the route's own, else what its format states,
 * else the builder's, else 1 MiB. A limit derived from a format's part limits is named with them
 * in the 413, as they were written.
 */
export function bodyReader(handle: RouteHandle<unknown, unknown>, formats: Iterable<Format<unknown>>): BodyReader {
  const limits = new Map<Format<unknown>, number>();
  const limitsFrom = new Map<Format<unknown>, string>();
  for (const f of formats) {
    limits.set(f, handle.bodyLimit(f));
    const from = handle.bodyLimitFrom(f);
    if (from !== undefined) limitsFrom.set(f, from);
  }
  return (req, f, ct) => {
    const limit = limits.get(f) as number;
    const from = limitsFrom.get(f);
    const reading: Promise<Uint8Array | StreamedBody> = f.unmarshalStream === undefined ? req.readBody(limit) : readStreamed(req, f, ct, limit);
    return from === undefined ? reading : namingParts(reading, limit, from);
  };
}

/** `reading`, whose 413 at `limit` names the part limits the limit was derived from. */
async function namingParts<T>(reading: Promise<T>, limit: number, from: string): Promise<T> {
  try {
    return await reading;
  } catch (err) {
    if (err instanceof BodyTooLargeError && err.limit === limit) throw new BodyTooLargeError(limit, `${err.message}: ${from}`);
    throw err;
  }
}

async function readStreamed(req: PipelineRequest, f: Format<unknown>, ct: string, limit: number): Promise<StreamedBody> {
  try {
    const v = await (f.unmarshalStream as NonNullable<Format<unknown>['unmarshalStream']>)(req.bodyStream(limit), { contentType: ct, signal: req.signal, ...(req.files !== undefined && { files: req.files }) });
    return { value: isAsyncIterable(v) ? requestItems(v) : v };
  } catch (err) {
    if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
    // Only a body the format or codec refuses is the client's fault (400, reported with the
    // parameters' issues); a body limit is 413, and anything else — storage that failed, a
    // constraint that throws, the connection lost mid-body — is not a 400.
    if (!(err instanceof DecodeError)) throw err;
    return { error: err };
  }
}

/**
 * A request body the handler reads as it arrives (a `codec.stream` body): an item that fails to
 * decode is the client's fault, so the iteration throws a `RequestBodyError` (400) rather than
 * the bare `DecodeError` a handler could rethrow as a 500; a body past the limit stays a
 * `BodyTooLargeError` (413).
 */
async function* requestItems(items: AsyncIterable<unknown>): AsyncGenerator<unknown, void, undefined> {
  try {
    yield* items;
  } catch (err) {
    if (err instanceof BodyLimitError) throw new BodyTooLargeError(err.limit, err.message);
    throw err instanceof DecodeError ? new RequestBodyError(err) : err;
  }
}

/** The body limit stage (413): reads the body of a route that takes one; `undefined` for a route without one. */
export function compileBodyLimit(plan: RoutePlan): Step<Uint8Array | StreamedBody | undefined> | undefined {
  if (!plan.hasBody) return undefined;
  const read = bodyReader(plan.handle, plan.requestFormats.values());
  return {
    // The media type stage before it has chosen the format; none for an optional body left out.
    run: (ex: Exchange) => (ex.reqFormat === undefined ? undefined : read(ex.req, ex.reqFormat, ex.contentType)),
    keep(ex: Exchange, body: Uint8Array | StreamedBody | undefined): void {
      ex.body = body;
    },
  };
}
