import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaWriter } from './schema-writer.js';

/**
 * Codec of a boolean whose wire value is `"true"` or `"false"`, for parameters. Schema: in
 * parameter position `{ type: 'boolean' }`; as a body value `{ type: 'string', enum: ['true', 'false'] }`.
 * Encoding checks that the value is a boolean.
 */
export class BoolStringCodec extends Codec<boolean> {
  readonly kind = 'boolString';
  protected parse(input: unknown, ctx: DecodeContext): boolean | Invalid {
    if (input === 'true') return true;
    if (input === 'false') return false;
    return ctx.addIssue(`expected "true" or "false", got ${typeof input === 'string' ? JSON.stringify(input) : describeType(input)}`, 'type', input);
  }
  protected serialize(value: boolean): unknown {
    if (typeof value !== 'boolean') throw mismatch('boolean', value);
    return value ? 'true' : 'false';
  }
  protected baseSchema(gen: SchemaWriter): JsonSchema {
    return gen.target === 'parameter' ? { type: 'boolean' } : { type: 'string', enum: ['true', 'false'] };
  }
}

/** A boolean carried as text: `"true"` ↔ `true`. */
// @__NO_SIDE_EFFECTS__
export function boolString(): BoolStringCodec {
  return new BoolStringCodec();
}
