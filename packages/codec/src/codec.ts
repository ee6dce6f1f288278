import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { DecodeError, makeIssue, type Issue, type PathSegment } from './decode-error.js';
import { EncodeError } from './encode-error.js';
import { partialWire } from './internal/partial-wire.js';
import type { JsonSchema } from './json-schema.js';
import { SchemaWriter } from './schema-writer.js';

/**
 * A check on a decoded value, reflected into JSON Schema where a keyword exists
 *. Constraints come from `@lib/validate` or are
 * written by hand; they are plain values, so the schema renderer can read them.
 */
export interface Constraint<T> {
  /** The constraint's name, reported in `Issue.constraint` (`minLength`, `uuid`). */
  readonly name: string;
  /** The constraint's arguments, for reflection (`{ min: 3 }`). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** True when `value` satisfies the constraint. Must not throw. */
  test(value: T): boolean;
  /** The failure message for `value`, without the path (`must have at least 3 characters`). */
  message(value: T): string;
  /**
   * The JSON Schema keywords this constraint adds (`{ minLength: 3 }`), or a function of the
   * schema it refines that returns the refined schema. Absent when JSON Schema has no keyword.
   */
  readonly schema?: JsonSchema | ((schema: JsonSchema) => JsonSchema);
}

/** Documentation metadata carried by every codec and emitted into its schema. */
export interface CodecMeta {
  /** Schema name: the OpenAPI renderer emits a named codec once, under `components.schemas`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
  /** Default wire value, emitted as `default`. */
  readonly default?: unknown;
}

/** Options of {@link Codec.decode}. */
export interface DecodeOptions {
  /** Stop at the first issue instead of collecting all of them. Default false. */
  readonly abortEarly?: boolean;
}

/** Marker returned by internal decode steps when the input is invalid (issues were recorded). */
export const INVALID: unique symbol = Symbol('invalid');
/** The type of {@link INVALID}. */
export type Invalid = typeof INVALID;

/**
 * The state of one decode: the current path and the issues found so far.
 * Codec implementations push and pop path segments around child decodes.
 */
export class DecodeContext {
  /** Issues recorded so far. */
  readonly issues: Issue[] = [];
  /** The current path from the root. */
  readonly path: PathSegment[] = [];
  /** Whether to stop at the first issue. */
  readonly abortEarly: boolean;

  constructor(options?: DecodeOptions) {
    this.abortEarly = options?.abortEarly ?? false;
  }

  /** Records an issue at the current path (plus `segment` when given) and returns {@link INVALID}. */
  addIssue(message: string, constraint: string, value: unknown, segment?: PathSegment): Invalid {
    const path = segment === undefined ? this.path.slice() : [...this.path, segment];
    this.issues.push(makeIssue(path, message, constraint, value));
    return INVALID;
  }

  /** True when decoding should stop (an issue was found and `abortEarly` is set). */
  get aborted(): boolean {
    return this.abortEarly && this.issues.length > 0;
  }
}

/** Describes the type of a wire value for messages: `string`, `null`, `array`, `object`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value;
}


/**
 * The `DecodeError` of a value that failed to encode: its structural issues, and beside them the
 * issues of decoding the wire value the encode built (each value it could not write left as it
 * was), so that the constraints of the fields that were fine are reported too — as a server
 * decoding the same request reports them — in the order of the fields.
 */
function everyIssue(codec: Codec<unknown>, err: EncodeError): DecodeError {
  const partial = partialWire(err, undefined);
  if (partial !== undefined) {
    try {
      codec.decode(partial);
    } catch (decoded) {
      if (decoded instanceof DecodeError) {
        // The encode's own issue says more where both name a place (`got NaN`); decoding adds the rest.
        const structural = new Set(err.issues.map((i) => i.pointer));
        const issues: Issue[] = [];
        const taken = new Set<string>();
        for (const d of decoded.issues) {
          if (!structural.has(d.pointer)) issues.push(d);
          else if (!taken.has(d.pointer)) {
            taken.add(d.pointer);
            issues.push(...err.issues.filter((i) => i.pointer === d.pointer));
          }
        }
        for (const i of err.issues) if (!taken.has(i.pointer)) issues.push(i);
        return new DecodeError(issues, { cause: err });
      }
    }
  }
  return err.toDecodeError();
}

/** True while an encode keeps binary values as they are ({@link EncodeOptions.rawBinary}). */
let rawBinary = false;
const RAW_BINARY: EncodeOptions = { rawBinary: true };

