import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { Codec, INVALID, type DecodeContext, type Invalid } from './codec.js';
import { makeIssue, type PathSegment } from './decode-error.js';
import type { JsonSchema } from './json-schema.js';
import { listItems, NO_VALUE, textValue, type RefLookup } from './internal/parameter-text.js';
import { autoName } from './internal/schema-defs.js';
import type { SchemaWriter } from './schema-writer.js';

/** Options of {@link fromStandardSchema}. */
export interface FromStandardSchemaOptions<T> {
  /**
   * The JSON Schema 2020-12 of the wire value (or a function returning it, called once, when a
   * schema is first rendered). Required when the schema does not implement Standard JSON Schema
   * (`~standard.jsonSchema`, which zod 4 and arktype 2 offer and valibot offers through
   * `toStandardJsonSchema` of `@valibot/to-json-schema`); when given, it wins over it.
   */
  readonly jsonSchema?: JsonSchema | (() => JsonSchema);
  /**
   * Writes a decoded value to its wire form. Default: the identity — the value itself is the
   * wire value. Give it when the schema transforms (its output type is not its input type).
   */
  readonly encode?: (value: T) => unknown;
  /**
   * The schema describes a parameter's value (path, query, header or cookie; a response header
   * or cookie): its wire form is text, as `intString()`'s is. Decoding first reads the text by
   * the schema's JSON Schema — a JSON number's text as a number where the schema admits
   * `integer` or `number`, `"true"`/`"false"` as a boolean where it admits `boolean`, each text
   * of a list (a repeated query key) by `items` where it describes an array, each text of an
   * object (a styled parameter's properties) by its `properties` where it describes an object,
   * any other text as it is — and then runs `validate`; encoding writes numbers and booleans as their text.
   * Default `false`: the wire value is the JSON value itself.
   */
  readonly parameter?: boolean;
}

/** A thenable: what an async Standard Schema returns. */
function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** A value as parameter text: numbers, booleans and bigints as their text, arrays item by item. */
function toText(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : Array.isArray(v) ? v.map(toText) : v;
}

/** The local definitions of a foreign root schema by their `$ref` (`#/$defs/Name`, `#`). */
function lookupIn(raw: JsonSchema): RefLookup {
  return (ref) => (ref === '#' ? raw : ref.startsWith('#/$defs/') ? raw.$defs?.[unescapeSegment(ref.slice(8))] : undefined);
}

/** A path segment of a Standard Schema issue as ours (symbols by their description). */
function segmentOf(seg: PropertyKey | StandardSchemaV1.PathSegment): PathSegment {
  const key = typeof seg === 'object' ? seg.key : seg;
  return typeof key === 'number' ? key : typeof key === 'symbol' ? (key.description ?? '') : key;
}

/** The value at `path` inside `input`, or `undefined`. */
function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let v = input;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null || !Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
    v = (v as Record<PathSegment, unknown>)[seg];
  }
  return v;
}

/** The name of the failed check: zod's and arktype's `code`, valibot's `type`, else the vendor. */
function constraintOf(issue: StandardSchemaV1.Issue, vendor: string): string {
  const { code, type } = issue as { code?: unknown; type?: unknown };
  return typeof code === 'string' ? code : typeof type === 'string' ? type : vendor;
}

