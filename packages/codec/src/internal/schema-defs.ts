// Definitions that only some codecs need: recursion (`lazy`), derived definitions (tagged
// unions' named variants) and fresh names (adopted Standard Schemas). They live outside
// `SchemaWriter` so that `Codec.schema` of a plain object codec does not load them.
import type { Codec } from '../codec.js';
import type { JsonSchema } from '../json-schema.js';
import type { SchemaWriter } from '../schema-writer.js';

/** The bookkeeping of one writer's definitions. */
export interface DefsState {
  /** Definition name → the codec it renders. */
  readonly owners: Map<string, Codec<unknown>>;
  /** Definitions emitted by {@link deriveSchema}: name → the schema's JSON text. */
  readonly derived: Map<string, string>;
  /** Recursive codecs being rendered: codec → the definition name reserved for it. */
  readonly open: Map<Codec<unknown>, { name: string | undefined }>;
  /** Recursive codecs already emitted as definitions: codec → its `$ref`. */
  readonly closed: Map<Codec<unknown>, JsonSchema>;
  readonly reserved: Set<string>;
  auto: number;
}

const states = new WeakMap<SchemaWriter, DefsState>();

/** The bookkeeping of `gen`, created on first use. */
export function defsOf(gen: SchemaWriter): DefsState {
  let s = states.get(gen);
  if (s === undefined) states.set(gen, (s = { owners: new Map(), derived: new Map(), open: new Map(), closed: new Map(), reserved: new Set(), auto: 0 }));
  return s;
}

/** A `$ref` to definition `name` of `gen`. */
export function refTo(gen: SchemaWriter, name: string): JsonSchema {
  return { $ref: gen.refPrefix + encodeURIComponent(name) };
}

/** A fresh definition name: `Recursive1`, `Recursive2`, … */
export function autoName(gen: SchemaWriter, prefix = 'Recursive'): string {
  const st = defsOf(gen);
  let name: string;
  do name = `${prefix}${++st.auto}`;
  while (Object.hasOwn(gen.definitions, name) || st.reserved.has(name));
  return name;
}

/**
 * Emits `schema` as a definition derived from other definitions (a tagged union's named
 * variant with its tag pinned: `CardVariant`) and returns a `$ref` to it. The definition is
 * named `name` when that name is free or already holds the same schema, else the first of
 * `name2`, `name3`, … that is.
 */
export function deriveSchema(gen: SchemaWriter, name: string, schema: JsonSchema): JsonSchema {
  const st = defsOf(gen);
  const text = JSON.stringify(schema);
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name}${i}`;
    const taken = Object.hasOwn(gen.definitions, candidate) || st.reserved.has(candidate);
    if (taken && JSON.stringify(gen.definitions[candidate]) !== text) continue;
    if (!taken) {
      gen.define(candidate, schema);
      st.derived.set(candidate, text);
    }
    return refTo(gen, candidate);
  }
}

/**
 * Renders a codec that may refer to itself (`lazy`). `render` runs once; a use of `codec`
 * met while it runs gets a `$ref` to a definition named `preferredName` (or a fresh
 * {@link autoName}), and the rendered schema becomes that definition. When no such use occurs,
 * the schema is returned inline and no definition is emitted. Either way the result is finite.
 */
export function recursiveSchema(gen: SchemaWriter, codec: Codec<unknown>, render: () => JsonSchema, preferredName?: string): JsonSchema {
  const st = defsOf(gen);
  const open = st.open.get(codec);
  if (open !== undefined) {
    // A use of the codec inside its own rendering: it needs a definition; name it now.
    if (open.name === undefined) {
      open.name =
        preferredName !== undefined && !Object.hasOwn(gen.definitions, preferredName) && !st.reserved.has(preferredName)
          ? preferredName
          : autoName(gen, preferredName);
      st.reserved.add(open.name);
    }
    return refTo(gen, open.name);
  }
  const closed = st.closed.get(codec);
  if (closed !== undefined) return closed;
  const state: { name: string | undefined } = { name: undefined };
  st.open.set(codec, state);
  let s: JsonSchema;
  try {
    s = render();
  } finally {
    st.open.delete(codec);
    if (state.name !== undefined) st.reserved.delete(state.name);
  }
  if (state.name === undefined) return s;
  const ref = refTo(gen, state.name);
  gen.define(state.name, s);
  st.owners.set(state.name, codec);
  st.closed.set(codec, ref);
  return ref;
}