/**
 * True while the running encode keeps binary values raw: `bytes()` then hands its `Uint8Array`
 * over instead of base64 text. Set by `encode(value, { rawBinary: true })` and by `validate`.
 */
export function encodingRawBinary(): boolean {
  return rawBinary;
}

/** Options of {@link Codec.encode}. */
export interface EncodeOptions {
  /**
   * Hand binary values (`bytes()`) over as the `Uint8Array` they are instead of their base64
   * text (RFC 4648 §4): for formats that carry bytes as bytes (a multipart file part, a CBOR
   * byte string). Default `false`: the wire value is JSON-compatible.
   */
  readonly rawBinary?: boolean;
}

/**
 * A bidirectional, inspectable description of a value.
 *
 * - `decode(wire)` turns a wire value (parsed JSON, a parameter string) into `T`, running
 *   every constraint; it throws {@link DecodeError}.
 * - `encode(value)` turns a `T` into its wire value, checking its structure on the way (types,
 *   finite numbers, safe integers and integer ranges, required fields, union tags); it throws
 *   {@link EncodeError}. It runs no constraint.
 * - `validate(value)` checks structure and every constraint; it throws {@link DecodeError}.
 * - `schema` is the JSON Schema 2020-12 of the wire value.
 *
 * Codecs are immutable: `refine` and the `with*` methods return new codecs. Every codec is a
 * Standard Schema v1 (`'~standard'`). `kind` and `children` let renderers walk the tree.
 */
export abstract class Codec<T> implements StandardSchemaV1<unknown, T>, StandardJSONSchemaV1<unknown, T> {
  /** The constructor's name: `string`, `object`, `array`, … */
  abstract readonly kind: string;
  /** Constraints added with {@link Codec.refine}, in order. */
  readonly constraints: readonly Constraint<T>[] = [];
  /** Documentation metadata. */
  readonly meta: CodecMeta = {};
  /** Phantom field carrying the decoded type; never set at runtime. */
  declare readonly _type: T;

  /** Structural decode of `input` without this codec's own constraints. */
  protected abstract parse(input: unknown, ctx: DecodeContext): T | Invalid;
  /**
   * Encodes `value` to its wire form, checking its structure as it goes (no constraint).
   * Throws an {@link EncodeError} whose issue paths are relative to this codec; composite codecs
   * encode their children with `encode` and prefix the paths of their issues.
   */
  protected abstract serialize(value: T): unknown;
  /** The schema of the wire value, without constraints and metadata. */
  protected abstract baseSchema(gen: SchemaWriter): JsonSchema;

  /** The codecs this one is built from (fields, items, variants), for renderers. */
  children(): readonly Codec<unknown>[] {
    return [];
  }

  /**
   * Decodes a wire value into `T`, running every constraint.
   * @throws {DecodeError} listing every issue (or the first one, with `abortEarly`); a value nested
   * too deeply to walk gives one issue with constraint `depth`.
   */
  decode(wire: unknown, options?: DecodeOptions): T {
    // The compiled decoder (once installed: `installJit`) answers valid inputs; anything
    // else, and every input when codecs are interpreted, goes through the interpreter below,
    // which reports the issues.
    const fast = runCompiled(this, wire, 'compile');
    if (fast !== INVALID) return fast as T;
    const ctx = new DecodeContext(options);
    let value: T | Invalid;
    try {
      value = this.decodeIn(wire, ctx);
    } catch (err) {
      // A value nested deeper than the call stack reaches (a recursive codec given 100 000
      // levels) is invalid input, not a crash; the engine's message is not passed on.
      if (err instanceof RangeError) throw new DecodeError([makeIssue([], 'the value is nested too deeply', 'depth', undefined)]);
      throw err;
    }
    if (value === INVALID || ctx.issues.length > 0) throw new DecodeError(ctx.issues);
    return value;
  }

  /**
   * Decodes within a running decode: records issues in `ctx` and returns {@link INVALID}
   * when the input is invalid. Used by composite codecs; users call {@link Codec.decode}.
   */
  decodeIn(input: unknown, ctx: DecodeContext): T | Invalid {
    const value = this.parse(input, ctx);
    if (value === INVALID) return INVALID;
    let ok = true;
    for (const c of this.constraints) {
      if (!c.test(value)) {
        ctx.addIssue(c.message(value), c.name, value);
        ok = false;
        if (ctx.abortEarly) break;
      }
    }
    return ok ? value : INVALID;
  }

