import type { Codec } from './codec.js';
import { autoName, defsOf, deriveSchema, recursiveSchema, refTo } from './internal/schema-defs.js';
import type { JsonSchema } from './json-schema.js';
import { SchemaWriter } from './schema-writer.js';

/** Options of {@link SchemaGenerator}. */
export interface SchemaGeneratorOptions {
  /** Prefix of `$ref`s to definitions. Default `'#/$defs/'`; OpenAPI uses `'#/components/schemas/'`. */
  readonly refPrefix?: string;
  /**
   * Whether named codecs (`withName`) become definitions referenced by `$ref`. Default false:
   * standalone schemas inline them; the OpenAPI renderer sets it.
   */
  readonly refNamed?: boolean;
}

/** Thrown when two different schemas are given the same name. */
export class SchemaNameConflictError extends Error {
  /** The conflicting name. */
  readonly schemaName: string;
  constructor(schemaName: string) {
    super(`two different schemas are named ${JSON.stringify(schemaName)}`);
    this.name = 'SchemaNameConflictError';
    this.schemaName = schemaName;
  }
}

/**
 * Walks codecs into JSON Schema 2020-12, as the OpenAPI renderer does. Named codecs (with
 * `refNamed`) and recursive codecs (`lazy`) are emitted once into
 * {@link SchemaWriter.definitions} and referenced by `$ref`, so recursive types give finite
 * schemas.
 */
export class SchemaGenerator extends SchemaWriter {
  override readonly refPrefix: string;
  override readonly refNamed: boolean;

  constructor(options?: SchemaGeneratorOptions) {
    super();
    this.refPrefix = options?.refPrefix ?? '#/$defs/';
    this.refNamed = options?.refNamed ?? false;
  }

  /** The schema of `codec` at a use site: a `$ref` for a named codec when `refNamed`, else inline. */
  override schema(codec: Codec<unknown>): JsonSchema {
    const name = codec.meta.name;
    if (name !== undefined && this.refNamed) return this.ref(name, codec);
    return codec.toJsonSchema(this);
  }

  /**
   * Emits `codec` as the definition `name` (once) and returns a `$ref` to it. A recursive use
   * met while the definition is being built gets the `$ref` too.
   * @throws {SchemaNameConflictError} when `name` already holds a different schema.
   */
  ref(name: string, codec: Codec<unknown>): JsonSchema {
    const ref = refTo(this, name);
    const st = defsOf(this);
    const owner = st.owners.get(name);
    if (owner === codec) return ref;
    if (owner !== undefined || st.derived.has(name)) {
      // Same name, another codec instance: accept it only when it renders the same.
      if (JSON.stringify(codec.toJsonSchema(this)) !== JSON.stringify(this.definitions[name])) {
        throw new SchemaNameConflictError(name);
      }
      return ref;
    }
    st.owners.set(name, codec);
    this.define(name, {});
    this.define(name, codec.toJsonSchema(this));
    return ref;
  }

  /**
   * Emits `schema` as a definition derived from other definitions (a tagged union's named
   * variant with its tag pinned: `CardVariant`) and returns a `$ref` to it. The definition is
   * named `name` when that name is free or already holds the same schema, else the first of
   * `name2`, `name3`, … that is; a codec later named like it must render the same schema
   * (else {@link SchemaNameConflictError}).
   */
  derive(name: string, schema: JsonSchema): JsonSchema {
    return deriveSchema(this, name, schema);
  }

  /** A fresh definition name for an unnamed recursive codec: `Recursive1`, `Recursive2`, … */
  autoName(prefix = 'Recursive'): string {
    return autoName(this, prefix);
  }

  /**
   * Renders a codec that may refer to itself (`lazy`). `render` runs once; a use of `codec`
   * met while it runs gets a `$ref` to a definition named `preferredName` (or a fresh
   * {@link SchemaGenerator.autoName}), and the rendered schema becomes that definition. When no
   * such use occurs, the schema is returned inline and no definition is emitted. Either way
   * the result is finite.
   */
  recursive(codec: Codec<unknown>, render: () => JsonSchema, preferredName?: string): JsonSchema {
    return recursiveSchema(this, codec, render, preferredName);
  }
}
