import { type ObjectCodec, type ObjectOutput, type JsonSchema, type SchemaGenerator, type Shape } from '@lib/codec';
import type { Format } from './format.js';
import { syntaxError, toUtf8, utf8 } from './internal/body-error.js';
import { fieldText, formFields, formSchema, wireObject, type FormField } from './internal/form-fields.js';

const FORM = 'application/x-www-form-urlencoded';


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
    this.#fields = formFields('format.form', codec as unknown as ObjectCodec<Shape>, false);
  }

  /** The object schema with each field described as a parameter (its meaning, not its text). */
  get bodySchema(): JsonSchema {
    return (this.#schema ??= formSchema(this.codec as unknown as ObjectCodec<Shape>, this.#fields));
  }

  /** {@link FormFormat.bodySchema}, each field's schema by `gen` (a named codec a reference to its component). */
  bodySchemaWith(gen: SchemaGenerator): JsonSchema {
    return formSchema(this.codec as unknown as ObjectCodec<Shape>, this.#fields, undefined, gen);
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
      if (Array.isArray(v)) v.forEach((x, i) => params.append(f.key, fieldText('format.form', x, [f.key, i])));
      else params.append(f.key, fieldText('format.form', v, [f.key]));
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
    const wire = wireObject(this.#fields, pairs as Map<string, unknown[]>);
    return this.codec.decode(wire);
  }
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