  /**
   * Encodes a value to its wire form (JSON-compatible), checking its structure in the same walk:
   * the type of every value (a string for `string()`, a valid `Date` for `time()`, a non-null
   * object for `object()`, …), finite numbers, safe integers and the range of integer codecs,
   * required object fields, the tags of tagged unions, and that some alternative of an untagged
   * union takes the value. Constraints added with {@link Codec.refine} do not run; use
   * {@link Codec.validate} for them. With `{ rawBinary: true }`, `bytes()` values stay the
   * `Uint8Array`s they are (for formats that carry bytes as bytes) instead of base64 text.
   * @throws {EncodeError} listing every structural issue, with paths in wire keys and indexes.
   * @throws {DecodeError} when the only failures are `mapValidated` encode functions that threw.
   */
  encode(value: T, options?: EncodeOptions): unknown {
    if (options?.rawBinary !== true || rawBinary) return this.serialize(value);
    rawBinary = true;
    try {
      return this.serialize(value);
    } finally {
      rawBinary = false;
    }
  }

  /**
   * Checks a value against the codec: its structure and every constraint (it decodes the
   * value's encoding).
   * @throws {DecodeError} when the value is invalid; a structural problem found while encoding
   * becomes a `DecodeError` with the same issues (its `cause` is the {@link EncodeError}).
   */
  validate(value: T): void {
    // The value is decoded again at once: binary values need no base64 round trip (decode
    // takes a Uint8Array as it is), so checking a file of megabytes costs a scan, not seconds.
    let wire: unknown;
    try {
      wire = this.encode(value, RAW_BINARY);
    } catch (err) {
      if (!(err instanceof EncodeError)) throw err;
      throw everyIssue(this, err);
    }
    this.decode(wire);
  }

  /** The JSON Schema 2020-12 of the wire value, with `$defs` for recursive parts. */
  get schema(): JsonSchema {
    let s = schemaCache.get(this);
    if (s === undefined) schemaCache.set(this, (s = new SchemaWriter().root(this)));
    return s;
  }

  /**
   * The full schema of this codec under `gen`: base schema, constraint keywords, metadata.
   * Renderers call `gen.schema(codec)` instead (a `SchemaGenerator` turns named codecs into `$ref`s).
   */
  toJsonSchema(gen: SchemaWriter): JsonSchema {
    let s: JsonSchema = this.baseSchema(gen);
    s = this.reflectConstraints(s, gen);
    return applyMeta(s, this.meta);
  }

  /** Applies the constraints' schema keywords to `schema`. */
  protected reflectConstraints(schema: JsonSchema, _gen: SchemaWriter): JsonSchema {
    let s = schema;
    for (const c of this.constraints) {
      if (c.schema === undefined) continue;
      s = typeof c.schema === 'function' ? c.schema(s) : { ...s, ...c.schema };
    }
    return s;
  }

  /** A codec that also runs `constraints` after decoding. */
  refine(...constraints: Constraint<T>[]): this {
    return this.with({ constraints: [...this.constraints, ...constraints] });
  }

  /** A copy named `name`: the OpenAPI renderer emits it under `components.schemas[name]`. */
  withName(name: string): this {
    return this.withMeta({ name });
  }

  /** A copy with the schema `title`. */
  withTitle(title: string): this {
    return this.withMeta({ title });
  }

  /** A copy with the schema `description`. */
  withDescription(description: string): this {
    return this.withMeta({ description });
  }

  /**
   * A copy with one more schema example, given as a decoded value (it is encoded).
   * @throws {EncodeError} when `example` does not have the codec's structure.
   */
  withExample(example: T): this {
    return this.withMeta({ examples: [...(this.meta.examples ?? []), this.serialize(example)] });
  }

  /** A copy marked `deprecated` in the schema. */
  withDeprecated(deprecated = true): this {
    return this.withMeta({ deprecated });
  }

  /** A copy with `patch` merged into its metadata. */
  withMeta(patch: CodecMeta): this {
    return this.with({ meta: { ...this.meta, ...patch } });
  }

