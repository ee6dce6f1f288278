import type { JsonSchema } from './json-schema.js';

/** What a writer walks: a codec, which renders its own schema with the writer it is given. */
export interface SchemaSource {
  toJsonSchema(gen: SchemaWriter): JsonSchema;
}

/** Where a schema is used: a body value, or a parameter whose wire form is a string. */
export type SchemaTarget = 'body' | 'parameter';

/**
 * The state of one walk of codecs into JSON Schema 2020-12: the definitions emitted so far, the
 * `$ref` prefix and the current target. Codecs render their children with
 * {@link SchemaWriter.schema}. It inlines every codec; recursive codecs (`lazy`) still get a
 * definition, referenced by `$ref`. {@link Codec.schema} uses one; the OpenAPI renderer uses a
 * `SchemaGenerator`, which also turns named codecs into `$ref`s.
 */
export class SchemaWriter {
  /** Definitions emitted so far, by name. */
  readonly definitions: Record<string, JsonSchema> = {};
  /** Prefix of `$ref`s to definitions (`'#/$defs/'`). */
  readonly refPrefix: string = '#/$defs/';
  /** Whether named codecs are referenced rather than inlined: false here. */
  readonly refNamed: boolean = false;
  /** The current target: parameters describe their decoded value type. */
  target: SchemaTarget = 'body';

  /** The schema of `codec` at a use site. */
  schema(codec: SchemaSource): JsonSchema {
    return codec.toJsonSchema(this);
  }

  /** The schema of `codec` in parameter position (string-encoded codecs describe their value). */
  parameterSchema(codec: SchemaSource): JsonSchema {
    const before = this.target;
    this.target = 'parameter';
    try {
      return this.schema(codec);
    } finally {
      this.target = before;
    }
  }

  /** Sets definition `name` (an own property, whatever the name). */
  define(name: string, schema: JsonSchema): void {
    Object.defineProperty(this.definitions, name, { value: schema, enumerable: true, writable: true, configurable: true });
  }

  /** The root schema of `codec`, inline, with `$defs` when definitions were emitted. */
  root(codec: SchemaSource): JsonSchema {
    const s = codec.toJsonSchema(this);
    if (Object.keys(this.definitions).length === 0) return s;
    return { ...s, $defs: { ...this.definitions } };
  }
}
