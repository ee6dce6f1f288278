import { Codec, type DecodeContext, type Invalid } from './codec.js';
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
    const value = gen.target === 'parameter' ? parameterValue(gen, s, this.defaultWire) : this.defaultWire;
    return value === NO_VALUE ? s : { ...s, default: value };
  }
}

const NO_VALUE: unique symbol = Symbol('no value');
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The value a parameter's wire text stands for under `schema` (a parameter schema describes the
 * value, not its text): the number of `"20"` under `type: integer` or `number`, the boolean of
 * `"true"` under `type: boolean`, each element of an array under `items`; anything else as it
 * is. {@link NO_VALUE} when the text names an integer no JSON number holds exactly.
 */
function parameterValue(gen: SchemaWriter, schema: JsonSchema, wire: unknown): unknown {
  const s = resolve(gen, schema);
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  if (typeof wire === 'string') {
    if ((types.includes('integer') || types.includes('number')) && NUMBER_TEXT.test(wire)) {
      const n = Number(wire);
      if (types.includes('number') ? Number.isFinite(n) : Number.isSafeInteger(n)) return n;
      if (types.includes('integer') && !types.includes('string')) return NO_VALUE;
    }
    if (types.includes('boolean') && (wire === 'true' || wire === 'false')) return wire === 'true';
    return wire;
  }
  if (Array.isArray(wire) && types.includes('array') && typeof s.items === 'object') {
    const items = s.items;
    const out = wire.map((w) => parameterValue(gen, items, w));
    return out.includes(NO_VALUE) ? NO_VALUE : out;
  }
  return wire;
}

/** `schema`, or the definition its `$ref` names. */
function resolve(gen: SchemaWriter, schema: JsonSchema): JsonSchema {
  if (schema.$ref === undefined || !schema.$ref.startsWith(gen.refPrefix)) return schema;
  return gen.definitions[decodeURIComponent(schema.$ref.slice(gen.refPrefix.length))] ?? schema;
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
