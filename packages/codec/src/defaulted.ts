import { Codec, type DecodeContext, type Invalid } from './codec.js';
import { NO_VALUE, textValue, type RefLookup } from './internal/parameter-text.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec of a value with a default: an absent (`undefined`) wire value decodes to the default,
 * anything else decodes through `inner`. As an `object` field the key may be absent, yet the
 * decoded field is always present (not `?:`). Encoding writes the value through `inner` (and
 * its encode checks); `undefined` encodes to `undefined`, an absent value that decodes to the
 * default, so an `object` field holding `undefined` is left out. Schema: the inner schema with
 * `default` set to the default's wire value. In parameter position, where a string-carried value
 * is described by its meaning (`intString()` reads `type: integer`), `default` is that meaning
 * too, so that it is an instance of the schema it annotates (JSON Schema 2020-12 Validation
 * §9.2): `defaulted(intString(), 20)` gives `{ type: 'integer', default: 20 }`, not `"20"`. A
 * default whose text names an integer beyond ±(2^53−1) has no exact JSON number here, and
 * `default` is left out.
 *
 * Each decode of an absent value decodes the stored wire default afresh, so decoded defaults
 * are never shared between results.
 */
export class DefaultedCodec<T> extends Codec<T> {
  readonly kind = 'defaulted';
  /** The codec of a present value. */
  readonly inner: Codec<T>;
  /** The default, as a wire value. */
  readonly defaultWire: unknown;
  constructor(inner: Codec<T>, value: T) {
    super();
    this.inner = inner;
    this.defaultWire = inner.encode(value);
  }
  override children(): readonly Codec<unknown>[] {
    return [this.inner];
  }
  protected parse(input: unknown, ctx: DecodeContext): T | Invalid {
    return this.inner.decodeIn(input === undefined ? this.defaultWire : input, ctx);
  }
  protected serialize(value: T): unknown {
    return value === undefined ? undefined : this.inner.encode(value);
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    const s = gen.schema(this.inner);
    const value = gen.target === 'parameter' ? textValue(s, this.defaultWire, lookupIn(gen)) : this.defaultWire;
    return value === NO_VALUE ? s : { ...s, default: value };
  }
}

/** The definitions of `gen` by their `$ref`. */
function lookupIn(gen: SchemaWriter): RefLookup {
  return (ref) => (ref.startsWith(gen.refPrefix) ? gen.definitions[decodeURIComponent(ref.slice(gen.refPrefix.length))] : undefined);
}

/**
 * A codec whose absent value decodes to `value`:
 * `codec.object({ limit: codec.defaulted(codec.int(), 20) })` decodes `{}` to `{ limit: 20 }`
 * and documents `default: 20`.
 * @throws {DecodeError} when `value` does not satisfy `inner` (a default must be valid).
 */
// @__NO_SIDE_EFFECTS__
export function defaulted<T>(inner: Codec<T>, value: T): DefaultedCodec<T> {
  inner.validate(value);
  return new DefaultedCodec(inner, value);
}
