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
  type ObjectOutput,
  type Shape,
} from '@lib/codec';
import type { Format } from './format.js';
import { syntaxError, toUtf8, utf8 } from './internal/body-error.js';

/** How a field's text becomes its wire value. */
type Reader = 'text' | 'number' | 'boolean';

/** One field of the object codec as a form carries it. */
interface FormField {
  /** The key in the form (the field's wire name). */
  readonly key: string;
  readonly codec: Codec<unknown>;
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
  'duration',
  'bytes',
  'any',
  'standardSchema',
]);
/** Codecs whose wire value is a JSON number: the field's text is read as one. */
const NUMBER_KINDS: ReadonlySet<string> = new Set(['int', 'int8', 'int16', 'int32', 'uint', 'uint8', 'uint16', 'uint32', 'number', 'float32']);
/** A JSON number (RFC 8259 §6), the only numeric text a number field reads. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const FORM = 'application/x-www-form-urlencoded';

/** The reader of a single value's codec, or `undefined` when no form text can carry it. */
function readerOf(c: Codec<unknown>): Reader | undefined {
  if (TEXT_KINDS.has(c.kind)) return 'text';
  if (NUMBER_KINDS.has(c.kind)) return 'number';
  if (c.kind === 'boolean') return 'boolean';
  if (c instanceof LiteralCodec) {
    const v: unknown = c.value;
    return typeof v === 'string' ? 'text' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : undefined;
  }
  if (c instanceof EqCodec || c instanceof MapCodec || c instanceof LazyCodec) {
    const inner = c.children()[0];
    return inner === undefined ? undefined : readerOf(inner);
  }
  if (c instanceof UntaggedUnionCodec) {
    const readers = new Set((c.codecs as readonly Codec<unknown>[]).map(readerOf));
    return readers.size === 1 ? [...readers][0] : undefined;
  }
  return undefined;
}

/** The field as a form carries it. @throws {TypeError} when it cannot be carried. */
function formField(key: string, wire: string, field: Codec<unknown>): FormField {
  let c = field;
  while (c instanceof OptionalCodec || c instanceof DefaultedCodec || c instanceof LazyCodec) c = c.children()[0] as Codec<unknown>;
  const multi = c instanceof ArrayCodec;
  const reader = readerOf(multi ? (c.children()[0] as Codec<unknown>) : c);
  if (reader === undefined) {
    throw new TypeError(
      `format.form: field ${JSON.stringify(key)} (${c.kind}${multi ? ` of ${(c.children()[0] as Codec<unknown>).kind}` : ''}) cannot be carried by a form: ` +
        'use text codecs (string, intString, boolString, int64, time, date, duration, bytes, literal), numbers, boolean, or arrays of them',
    );
  }
  return { key: wire, codec: field, reader, multi, mayBeAbsent: field instanceof OptionalCodec || field instanceof DefaultedCodec };
}

