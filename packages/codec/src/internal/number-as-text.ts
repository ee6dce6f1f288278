import { Codec } from '../codec.js';
import type { JsonSchema } from '../json-schema.js';
import type { SchemaWriter } from '../schema-writer.js';

/**
 * A codec of a number or `bigint` whose wire value is, in some or every position, text
 * (`intString`, `int64`, `uint64`, `duration`). Its constraints run on decode as any codec's
 * do; their schema keywords (`minimum`, `maximum`, `multipleOf`) are reflected only on a schema
 * of `type: 'integer'` or `'number'` (an `intString` parameter). On a `type: 'string'` schema
 * JSON Schema has no keyword bounding the number the text spells: a numeric keyword there would
 * have no effect on validators, and strict Ajv refuses the schema.
 */
export abstract class NumberAsTextCodec<T extends number | bigint> extends Codec<T> {
  protected override reflectConstraints(schema: JsonSchema, gen: SchemaWriter): JsonSchema {
    return schema.type === 'integer' || schema.type === 'number' ? super.reflectConstraints(schema, gen) : schema;
  }
}
