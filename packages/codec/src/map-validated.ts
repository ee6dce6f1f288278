import type { Codec } from './codec.js';
import { DecodeError, makeIssue } from './decode-error.js';
import { isProbing, PROBE_FAILED } from './internal/encode-at.js';
import { MapCodec } from './map.js';

/** The message of a thrown value. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Codec that maps the value of another codec with two fallible functions. Decode runs `inner`, then `decode`; a throw from `decode` gives an
 * issue (constraint `map`, the thrown message). Encode runs `encode`, then `inner` (whose encode
 * checks apply to the result: a wrong result is an `EncodeError`); a throw from `encode` becomes
 * a {@link DecodeError} with one issue (constraint `map`, the value, the thrown error as
 * `cause`) — the value has no wire form — and `validate(value)` reports it the same way.
 * Enclosing objects, arrays and records prefix the issue path with the field. It stays a
 * `DecodeError` through enclosing codecs as long as it is the only kind of problem of the encode
 * call; when the same call also finds a structural problem, the enclosing codec throws one
 * `EncodeError` listing every issue, this one (constraint `map`) included.
 *
 * The schema is the inner codec's; constraints added to the mapped codec act on the mapped
 * value and are not reflected into the schema.
 */
export class MapValidatedCodec<A, B> extends MapCodec<A, B> {
  override readonly kind: string = 'mapValidated';
  protected override serialize(value: B): unknown {
    let a: A;
    try {
      a = this.encodeFn(value);
    } catch (err) {
      throw isProbing() ? PROBE_FAILED : new DecodeError([makeIssue([], messageOf(err), 'map', value)], { cause: err });
    }
    return this.inner.encode(a);
  }
}

/**
 * A value mapping that may fail both ways:
 * `codec.mapValidated(codec.string(), (s) => new URL(s), (u) => { if (u.protocol !== 'https:') throw new Error('must be https'); return u.href; })`.
 * See {@link MapValidatedCodec}; for a total `encode` use {@link map}.
 */
// @__NO_SIDE_EFFECTS__
export function mapValidated<A, B>(inner: Codec<A>, decode: (a: A) => B, encode: (b: B) => A): MapValidatedCodec<A, B> {
  return new MapValidatedCodec(inner, decode, encode);
}
