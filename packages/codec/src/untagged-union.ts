import { Codec, DecodeContext, INVALID, type Infer, type Invalid } from './codec.js';
import { DecodeError } from './decode-error.js';
import { deepEqual } from './internal/deep-equal.js';
import { encodeIssue, firstProblem, isProbing, probe, PROBE_FAILED } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/** The decoded type of an untagged union: the union of its codecs' types. */
export type UntaggedUnionOutput<C extends readonly Codec<unknown>[]> = Infer<C[number]>;

/**
 * Codec of a value that one of several codecs accepts, without a tag. Decoding tries the
 * codecs in order and returns the first success; when none accepts the value, one issue with
 * constraint `anyOf` lists each codec's first problem.
 *
 * Encoding uses the first codec that round-trips the value (`decode(encode(v))` structurally
 * equal to `v`); failing that, the first whose encoding decodes, and failing that the first that
 * encodes the value at all (constraints do not run on encode). When no codec can encode the
 * value (each one's encode checks fail), it throws an `EncodeError` with one issue, constraint
 * `anyOf`, listing each codec's first problem.
 *
 * Schema `{ anyOf: [...] }`: `anyOf`, not `oneOf`, because the decoder takes the first match
 * and accepts values several codecs accept. Put more specific codecs first; a wire value two
 * codecs accept always decodes by the first one, so values of the later codec that encode to
 * it do not round-trip.
 */
export class UntaggedUnionCodec<C extends readonly Codec<unknown>[]> extends Codec<UntaggedUnionOutput<C>> {
  readonly kind = 'untaggedUnion';
  /** The alternatives, in decoding order. */
  readonly codecs: C;
  constructor(codecs: C) {
    super();
    if (codecs.length === 0) throw new TypeError('an untagged union needs at least one codec');
    this.codecs = codecs;
  }
  override children(): readonly Codec<unknown>[] {
    return this.codecs;
  }
  protected parse(input: unknown, ctx: DecodeContext): UntaggedUnionOutput<C> | Invalid {
    const problems: string[] = [];
    for (const codec of this.codecs) {
      const sub = new DecodeContext({ abortEarly: true });
      const v = codec.decodeIn(input, sub);
      if (v !== INVALID && sub.issues.length === 0) return v as UntaggedUnionOutput<C>;
      problems.push(DecodeError.describe(sub.issues));
    }
    return ctx.addIssue(`matches no alternative (${problems.join(' | ')})`, 'anyOf', input);
  }
  protected serialize(value: UntaggedUnionOutput<C>): unknown {
    let decodable: { wire: unknown } | undefined;
    let encodable: { wire: unknown } | undefined;
    for (const codec of this.codecs) {
      // Any error, a user function's included, means this alternative does not take the value.
      const wire = probe(codec, value);
      if (wire === PROBE_FAILED) continue;
      const ctx = new DecodeContext({ abortEarly: true });
      const back = codec.decodeIn(wire, ctx);
      if (back === INVALID || ctx.issues.length > 0) {
        // Encodable, but a constraint (or the decoder) refuses it: written only if nothing better.
        encodable ??= { wire };
        continue;
      }
      if (deepEqual(back, value)) return wire;
      decodable ??= { wire };
    }
    const best = decodable ?? encodable;
    if (best !== undefined) return best.wire;
    if (isProbing()) throw PROBE_FAILED;
    // No alternative fits: encode with each again, outside the probe, for its first problem.
    // A failure that does not recur here (a probe runs one call deeper, so a value nested to the
    // edge of the call stack can fail there only) is no failure: the first encoding is written.
    const problems: string[] = [];
    for (const codec of this.codecs) {
      try {
        return codec.encode(value);
      } catch (err) {
        problems.push(firstProblem(err));
      }
    }
    throw encodeIssue(`matches no alternative (${problems.join(' | ')})`, 'anyOf', value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return { anyOf: this.codecs.map((c) => gen.schema(c)) };
  }
}

/**
 * An untagged union: `codec.untaggedUnion(codec.int(), codec.string())`
 * decodes `1` and `"a"`. See {@link UntaggedUnionCodec} for the decoding order.
 * @throws {TypeError} when called without codecs.
 */
// @__NO_SIDE_EFFECTS__
export function untaggedUnion<const C extends readonly Codec<unknown>[]>(...codecs: C): UntaggedUnionCodec<C> {
  return new UntaggedUnionCodec(codecs);
}
