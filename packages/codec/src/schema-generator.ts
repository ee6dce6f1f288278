import type { Codec } from './codec.js';
import type { JsonSchema } from './json-schema.js';

/** Where a schema is used: a body value, or a parameter whose wire form is a string. */
export type SchemaTarget = 'body' | 'parameter';

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
 * Walks codecs into JSON Schema 2020-12. Named codecs (with `refNamed`) and recursive
 * codecs (`lazy`) are emitted once into {@link SchemaGenerator.definitions} and referenced
 * by `$ref`, so recursive types give finite schemas.
 */
export class SchemaGenerator {
  /** Definitions emitted so far, by name. */
  readonly definitions: Record<string, JsonSchema> = {};
  /** Prefix of `$ref`s. */
  readonly refPrefix: string;
  /** Whether named codecs are referenced rather than inlined. */
  readonly refNamed: boolean;
  /** The current target: parameters describe their decoded value type. */
  target: SchemaTarget = 'body';
  readonly #owners = new Map<string, Codec<unknown>>();
  /** Definitions emitted by {@link SchemaGenerator.derive}: name → the schema's JSON text. */
  readonly #derived = new Map<string, string>();
  /** Recursive codecs being rendered: codec → the definition name reserved for it. */
  readonly #open = new Map<Codec<unknown>, { name: string | undefined }>();
  /** Recursive codecs already emitted as definitions: codec → its `$ref`. */
  readonly #closed = new Map<Codec<unknown>, JsonSchema>();
  readonly #reserved = new Set<string>();
  #auto = 0;

  constructor(options?: SchemaGeneratorOptions) {
    this.refPrefix = options?.refPrefix ?? '#/$defs/';
    this.refNamed = options?.refNamed ?? false;
  }

  /** The schema of `codec` at a use site: a `$ref` for a named codec when `refNamed`, else inline. */
  schema(codec: Codec<unknown>): JsonSchema {
    const name = codec.meta.name;
    if (name !== undefined && this.refNamed) return this.ref(name, codec);
    return codec.toJsonSchema(this);
  }

  /** The schema of `codec` in parameter position (string-encoded codecs describe their value). */
  parameterSchema(codec: Codec<unknown>): JsonSchema {
    const before = this.target;
    this.target = 'parameter';
    try {
      return this.schema(codec);
    } finally {
      this.target = before;
    }
  }

  /**
   * Emits `codec` as the definition `name` (once) and returns a `$ref` to it. A recursive use
   * met while the definition is being built gets the `$ref` too.
   * @throws {SchemaNameConflictError} when `name` already holds a different schema.
   */
  ref(name: string, codec: Codec<unknown>): JsonSchema {
    const ref = { $ref: this.refPrefix + encodeURIComponent(name) };
    const owner = this.#owners.get(name);
    if (owner === codec) return ref;
    if (owner !== undefined || this.#derived.has(name)) {
      // Same name, another codec instance: accept it only when it renders the same.
      if (JSON.stringify(codec.toJsonSchema(this)) !== JSON.stringify(this.definitions[name])) {
        throw new SchemaNameConflictError(name);
      }
      return ref;
    }
    this.#owners.set(name, codec);
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
    const text = JSON.stringify(schema);
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? name : `${name}${i}`;
      const taken = Object.hasOwn(this.definitions, candidate) || this.#reserved.has(candidate);
      if (taken && JSON.stringify(this.definitions[candidate]) !== text) continue;
      if (!taken) {
        this.define(candidate, schema);
        this.#derived.set(candidate, text);
      }
      return { $ref: this.refPrefix + encodeURIComponent(candidate) };
    }
  }

  /** A fresh definition name for an unnamed recursive codec: `Recursive1`, `Recursive2`, … */
  autoName(prefix = 'Recursive'): string {
    let name: string;
    do name = `${prefix}${++this.#auto}`;
    while (Object.hasOwn(this.definitions, name) || this.#reserved.has(name));
    return name;
  }

  /**
   * Renders a codec that may refer to itself (`lazy`). `render` runs once; a use of `codec`
   * met while it runs gets a `$ref` to a definition named `preferredName` (or a fresh
   * {@link SchemaGenerator.autoName}), and the rendered schema becomes that definition. When no
   * such use occurs, the schema is returned inline and no definition is emitted. Either way
   * the result is finite.
   */
  recursive(codec: Codec<unknown>, render: () => JsonSchema, preferredName?: string): JsonSchema {
    const open = this.#open.get(codec);
    if (open !== undefined) {
      // A use of the codec inside its own rendering: it needs a definition; name it now.
      if (open.name === undefined) {
        open.name =
          preferredName !== undefined && !Object.hasOwn(this.definitions, preferredName) && !this.#reserved.has(preferredName)
            ? preferredName
            : this.autoName(preferredName);
        this.#reserved.add(open.name);
      }
      return { $ref: this.refPrefix + encodeURIComponent(open.name) };
    }
    const closed = this.#closed.get(codec);
    if (closed !== undefined) return closed;
    const state: { name: string | undefined } = { name: undefined };
    this.#open.set(codec, state);
    let s: JsonSchema;
    try {
      s = render();
    } finally {
      this.#open.delete(codec);
      if (state.name !== undefined) this.#reserved.delete(state.name);
    }
    if (state.name === undefined) return s;
    const ref = { $ref: this.refPrefix + encodeURIComponent(state.name) };
    this.define(state.name, s);
    this.#owners.set(state.name, codec);
    this.#closed.set(codec, ref);
    return ref;
  }

  /** Sets definition `name` (an own property, whatever the name). */
  define(name: string, schema: JsonSchema): void {
    Object.defineProperty(this.definitions, name, { value: schema, enumerable: true, writable: true, configurable: true });
  }

  /** The root schema of `codec`, inline, with `$defs` when definitions were emitted. */
  root(codec: Codec<unknown>): JsonSchema {
    const s = codec.toJsonSchema(this);
    if (Object.keys(this.definitions).length === 0) return s;
    return { ...s, $defs: { ...this.definitions } };
  }
}
