import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaGenerator } from './schema-generator.js';

const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * Codec of a safe integer whose wire value is its decimal text (`"42"`), for path, query,
 * header and cookie parameters. Schema: in parameter position `{ type: 'integer' }` with the
 * constraints' keywords (what the parameter means); as a body value
 * `{ type: 'string', pattern: '^-?(?:0|[1-9][0-9]*)$' }`.
 */
export class IntStringCodec extends Codec<number> {
  readonly kind = 'intString';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'string') return ctx.addIssue(`expected integer string, got ${describeType(input)}`, 'type', input);
    if (!INTEGER_TEXT.test(input)) return ctx.addIssue('expected an integer', 'type', input);
    const n = Number(input);
    return Number.isSafeInteger(n) ? n : ctx.addIssue('expected a safe integer', 'type', input);
  }
  protected serialize(value: number): unknown {
    return String(value);
  }
  protected baseSchema(gen: SchemaGenerator): JsonSchema {
    return gen.target === 'parameter' ? { type: 'integer' } : { type: 'string', pattern: INTEGER_TEXT.source };
  }
  protected override reflectConstraints(schema: JsonSchema, gen: SchemaGenerator): JsonSchema {
    // Numeric keywords only mean something on the integer a parameter describes.
    return gen.target === 'parameter' ? super.reflectConstraints(schema, gen) : schema;
  }
}

/** An integer carried as text (SPEC.md `codec.IntString`): `"42"` ↔ `42`. */
// @__NO_SIDE_EFFECTS__
export function intString(): IntStringCodec {
  return new IntStringCodec();
}