/** The wire value of one field's text. */
function read(reader: Reader, text: string): unknown {
  if (reader === 'number') return NUMBER_TEXT.test(text) ? Number(text) : text;
  if (reader === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * Splits an `application/x-www-form-urlencoded` string into its name/value lists, in order
 * (WHATWG URL Standard §5.1: `&`-separated pairs, `+` for space, percent-encoded UTF-8).
 * @throws {import('@lib/codec').DecodeError} `syntax` for a malformed percent-escape or escaped
 * bytes that are not UTF-8 (where the standard's parser would keep the `%` or put U+FFFD).
 */
function parsePairs(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let n = 0;
  for (const pair of text.split('&')) {
    n++;
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      value = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch (err) {
      throw syntaxError(FORM, `pair ${n} has a malformed percent-escape or escapes bytes that are not UTF-8`, err);
    }
    const values = out.get(name);
    if (values === undefined) out.set(name, [value]);
    else values.push(value);
  }
  return out;
}

/**
 * The form body format of an object codec: `application/x-www-form-urlencoded` (WHATWG URL
 * Standard §5), what an HTML `<form method="post">` sends.
 *
 * **Fields.** Each field of the object codec (under its wire name) is one key; a field that is
 * an `array(...)` is a repeated key (`tag=a&tag=b`), as query parameters are. A field's codec,
 * under `optional`, `defaulted` or `lazy`, must be one a text can carry:
 * - text codecs, which get the string as it is: `string`, `intString`, `boolString`, `int64`,
 *   `uint64`, `time`, `date`, `duration`, `bytes` (base64), string `literal`s, `any` and Standard
 *   Schema codecs;
 * - number codecs (`int`, `uint8`, …, `number`, `float32`): the text must be a JSON number
 *   (`42`, `-1.5`, `1e3`; not `+1`, ` 1`, `0x1F` or empty), else the codec reports
 *   `expected number, got string`; written as `String(n)`;
 * - `boolean()`: `true` or `false`, written so;
 * - `eq`, `map`, `mapValidated` and untagged unions of those (all alternatives read alike).
 * Objects, records, `nullable` (a form has no null), tagged unions and nested arrays throw a
 * `TypeError` when the format is made.
 *
 * **unmarshal** decodes UTF-8, splits the pairs, and decodes the object through the codec (so it
 * validates, and issues name fields as for JSON: `name: must have at least 1 character`). A
 * missing key is an absent field (`optional` and `defaulted` apply), except for an array field
 * that is neither, which is then empty (`[]`: unchecked checkboxes send nothing, so a form has
 * no other way to send an empty list); a key given twice for a
 * field that is not an array reaches the codec as an array, which it refuses. Keys the codec
 * does not declare follow its rule: stripped, or refused with constraint `unknownKey` after
 * `.strict()`. An empty body is a form without fields (`{}` before decoding). Refused as
 * `DecodeError` with one issue, constraint `syntax`: invalid UTF-8, a malformed percent-escape
 * (`%zz`), or escaped bytes that are not UTF-8 (`%FF`) — stricter than the standard's parser,
 * which would keep or replace them silently.
 *
 * **marshal** encodes through the codec (which checks the structure and throws `EncodeError`)
 * and writes each field's wire value as text, arrays as repeated keys, with the standard's
 * serializer (`URLSearchParams`: `+` for space, UTF-8 percent-escapes).
 *
 * `bodySchema` describes the fields by their meaning, as OpenAPI describes form bodies and
 * parameters: `intString()` as `{ type: 'integer' }`, `boolString()` as `{ type: 'boolean' }`.
 */
export class FormFormat<S extends Shape> implements Format<ObjectOutput<S>> {
  readonly contentType: string = FORM;
  readonly codec: ObjectCodec<S>;
  readonly #fields: readonly FormField[];
  #schema: JsonSchema | undefined;
  /** @throws {TypeError} when a field's codec cannot be carried by a form. */
  constructor(codec: ObjectCodec<S>) {
    this.codec = codec;
    this.#fields = Object.keys(codec.shape).map((k) => formField(k, codec.wireName(k), codec.shape[k] as Codec<unknown>));
  }

  /** The object schema with each field described as a parameter (its meaning, not its text). */
  get bodySchema(): JsonSchema {
    if (this.#schema === undefined) {
      const gen = new SchemaGenerator();
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const f of this.#fields) {
        defineEntry(properties, f.key, gen.parameterSchema(f.codec));
        if (!f.mayBeAbsent && !f.multi) required.push(f.key);
      }
      const s: JsonSchema = { type: 'object', properties };
      if (required.length > 0) s.required = required;
      if (this.codec.unknownKeys === 'reject') s.additionalProperties = false;
      const { title, description } = this.codec.meta;
      if (title !== undefined) s.title = title;
      if (description !== undefined) s.description = description;
      this.#schema = s;
    }
    return this.#schema;
  }

  /**
   * The form of the value, UTF-8.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} when a field's wire value is not text, a number or a boolean (an `any()`
   * field holding an object).
   */
  marshal(value: ObjectOutput<S>): Uint8Array {
    const wire = this.codec.encode(value) as Record<string, unknown>;
    const params = new URLSearchParams();
    for (const f of this.#fields) {
      const v = wire[f.key];
      if (v === undefined) continue;
      if (Array.isArray(v)) v.forEach((x, i) => params.append(f.key, text(x, [f.key, i])));
      else params.append(f.key, text(v, [f.key]));
    }
    return toUtf8(params.toString());
  }

  /**
   * Parses the form and decodes it through the codec.
   * @throws {import('@lib/codec').DecodeError} `syntax` for bytes that are not a form, or the
   * codec's issues.
   */
  unmarshal(bytes: Uint8Array): ObjectOutput<S> {
    const pairs = parsePairs(utf8(bytes, FORM));
    const wire: Record<string, unknown> = {};
    for (const f of this.#fields) {
      const values = pairs.get(f.key);
      if (values === undefined) {
        // A required array with no key is empty: a form cannot send an empty list otherwise
        // (a group of unchecked checkboxes sends nothing).
        if (f.multi && !f.mayBeAbsent) defineEntry(wire, f.key, []);
        continue;
      }
      pairs.delete(f.key);
      const read1 = (t: string): unknown => read(f.reader, t);
      defineEntry(wire, f.key, f.multi || values.length > 1 ? values.map(read1) : read1(values[0] as string));
    }
    // Undeclared keys, for the codec to strip or refuse.
    for (const [k, values] of pairs) defineEntry(wire, k, values.length === 1 ? values[0] : values);
    return this.codec.decode(wire);
  }
}

/** A field's wire value as form text. @throws {TypeError} for anything but text, numbers and booleans. */
function text(v: unknown, path: (string | number)[]): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TypeError(`format.form: ${formatPath(path)} encodes to ${v === null ? 'null' : typeof v}, which a form cannot carry`);
}

/**
 * The form body format of an object codec (`format.form(loginCodec)`), media type
 * `application/x-www-form-urlencoded`. See {@link FormFormat} for the field codecs it takes.
 * @throws {TypeError} when a field's codec cannot be carried by a form.
 */
// @__NO_SIDE_EFFECTS__
export function form<S extends Shape>(codec: ObjectCodec<S>): FormFormat<S> {
  return new FormFormat(codec);
}
