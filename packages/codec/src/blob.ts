import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/** Size bounds of {@link blob}, in bytes. */
export interface BlobBounds {
  /** The largest size accepted, in bytes. */
  readonly maxBytes?: number;
  /** The smallest size accepted, in bytes. */
  readonly minBytes?: number;
}

/**
 * Codec of a web `Blob` (a `File` when the upload had a file name): a file part of a
 * `multipart/form-data` body that is too large to hold in memory. The server keeps such a part
 * in a temporary file and hands the handler a `Blob` that reads it back (`await blob.bytes()`,
 * `blob.stream()`); a client sends one from a `Blob` or `File` it has. Use `codec.bytes()` for
 * parts small enough to hold whole, where byte constraints such as `validate.png` can run.
 *
 * Decoding accepts a `Blob` (anything else: constraint `type`) and checks its size against
 * `maxBytes` / `minBytes` (constraints of those names); the multipart reader also stops reading
 * a part as soon as it passes `maxBytes` (413). Encoding checks that the value is a `Blob` and
 * hands it over as it is: a blob has no JSON form, so it belongs in multipart bodies only.
 * Schema `{ type: 'string', contentMediaType: 'application/octet-stream' }`, the OpenAPI 3.1
 * description of a binary property of a multipart body.
 */
export class BlobCodec extends Codec<Blob> {
  readonly kind = 'blob';
  /** The size bounds, in bytes. */
  readonly bounds: BlobBounds;
  constructor(bounds: BlobBounds = {}) {
    super();
    this.bounds = bounds;
  }
  protected parse(input: unknown, ctx: DecodeContext): Blob | Invalid {
    if (!(typeof Blob !== 'undefined' && input instanceof Blob)) return ctx.addIssue(`expected a Blob, got ${describeType(input)}`, 'type', input);
    const { maxBytes, minBytes } = this.bounds;
    if (maxBytes !== undefined && input.size > maxBytes) return ctx.addIssue(`must have at most ${maxBytes} byte${maxBytes === 1 ? '' : 's'}`, 'maxBytes', input);
    if (minBytes !== undefined && input.size < minBytes) return ctx.addIssue(`must have at least ${minBytes} byte${minBytes === 1 ? '' : 's'}`, 'minBytes', input);
    return input;
  }
  protected serialize(value: Blob): unknown {
    if (!(typeof Blob !== 'undefined' && value instanceof Blob)) throw mismatch('Blob', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'string', contentMediaType: 'application/octet-stream' };
  }
}

/**
 * A `Blob` codec for large file uploads (`codec.blob({ maxBytes: 100 * 1024 * 1024 })`), sizes
 * in bytes. See {@link BlobCodec}.
 */
// @__NO_SIDE_EFFECTS__
export function blob(bounds?: BlobBounds): BlobCodec {
  return new BlobCodec(bounds);
}
