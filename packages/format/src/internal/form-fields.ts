import {
  ArrayCodec,
  DefaultedCodec,
  defineEntry,
  EqCodec,
  formatPath,
  LazyCodec,
  LiteralCodec,
  MapCodec,
  OptionalCodec,
  SchemaGenerator,
  UntaggedUnionCodec,
  type Codec,
  type JsonSchema,
  type ObjectCodec,
  type Shape,
} from '@lib/codec';

/**
 * How a field's part becomes its wire value: text read as is, as a number or a boolean (forms
 * and multipart text fields); raw bytes or a `Blob` (multipart file parts); JSON text (a
 * multipart part of an object, record, union or nested array: `application/json`, as OpenAPI 3.1
 * §4.8.15.1 gives complex values by default).
 */
export type Reader = 'text' | 'number' | 'boolean' | 'bytes' | 'blob' | 'json';

/** One field of an object codec as a form (urlencoded or multipart) carries it. */
export interface FormField {
  /** The property name in the decoded value. */
  readonly prop: string;
  /** The key in the form (the field's wire name). */
  readonly key: string;
  readonly codec: Codec<unknown>;
  /** The codec of one value: under `optional`, `defaulted`, `lazy` and, for repeated keys, the array. */
  readonly item: Codec<unknown>;
  readonly reader: Reader;
  /** Repeated keys: the field is an array. */
  readonly multi: boolean;
  /** The field is `optional` or `defaulted`: its key may be absent. */
  readonly mayBeAbsent: boolean;
}

/** Codecs whose wire value is text: the field's string is handed over as it is. */
const TEXT_KINDS: ReadonlySet<string> = new Set([
  'string',
  'intString',
  'boolString',
  'int64',
  'uint64',
  'time',
  'date',
  'httpDate',
  'duration',
  'bytes',
  'any',
  'standardSchema',
]);
/** Codecs whose wire value is a JSON number: the field's text is read as one. */
const NUMBER_KINDS: ReadonlySet<string> = new Set(['int', 'int8', 'int16', 'int32', 'uint', 'uint8', 'uint16', 'uint32', 'number', 'float32']);
/** A JSON number (RFC 8259 §6), the only numeric text a number field reads. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The reader of a single value's codec, or `undefined` when no form text can carry it. */
function readerOf(c: Codec<unknown>, files: boolean): Reader | undefined {
  if (files && c.kind === 'bytes') return 'bytes';
  if (files && c.kind === 'blob') return 'blob';
  if (TEXT_KINDS.has(c.kind)) return 'text';
  if (NUMBER_KINDS.has(c.kind)) return 'number';
  if (c.kind === 'boolean') return 'boolean';
  if (c instanceof LiteralCodec) {
    const v: unknown = c.value;
    return typeof v === 'string' ? 'text' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : undefined;
  }
  if (c instanceof EqCodec || c instanceof MapCodec || c instanceof LazyCodec) {
    const inner = c.children()[0];
    return inner === undefined ? undefined : readerOf(inner, false);
  }
  if (c instanceof UntaggedUnionCodec) {
    const readers = new Set((c.codecs as readonly Codec<unknown>[]).map((x) => readerOf(x, false)));
    return readers.size === 1 ? [...readers][0] : undefined;
  }
  return undefined;
}

/**
 * The fields of `codec` as a form carries them; with `files`, `bytes` and `blob` fields are
 * file parts (multipart), else `bytes` is base64 text.
 * @throws {TypeError} naming the first field no form text (or file part) can carry.
 */
export function formFields(what: string, codec: ObjectCodec<Shape>, files: boolean): FormField[] {
  return Object.keys(codec.shape).map((prop) => {
    const field = codec.shape[prop] as Codec<unknown>;
    let c = field;
    while (c instanceof OptionalCodec || c instanceof DefaultedCodec || c instanceof LazyCodec) c = c.children()[0] as Codec<unknown>;
    const multi = c instanceof ArrayCodec;
    const item = multi ? (c.children()[0] as Codec<unknown>) : c;
    // A multipart part that no text carries is JSON (RFC 7578 §4.4: a part has a Content-Type of its own).
    const reader = readerOf(item, files) ?? (files ? 'json' : undefined);
    if (reader === undefined) {
      throw new TypeError(
        `${what}: field ${JSON.stringify(prop)} (${c.kind}${multi ? ` of ${item.kind}` : ''}) cannot be carried by a form: ` +
          'use text codecs (string, intString, boolString, int64, time, date, duration, bytes, literal), numbers, boolean, or arrays of them',
      );
    }
    return { prop, key: codec.wireName(prop), codec: field, item, reader, multi, mayBeAbsent: field instanceof OptionalCodec || field instanceof DefaultedCodec };
  });
}

/** The wire value of one text field's text. */
export function readText(reader: Reader, text: string): unknown {
  if (reader === 'number') return NUMBER_TEXT.test(text) ? Number(text) : text;
  if (reader === 'json') {
    // Text that is not JSON reaches the codec as it is, which refuses it with the field's path.
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (reader === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** A text field's wire value as form text. @throws {TypeError} for anything but text, numbers and booleans. */
export function fieldText(what: string, v: unknown, path: (string | number)[]): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TypeError(`${what}: ${formatPath(path)} encodes to ${v === null ? 'null' : typeof v}, which a form cannot carry`);
}

/**
 * The wire object of a form from its values by key (text already read, files as they are): a
 * missing required array is `[]` (a form cannot send an empty list otherwise: unchecked
 * checkboxes send nothing), a repeated key is an array, undeclared keys are kept for the codec
 * to strip or refuse. Consumes `values`.
 */
export function wireObject(fields: readonly FormField[], values: Map<string, unknown[]>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const f of fields) {
    const vs = values.get(f.key);
    if (vs === undefined) {
      if (f.multi && !f.mayBeAbsent) defineEntry(wire, f.key, []);
      continue;
    }
    values.delete(f.key);
    const read = vs.map((v) => (typeof v === 'string' ? readText(f.reader, v) : v));
    defineEntry(wire, f.key, f.multi || read.length > 1 ? read : read[0]);
  }
  for (const [k, vs] of values) defineEntry(wire, k, vs.length === 1 ? vs[0] : vs);
  return wire;
}

/**
 * The object schema of a form body, each field described by its meaning as a parameter
 * (`intString()` → `{ type: 'integer' }`); `file(field)` gives a file field's schema.
 */
export function formSchema(codec: ObjectCodec<Shape>, fields: readonly FormField[], file?: (f: FormField) => JsonSchema, gen: SchemaGenerator = new SchemaGenerator()): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of fields) {
    const isFile = f.reader === 'bytes' || f.reader === 'blob';
    const one = isFile && file !== undefined ? file(f) : undefined;
    const described = f.reader === 'json' ? gen.schema(f.codec) : gen.parameterSchema(f.codec);
    defineEntry(properties, f.key, one === undefined ? described : f.multi ? { type: 'array', items: one } : one);
    if (!f.mayBeAbsent && !f.multi) required.push(f.key);
  }
  const s: JsonSchema = { type: 'object', properties };
  if (required.length > 0) s.required = required;
  if (codec.unknownKeys === 'reject') s.additionalProperties = false;
  const { title, description } = codec.meta;
  if (title !== undefined) s.title = title;
  if (description !== undefined) s.description = description;
  return s;
}