  /** A shallow copy with `patch` applied; the basis of every `with*` method. */
  protected with(patch: Partial<Pick<Codec<T>, 'constraints' | 'meta'>> & Record<string, unknown>): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, patch);
    return copy;
  }

  /**
   * Standard Schema v1 (https://standardschema.dev): `validate` decodes a wire value; its
   * issues are every {@link Issue} a `DecodeError` would carry (`message` and `path`, plus
   * `pointer`, `constraint` and `value`). Also Standard JSON Schema v1: `jsonSchema.input` and
   * `jsonSchema.output` both return {@link Codec.schema} (the wire value is both what is read
   * and what is written) for target `draft-2020-12`, and throw `TypeError` for other targets.
   */
  get '~standard'(): StandardSchemaV1.Props<unknown, T> & StandardJSONSchemaV1.Props<unknown, T> {
    const jsonSchema = (options: StandardJSONSchemaV1.Options): Record<string, unknown> => {
      if (options.target !== 'draft-2020-12') {
        throw new TypeError(`@lib/codec emits JSON Schema draft-2020-12 only, not ${JSON.stringify(options.target)}`);
      }
      return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...this.schema };
    };
    return {
      version: 1,
      vendor: '@lib/codec',
      validate: (value: unknown): StandardSchemaV1.Result<T> => {
        const ctx = new DecodeContext();
        const out = this.decodeIn(value, ctx);
        if (out === INVALID || ctx.issues.length > 0) {
          return { issues: ctx.issues };
        }
        return { value: out };
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    };
  }
}

const schemaCache = new WeakMap<Codec<unknown>, JsonSchema>();

/** The compiled function of a codec that has none: every input goes to the codec's own methods. */
const refuse = (): unknown => INVALID;

/**
 * Runs the compiled function of `codec` of this `kind`, made by the compiler on first use and
 * kept on the codec itself (a non-enumerable property, so that a copy made by `with*` compiles
 * its own; a codec the user froze keeps it in a map): its result on `input`, or `INVALID` when
 * there is none, it refused the input, or it threw (the codec's own methods then decide, and
 * report what went wrong). Internal.
 */
export function runCompiled(codec: Codec<unknown>, input: unknown, kind: 'compile' | 'serializer'): unknown {
  const hook = compiler;
  if (hook === undefined || hook.mode() !== 'auto') return INVALID;
  const slot = COMPILED[kind];
  let fast = (codec as unknown as Record<symbol, Compiled | undefined>)[slot] ?? FROZEN.get(slot)?.get(codec);
  if (fast === undefined) {
    fast = hook[kind](codec) ?? refuse;
    if (Object.isExtensible(codec)) Object.defineProperty(codec, slot, { value: fast });
    else FROZEN.set(slot, (FROZEN.get(slot) ?? new WeakMap()).set(codec, fast));
  }
  try {
    return fast(input);
  } catch {
    return INVALID;
  }
}
type Compiled = (input: unknown) => unknown;
/** Where a codec keeps its compiled decoder and serializer. */
const COMPILED = { compile: Symbol('compiledDecoder'), serializer: Symbol('compiledSerializer') } as const;
/** The compiled functions of codecs a user froze, which cannot keep them, by slot. */
const FROZEN = new Map<symbol, WeakMap<Codec<unknown>, Compiled>>();

/** The codec compilers, as `internal/compile.ts` installs them. Internal. */
export interface CompilerHook {
  /** The compiled decoder of `codec` (its value, or `INVALID`), or `undefined` to interpret it. */
  compile(codec: Codec<unknown>): ((input: unknown) => unknown) | undefined;
  /** The compiled JSON serializer of `codec` (its text, or `INVALID`), or `undefined` to use `encode`. */
  serializer(codec: Codec<unknown>): ((value: unknown) => unknown) | undefined;
  /** `'auto'` to use compiled decoders, `'off'` to interpret every codec. */
  mode(): 'auto' | 'off';
}

let compiler: CompilerHook | undefined;

/** Installs the decoder compiler (`installJit`, `setJit`, and loading `internal/compile.ts` do). Internal. */
export function installCompiler(hook: CompilerHook): void {
  compiler = hook;
}

function applyMeta(schema: JsonSchema, meta: CodecMeta): JsonSchema {
  if (
    meta.title === undefined &&
    meta.description === undefined &&
    meta.examples === undefined &&
    meta.deprecated === undefined &&
    meta.default === undefined
  ) {
    return schema;
  }
  const s: JsonSchema = { ...schema };
  if (meta.title !== undefined) s.title = meta.title;
  if (meta.description !== undefined) s.description = meta.description;
  if (meta.default !== undefined) s.default = meta.default;
  if (meta.examples !== undefined) s.examples = [...meta.examples];
  if (meta.deprecated) s.deprecated = true;
  return s;
}

/**
 * The decoded type of a codec (`Infer<typeof userCodec>`), or the output type of a Standard
 * Schema (`Infer<typeof zodUser>`: `StandardSchemaV1.InferOutput`), as a route declaring either
 * decodes it.
 */
export type Infer<C> = C extends Codec<infer T> ? T : C extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<C> : never;

/** Any codec, whatever its decoded type. */
export type AnyCodec = Codec<unknown>;