/** Decodes one JSON Pointer segment of a URI fragment. */
function unescapeSegment(seg: string): string {
  return decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Moves a foreign root schema into `gen`: drops `$schema`, turns its `$defs` into generator
 * definitions (renamed when the name is taken) and rewrites its `$ref`s; a schema that refers
 * to its own root (`$ref: '#'`, as zod writes recursion) becomes a definition itself.
 */
function adopt(raw: JsonSchema, gen: SchemaWriter, preferredName: string | undefined): JsonSchema {
  const { $schema: _schema, $defs, ...root } = raw;
  const names = new Map<string, string>();
  for (const name of Object.keys($defs ?? {})) names.set(name, Object.hasOwn(gen.definitions, name) ? autoName(gen, name) : name);
  let rootName: string | undefined;
  const ref = (name: string, rest: string): string => gen.refPrefix + encodeURIComponent(name) + rest;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#')) {
        const m = /^#\/\$defs\/([^/]*)(.*)$/.exec(v);
        const def = m === null ? undefined : names.get(unescapeSegment(m[1] as string));
        if (m !== null && def !== undefined) out[k] = ref(def, m[2] as string);
        else out[k] = ref((rootName ??= autoName(gen, preferredName ?? 'Schema')), v.slice(1));
      } else Object.defineProperty(out, k, { value: rewrite(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  for (const [name, def] of Object.entries($defs ?? {})) gen.define(names.get(name) as string, rewrite(def) as JsonSchema);
  const s = rewrite(root) as JsonSchema;
  if (rootName === undefined) return s;
  gen.define(rootName, s);
  return { $ref: ref(rootName, '') };
}

/**
 * A codec backed by a Standard Schema v1 (zod 4, valibot 1, arktype 2, …). Decoding runs the
 * schema's synchronous `validate`: its issues become {@link Issue}s (path, message, the
 * library's issue code as `constraint`, the value at the path) and its output is the decoded
 * value — so unknown keys, coercions and transforms behave as the library defines them.
 *
 * Encoding is the identity unless `options.encode` is given: the value is the wire value and
 * no check runs (a Standard Schema has no encode side to check with; `encode` is trusted), and
 * a schema whose output differs from its input (a transform, a `z.date()` read from text) needs
 * `encode` for `validate` and for responses to be right. `validate(value)` decodes
 * `encode(value)`, so it checks the written form, structure and constraints alike.
 *
 * Schema: `options.jsonSchema`, else the schema's Standard JSON Schema *input* schema (the
 * wire value), target `draft-2020-12`; `$schema` is dropped and `$defs` become generator
 * definitions (`components.schemas` in OpenAPI), with `$ref`s rewritten.
 *
 * With `options.parameter`, the wire value is text (a parameter's): see
 * {@link FromStandardSchemaOptions.parameter}. The schema is then the value's, in parameter and
 * body position alike (`intString()` shows `type: integer` as a parameter too).
 */
export class StandardSchemaCodec<T> extends Codec<T> {
  readonly kind = 'standardSchema';
  /** The adapted schema. */
  readonly standard: StandardSchemaV1<unknown, T>;
  /** The schema's library (`zod`, `valibot`, `arktype`). */
  readonly vendor: string;
  /** The adapter's options. */
  readonly options: FromStandardSchemaOptions<T>;
  /** The raw JSON Schema and its adoption per generator, shared by copies. */
  protected readonly cell: { raw?: JsonSchema; list?: boolean; adopted: WeakMap<SchemaWriter, JsonSchema> } = { adopted: new WeakMap() };

  constructor(standard: StandardSchemaV1<unknown, T>, options: FromStandardSchemaOptions<T> = {}) {
    super();
    const props = standard['~standard'];
    if (options.jsonSchema === undefined && typeof (props as Partial<StandardJSONSchemaV1.Props>).jsonSchema?.input !== 'function') {
      throw new TypeError(
        `the ${props.vendor} schema has no Standard JSON Schema (~standard.jsonSchema); pass options.jsonSchema`,
      );
    }
    this.standard = standard;
    this.vendor = props.vendor;
    this.options = options;
  }

  /** The JSON Schema of the wire value, as the schema or the options give it. */
  get rawJsonSchema(): JsonSchema {
    if (this.cell.raw !== undefined) return this.cell.raw;
    const given = this.options.jsonSchema;
    let raw: JsonSchema;
    if (given !== undefined) raw = typeof given === 'function' ? given() : given;
    else {
      const props = this.standard['~standard'] as unknown as StandardJSONSchemaV1.Props;
      try {
        raw = props.jsonSchema.input({ target: 'draft-2020-12' }) as JsonSchema;
      } catch (err) {
        throw new TypeError(`the ${this.vendor} schema cannot be written as JSON Schema; pass options.jsonSchema`, { cause: err });
      }
    }
    return (this.cell.raw = raw);
  }

  /**
   * True for a parameter (`options.parameter`) whose schema describes an array: its wire value
   * is a list of texts, each read by `items` — a query parameter that takes every value of its
   * repeated key (`?tag=a&tag=b`), as `array(...)` codecs do.
   */
  get list(): boolean {
    return (this.cell.list ??= this.options.parameter === true && listItems(this.rawJsonSchema, lookupIn(this.rawJsonSchema)) !== undefined);
  }

  protected parse(wire: unknown, ctx: DecodeContext): T | Invalid {
    let input = wire;
    if (this.options.parameter === true) {
      const raw = this.rawJsonSchema;
      const read = textValue(raw, wire, lookupIn(raw));
      if (read !== NO_VALUE) input = read;
    }
    const result = this.standard['~standard'].validate(input);
    if (isPromiseLike(result)) {
      throw new TypeError(`the ${this.vendor} schema validates asynchronously; codecs decode synchronously`);
    }
    if (!result.issues) return result.value;
    const base = ctx.path.slice();
    for (const issue of result.issues) {
      // Array.from, not `.map`: arktype's path is an Array subclass whose species makes `[0]` of an empty path.
      const rel = Array.from(issue.path ?? [], segmentOf);
      ctx.issues.push(makeIssue([...base, ...rel], issue.message, constraintOf(issue, this.vendor), valueAt(input, rel)));
      if (ctx.abortEarly) break;
    }
    return INVALID;
  }

  protected serialize(value: T): unknown {
    const wire = this.options.encode === undefined ? value : this.options.encode(value);
    return this.options.parameter === true ? toText(wire) : wire;
  }

  protected baseSchema(gen: SchemaWriter): JsonSchema {
    let s = this.cell.adopted.get(gen);
    if (s === undefined) this.cell.adopted.set(gen, (s = adopt(this.rawJsonSchema, gen, this.meta.name)));
    return s;
  }
}

/**
 * Adapts a Standard Schema v1 (zod 4, valibot 1, arktype 2, …) into a codec usable in any route
 * slot: `codec.fromStandardSchema(z.object({ name: z.string().min(1) }))`. The decoded type is
 * the schema's output type. See {@link StandardSchemaCodec} for decoding, the identity
 * encoding and where the JSON Schema comes from.
 * @throws {TypeError} when the schema offers no Standard JSON Schema and `options.jsonSchema` is absent.
 */
// @__NO_SIDE_EFFECTS__
export function fromStandardSchema<S extends StandardSchemaV1>(
  schema: S,
  options?: FromStandardSchemaOptions<StandardSchemaV1.InferOutput<S>>,
): StandardSchemaCodec<StandardSchemaV1.InferOutput<S>> {
  return new StandardSchemaCodec(schema as StandardSchemaV1<unknown, StandardSchemaV1.InferOutput<S>>, options);
}

/**
 * A codec, or a Standard Schema v1 of values of type `T` (zod 4, valibot 1, arktype 2, …): what
 * `@lib/rest` takes wherever a route takes a codec, and turns into a codec once, when the route
 * is declared (a Standard Schema through {@link fromStandardSchema}). `Infer` and `InferInput`
 * read both.
 */
export type SchemaLike<T = unknown> = Codec<T> | StandardSchemaV1<unknown, T>;
